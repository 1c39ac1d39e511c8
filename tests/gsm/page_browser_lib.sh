# tests/gsm/page_browser_lib.sh: one headless Chromium ($chromium) for a whole test, driven by page_browser.py as a
# coprocess answering one line per command (run_page.sh, run_page_live.sh). Sourced after
# tests/agent/lib.sh; sets the EXIT trap (the browser stopped by its PID, then lib.sh's cleanup).
#   browser_start   starts it (a start costs seconds: once per test)
#   ask COMMAND     sends a page_browser.py command; its answer in $answer
#   browser_stop    closes it and waits for it to end
page_browser_driver="$(dirname "${BASH_SOURCE[0]}")/page_browser.py"
browser_pid=
trap '[ -n "$browser_pid" ] && stop_pid "$browser_pid"; cleanup' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
browser_start() {
  mkdir "$work/chromium"
  coproc BROWSER { exec python3 "$page_browser_driver" "$chromium" "$wait_limit" "$work/chromium" 2> "$work/driver.err"; }
  browser_pid=$BROWSER_PID
}
ask() {
  answer=
  printf '%s\n' "$1" >&"${BROWSER[1]}"
  IFS= read -r -t $((wait_limit * 2)) -u "${BROWSER[0]}" answer
}
browser_stop() {
  local fd=${BROWSER[1]}
  exec {fd}>&-
  await_pid "$browser_pid"; browser_pid=
}
