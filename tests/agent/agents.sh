# agents.sh: named free-running agents of the campaign tests (two agents, kills and restarts), sourced
# after tests/agent/lib.sh: started, killed with SIGKILL, or stopped with SIGTERM and checked to exit 0.
# Agent NAME logs to $work/agent-NAME.log (appended to across restarts).
declare -A agent_pid_of     # the running agents, by name
declare -A agent_log_before # lines of an agent's log before its latest start

# spawn_agent NAME ARG...: `ldgsm run ARG...` in the background. The fds the stepped tests hold (5-7:
# tests/gsm/property/step.sh) are closed in it, so that their readers see their end.
spawn_agent() {
  local name=$1; shift
  agent_log_before[$name]=0
  [ -e "$work/agent-$name.log" ] && agent_log_before[$name]=$(wc -l < "$work/agent-$name.log")
  "$ldgsm" run -v "$@" > /dev/null 2>> "$work/agent-$name.log" 5>&- 6<&- 7>&- & # -v: iteration lines (iterated_since_start)
  agent_pid_of[$name]=$!
}

# kill_agent NAME: SIGKILL, at whatever point it is.
kill_agent() {
  kill -KILL "${agent_pid_of[$1]}" 2>/dev/null
  wait "${agent_pid_of[$1]}" 2>/dev/null
  unset "agent_pid_of[$1]"
}

# stop_agent NAME: SIGTERM; it must exit 0. A signal that comes before `ldgsm run` installed its handler
# ends it as it ends any program (143), which says nothing of the agent: the signal waits (at most
# $wait_limit s) until the agent logged an iteration since its latest start.
stop_agent() {
  local name=$1 pid=${agent_pid_of[$1]} rc i
  for ((i = 0; i < wait_limit * 50; i++)); do
    iterated_since_start "$name" && break
    running "$pid" || break
    nap 0.02
  done
  stop_pid "$pid"; rc=$?
  check "agent $name exits 0 on SIGTERM (exit status: $rc)" [ "$rc" = 0 ]
  unset "agent_pid_of[$name]"
}

# iterated_since_start NAME: the agent's log has an "iteration:" line after its latest start (read in the
# shell: stop_agent asks every 20 ms)
iterated_since_start() {
  local line n=0
  while IFS= read -r line; do
    n=$((n + 1))
    [ $n -gt "${agent_log_before[$1]}" ] && [[ $line == iteration:* ]] && return 0
  done < "$work/agent-$1.log"
  return 1
}

# stop_agents: every running agent, SIGTERM (unchecked: for a test's exit trap).
stop_agents() {
  local name
  for name in "${!agent_pid_of[@]}"; do stop_pid "${agent_pid_of[$name]}"; done
}
