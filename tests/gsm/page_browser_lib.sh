# tests/gsm/page_browser_lib.sh: one headless Chromium ($chromium) for a whole test, driven by page_browser.py as a
# coprocess answering one line per command (run_page.sh, run_page_live.sh). Sourced after
# tests/agent/lib.sh; sets the EXIT trap (the browser stopped by its PID, then lib.sh's cleanup).
#   browser_start   starts it (a start costs seconds: once per test) and waits for its "ready"; a browser
#                   that does not start (Chromium has failed to, once, on a loaded machine) is started once
#                   more; false when neither did, with the driver's last lines in $answer
#   ask COMMAND     sends a page_browser.py command; its answer in $answer (false, saying why, when the
#                   driver has ended)
#   browser_stop    closes it and waits for it to end
page_browser_driver="$(dirname "${BASH_SOURCE[0]}")/page_browser.py"
browser_pid=
trap '[ -n "$browser_pid" ] && stop_pid "$browser_pid"; cleanup' EXIT
browser_start() {
  local attempt
  for attempt in 1 2; do
    rm -rf "$work/chromium"; mkdir "$work/chromium"
    coproc BROWSER { exec python3 "$page_browser_driver" "$chromium" "$wait_limit" "$work/chromium" 2> "$work/driver.err"; }
    browser_pid=$BROWSER_PID
    answer=
    [ -n "${BROWSER[0]:-}" ] && IFS= read -r -t $((wait_limit * 2)) -u "${BROWSER[0]}" answer
    [ "$answer" = ready ] && return 0
    answer="the browser did not start (attempt $attempt): $(tail -n 3 "$work/driver.err" | tr '\n' ' ')"
    echo "$answer" >&2
    [ -n "$browser_pid" ] && stop_pid "$browser_pid"; browser_pid=
  done
  return 1
}
ask() {
  answer=
  if [ -z "${BROWSER[1]:-}" ]; then
    answer="the browser driver has ended: $(tail -n 3 "$work/driver.err" | tr '\n' ' ')"
    return 1
  fi
  printf '%s\n' "$1" >&"${BROWSER[1]}"
  IFS= read -r -t $((wait_limit * 2)) -u "${BROWSER[0]}" answer
}
browser_stop() {
  local fd=${BROWSER[1]:-}
  [ -n "$fd" ] && exec {fd}>&-
  [ -n "$browser_pid" ] && await_pid "$browser_pid"
  browser_pid=
}
