#!/usr/bin/env bash
# README command 2: installs what is missing, builds into build/ (and build-sanitize/ with ASan+UBSan),
# and runs every test in both builds. The Debian package has its own check, `scripts/deb.sh --check`.
# The stages overlap where one waits: the npm peers install while the plain build compiles, and the
# sanitizer build compiles (at a lower priority) while the plain tests run, which wait on servers and
# agents much of their time. docs/hacking.md gives the stages' times.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
logs=$(mktemp -d /tmp/ldgsm-test-stages.XXXXXX)
trap 'rm -rf "$logs"' EXIT

# show_on_failure NAME PID: waits for a background stage; its output is shown only when it failed.
show_on_failure() {
  local status=0
  wait "$2" || status=$?
  if [ $status -ne 0 ]; then
    cat "$logs/$1"
    echo "scripts/test.sh: the $1 stage failed (exit $status)" >&2
    exit $status
  fi
}

scripts/peers.sh > "$logs/peers" 2>&1 &
peers=$!
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
show_on_failure peers $peers

# -O1, as AddressSanitizer's documentation advises for speed; it is a build configuration of its own too,
# whose warnings (GCC's flow analysis differs by level) fail the build like the others'. -g1: the line
# tables and functions the sanitizers' reports and the leak suppressions need (the same stacks, inlined
# frames too), without the variables' debug information, which took 30% of this build's compile CPU.
(cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DLDGSM_SANITIZE=ON &&
  nice -n 10 cmake --build build-sanitize -j"$jobs") > "$logs/sanitizer-build" 2>&1 &
sanitizer_build=$!

# The campaigns run at about half their ctest defaults here (the suite must stay within CI's limit; the
# defaults and scripts/chaos.sh, patterns-property.sh, deps-property.sh run them longer): the call campaign
# 10 and 5 kills (20 and 10), the pattern property 12 terms (25) and 4 under --incremental (8), the
# dependency property 30 sets (60), the compiled dependency policy 100 sets (200), the state machine's
# exactly-once test 12 kills (20) and its property test 12 schemas (25).
# The two runs against Community Solid Server (the plain build's gsm_css_gsm and ldp_css_interop) wait on
# that server most of their time, one part after another: they run beside both ctest stages rather than
# make the plain stage wait for them; their output is shown when they fail.
(cd build && ctest -R '_css_' --output-on-failure -j2) > "$logs/css" 2>&1 &
css=$!
# Most shell tests wait (on servers, deadlines, killed agents, other processes) more than they compute, so
# ctest runs twice as many tests as there are cores; tests/costs.cmake starts the longest first.
plain=0
(cd build && CHAOS_KILLS=10 CHAOS_KILLS2=5 PATTERN_PROPERTY_TERMS=12 PATTERN_PROPERTY_INCREMENTAL_TERMS=4 \
  DEPS_PROPERTY_CASES=30 DEPS_POLICY_CASES=100 \
  WSM_CHAOS_KILLS=12 WSM_PROPERTY_SCHEMAS=12 ctest -E '_css_' --output-on-failure -j"$((jobs * 2))") || plain=$?
show_on_failure sanitizer-build $sanitizer_build
[ $plain = 0 ] || { wait $css; exit $plain; }

# Every test again in that build: the sanitizers' options, the smaller sizes of the long tests and the
# tests left out are in tests/sanitizer.cmake, which gives them to ctest there. Half again as many tests as
# cores: at one per core a test that waits (ldp_run_ldp_slowloris sleeps through the server's deadlines for
# 40 s) left a core idle, 17% of this stage (316 s against 372 from the same builds); at twice the cores
# the tests' contention cost more CPU than the waits left.
sanitized=0
(cd build-sanitize && ctest --output-on-failure -j"$((jobs * 3 / 2))") || sanitized=$?
show_on_failure css $css
exit $sanitized
