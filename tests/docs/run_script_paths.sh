#!/usr/bin/env bash
# The Python scripts under tests/ and bench/ find the files beside them through their real path
# (os.path.realpath(__file__)), never abspath: tests/gsm/css_gsm.sh runs them from a scratch tree of
# symbolic links, where an abspath directory holds only the links it was given (CI failed on exactly that:
# lossy_notifications.py could not import tests/ldp/ws_client.py). A script using abspath(__file__) fails
# the test with FILE:LINE. $1 (the ldgsm binary) is not used.
root=$(cd "$(dirname "$0")/../.." && pwd)
found=$(grep -rn --include='*.py' 'abspath(__file__)' "$root/tests" "$root/bench" | sed "s|^$root/||")
if [ -n "$found" ]; then
  printf 'a script locates its neighbours through abspath(__file__), which a symbolic link defeats:\n%s\n' "$found"
  exit 1
fi
echo "run_script_paths.sh: every script under tests/ and bench/ locates its neighbours by real path"
