# agents.sh: named free-running agents of the campaign tests (two agents, kills and restarts), sourced
# after tests/agent/lib.sh: started, killed with SIGKILL, or stopped with SIGTERM and checked to exit 0.
# Agent NAME logs to $work/agent-NAME.log (appended to across restarts).
declare -A agent_pid_of     # the running agents, by name
declare -A agent_log_before # lines of an agent's log before its latest start

# spawn_agent NAME ARG...: `ldgsm run ARG...` in the background. The fds the stepped tests hold (5-7:
# tests/gsm/property/step.sh) are closed in it, so that their readers see their end.
spawn_agent() {
  local name=$1; shift
  agent_log_before[$name]=$(cat "$work/agent-$name.log" 2>/dev/null | wc -l)
  "$ldgsm" run "$@" > /dev/null 2>> "$work/agent-$name.log" 5>&- 6<&- 7>&- &
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
  local name=$1 pid=${agent_pid_of[$1]} rc _
  for _ in $(seq 1 $((wait_limit * 50))); do
    [ "$(tail -n +$((agent_log_before[$name] + 1)) "$work/agent-$name.log" | grep -c '^iteration:')" -gt 0 ] && break
    running "$pid" || break
    sleep 0.02
  done
  stop_pid "$pid"; rc=$?
  check "agent $name exits 0 on SIGTERM (exit status: $rc)" [ "$rc" = 0 ]
  unset "agent_pid_of[$name]"
}

# stop_agents: every running agent, SIGTERM (unchecked: for a test's exit trap).
stop_agents() {
  local name
  for name in "${!agent_pid_of[@]}"; do stop_pid "${agent_pid_of[$name]}"; done
}
