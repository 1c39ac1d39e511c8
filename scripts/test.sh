#!/usr/bin/env bash
# README command 2: installs what is missing, builds into build/ (and build-sanitize/ with ASan+UBSan),
# and runs every test in both builds. The Debian package has its own check, `scripts/deb.sh --check`
# (about 2 minutes more than the suite's 20 allow).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/peers.sh

jobs=$(nproc 2>/dev/null || echo 2)
# The tests start Python thousands of times; a version manager's shim in front of it (pyenv's costs about
# 0.13 s a start here) would take more time than the tests' own work, so they run the interpreter it
# resolves to.
mkdir -p build/test-bin
ln -sf "$(python3 -c 'import sys; print(sys.executable)')" build/test-bin/python3
export PATH="$PWD/build/test-bin:$PATH"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
# The campaigns run at about half their ctest defaults here (the suite must stay within CI's limit; the
# defaults and scripts/chaos.sh, patterns-property.sh, deps-property.sh run them longer): the call campaign
# 10 and 5 kills (20 and 10), the pattern property 12 terms (25), the dependency property 30 sets (60), the
# compiled dependency policy 100 sets (200), the state machine's exactly-once test 12 kills (20).
# Most shell tests wait (on servers, deadlines, killed agents, other processes) more than they compute, so
# ctest runs twice as many tests as there are cores; tests/costs.cmake starts the longest first.
(cd build && CHAOS_KILLS=10 CHAOS_KILLS2=5 PATTERN_PROPERTY_TERMS=12 DEPS_PROPERTY_CASES=30 DEPS_POLICY_CASES=100 \
  WSM_CHAOS_KILLS=12 ctest --output-on-failure -j"$((jobs * 2))")

# Against Community Solid Server 7.2.0, side by side (each starts its own server; 77: the npm peers are not
# installed): the GSM workflows again, and the same LDP, CORS and N3 Patch interactions against both
# servers, differing only as tests/ldp/CSS-DIFFERENCES.md lists. Each one's output is shown when it ends.
css_logs=$(mktemp -d /tmp/ldgsm-css-stage.XXXXXX)
bash tests/gsm/css_gsm.sh build/ldgsm > "$css_logs/gsm" 2>&1 &
css_gsm=$!
bash tests/ldp/css_interop.sh build/ldgsm > "$css_logs/interop" 2>&1 &
css_interop=$!
css_failed=0
for run in gsm:$css_gsm interop:$css_interop; do
  status=0
  wait "${run#*:}" || status=$?
  cat "$css_logs/${run%%:*}"
  if [ $status -ne 0 ] && [ $status -ne 77 ]; then
    echo "the CSS stage's ${run%%:*} run failed (exit $status)" >&2
    css_failed=1
  fi
done
rm -rf "$css_logs"
[ $css_failed = 0 ] || exit 1

# -O1, as AddressSanitizer's documentation advises for speed; it is a build configuration of its own too,
# whose warnings (GCC's flow analysis differs by level) fail the build like the others'.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DLDGSM_SANITIZE=ON
cmake --build build-sanitize -j"$jobs"
# Every test again in that build: the sanitizers' options, the smaller sizes of the long tests and the two
# tests left out are in tests/sanitizer.cmake, which gives them to ctest there.
(cd build-sanitize && ctest --output-on-failure -j"$jobs")
