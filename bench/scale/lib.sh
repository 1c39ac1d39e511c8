# bench/scale/lib.sh, sourced by run.sh, poll.sh, idle.sh and container-size.sh: the LDP tier a bench runs against.
# The sourcing script sets root (the source tree), ldgsm (the binary) and work (its directory).
#   start_server NAME [FIXTURES]  NAME: serve (`ldgsm serve --memory`, or `--data $SERVE_DATA` when it is
#                 set, plus SERVE_OPTIONS) or cssW (scripts/css-cluster.sh with W workers;
#                 CLUSTER_NOTIFICATIONS: its --notifications, default disabled: not CSS_..., which CSS would
#                 take as its own command-line argument); FIXTURES: a directory whose documents (not
#                 status/, not README.md) the server starts with. Sets base (ending in /), server_pids.
#   stop_server   stops what start_server started, by PID.
#   server_cpu    utime + stime of the server's processes (CSS's primary, workers and redis), seconds.
#   seed_complete_copies N   N complete instances of the evaluation workflow, status/poll/i1 ... iN
#                 (SEED_OPTIONS: more options for the agent that runs the one they copy).
server_pids=() base='' serve_pid='' css_dir=''
ticks=$(getconf CLK_TCK)

start_server() {
  local name=$1 fixtures=${2:-}
  case $name in
    serve)
      local storage=(--memory)
      [ -z "${SERVE_DATA:-}" ] || storage=(--data "$SERVE_DATA")
      # shellcheck disable=SC2086 # SERVE_OPTIONS is a list of options
      "$ldgsm" serve "${storage[@]}" --port 0 ${fixtures:+--fixtures "$fixtures"} ${SERVE_OPTIONS:-} \
        > "$work/serve.out" 2> "$work/serve.err" &
      serve_pid=$!
      for _ in $(seq 1 1200); do [ -s "$work/serve.out" ] && break; sleep 0.05; done # --data: read back first
      base=$(head -n 1 "$work/serve.out")
      case $base in http*) ;; *) base="http://127.0.0.1:$base/" ;; esac
      server_pids=("$serve_pid") ;;
    css[0-9]*)
      css_dir=$work/$name-deploy
      base=$("$root/scripts/css-cluster.sh" start --workers "${name#css}" --dir "$css_dir" \
        --notifications "${CLUSTER_NOTIFICATIONS:-disabled}" 2> "$work/$name-start.log") ||
        { cat "$work/$name-start.log" >&2; return 1; }
      read -r -a server_pids <<< "$(awk '{ print $2 }' "$css_dir/pids" | tr '\n' ' ')"
      [ -n "$fixtures" ] || return 0
      # what `ldgsm serve --fixtures` starts from: the model and the data its sentries read
      local f
      while read -r f; do
        curl -s -f -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @"$fixtures/$f" "$base$f" ||
          { echo "$name refused the fixture $f" >&2; return 1; }
      done < <(cd "$fixtures" && find . -type f ! -name README.md ! -path './status/*' | sed 's|^\./||' | sort) ;;
    *) echo "unknown server $name (serve, css1, css2, ...)" >&2; return 1 ;;
  esac
}

stop_server() {
  if [ -n "$serve_pid" ]; then kill -TERM "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; serve_pid=; fi
  if [ -n "$css_dir" ]; then "$root/scripts/css-cluster.sh" stop --dir "$css_dir" 2>/dev/null; css_dir=; fi
  server_pids=()
}

server_cpu() {
  local p t=0
  for p in "${server_pids[@]}"; do
    [ -r "/proc/$p/stat" ] && t=$(awk -v t="$t" -v k="$ticks" '{ sub(/^.*\) /, ""); printf "%.3f", t + ($12 + $13) / k }' "/proc/$p/stat")
  done
  echo "$t"
}

# seed_complete_copies N: one instance of the evaluation workflow run to completion (status/poll/seed),
# then N copies of its status document, its IRIs renamed (status/poll/i1 ... iN), written 8 at a time.
seed_complete_copies() {
  local n=$1 i made
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf <%smodels/evaluation#workflow> ; gsm:hasState gsm:uninitialized .\n' \
    "$base" | curl -s -f -o /dev/null -X PUT -H 'Content-Type: text/turtle' --data-binary @- "${base}status/poll/seed" || return 1
  # shellcheck disable=SC2086 # SEED_OPTIONS is a list of options (--archive-history: copies of a few KB)
  "$ldgsm" run --instance "${base}status/poll/seed#it" -n 0 --until complete --iterations 100 ${SEED_OPTIONS:-} \
    > /dev/null 2> "$work/seed.log" ||
    { echo "the seed instance did not complete (see $work/seed.log)" >&2; return 1; }
  curl -s -f -H 'Accept: application/n-triples' "${base}status/poll/seed" > "$work/seed.nt" || return 1
  mkdir -p "$work/docs"
  # one process writes the copies and curl's list (a sed per copy took minutes at 10,000)
  python3 - "$work" "$base" "$n" <<'PY' || return 1
import sys
work, base, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed = open(f"{work}/seed.nt").read()
with open(f"{work}/urls", "w") as urls:
    for i in range(1, n + 1):
        with open(f"{work}/docs/i{i}", "w") as doc:
            doc.write(seed.replace("status/poll/seed", f"status/poll/i{i}"))
        urls.write(f'url = "{base}status/poll/i{i}"\nupload-file = "{work}/docs/i{i}"\noutput = "/dev/null"\n')
PY
  made=$(curl -s --no-progress-meter -Z --parallel-max 8 -H 'Content-Type: application/n-triples' -w '%{http_code}\n' -K "$work/urls" | grep -c '^20')
  [ "$made" -eq "$n" ] || { echo "only $made of $n copies were written" >&2; return 1; }
}
