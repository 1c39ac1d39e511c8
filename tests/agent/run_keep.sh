#!/usr/bin/env bash
# KEEP=1 (tests/agent/lib.sh) keeps a test's scratch directory and still stops what the test started: a
# server and the HTTP driver left running outlived every run that kept its files (tests/auth/css_auth.sh
# keeps its tests' directories; their drivers were found hours later). A small test written here starts a
# server and the driver and says their PIDs; run with and without KEEP=1.
set -u
. "$(dirname "$0")/lib.sh"
cat > "$work/tiny.sh" << EOF_TINY
. "$agent_tests/lib.sh" "\$1"
start_server
get "" > /dev/null
echo "\$server_pid \$http_driver_pid \$work" > "$work/pids"
check "the server answers" [ "\$http_code" = 200 ]
finish
EOF_TINY
# gone PID: true when the process has ended (or is a zombie no longer running)
gone() { ! running "$1"; }
for keep in 1 ""; do
  rm -f "$work/pids"
  KEEP=$keep bash "$work/tiny.sh" "$ldgsm" > "$work/tiny.out" 2>&1
  check "KEEP=${keep:-(unset)}: the small test passes" grep -q "1 passed" "$work/tiny.out"
  read -r its_server its_driver its_work < "$work/pids"
  check "KEEP=${keep:-(unset)}: its server is stopped" gone "$its_server"
  check "KEEP=${keep:-(unset)}: its HTTP driver is stopped" gone "$its_driver"
  if [ -n "$keep" ]; then
    check "KEEP=1: its directory is kept" test -d "$its_work"
    rm -rf "$its_work"
  else
    check "without KEEP: its directory is removed" test ! -e "$its_work"
  fi
done
finish
