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
# state machine's exactly-once test 12 kills (20).
(cd build && CHAOS_KILLS=10 CHAOS_KILLS2=5 PATTERN_PROPERTY_TERMS=12 DEPS_PROPERTY_CASES=30 WSM_CHAOS_KILLS=12 \
  ctest --output-on-failure -j"$jobs")

# The GSM workflows again, against Community Solid Server 7.2.0 (77: the npm peers are not installed).
status=0
bash tests/gsm/css_gsm.sh build/ldgsm || status=$?
if [ $status -ne 0 ] && [ $status -ne 77 ]; then
  echo "tests/gsm/css_gsm.sh failed" >&2
  exit $status
fi
# The same LDP, CORS and N3 Patch interactions against both servers: only the differences listed in
# tests/ldp/CSS-DIFFERENCES.md (77: the npm peers are not installed).
status=0
bash tests/ldp/css_interop.sh build/ldgsm || status=$?
if [ $status -ne 0 ] && [ $status -ne 77 ]; then
  echo "tests/ldp/css_interop.sh failed" >&2
  exit $status
fi

# -O1, as AddressSanitizer's documentation advises for speed; it is a build configuration of its own too,
# whose warnings (GCC's flow analysis differs by level) fail the build like the others'.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DLDGSM_SANITIZE=ON
cmake --build build-sanitize -j"$jobs"
# The sanitizer build runs 2-4x slower: every allocation unwinds its stack with the slow unwinder (the
# system libraries have no frame pointers, and tests/lsan.supp's suppressions name frames inside them),
# 10 frames deep, which reaches every suppressed frame at half the cost of the default 30 (the RDF/XML
# conversion of 30,000 triples: 36 s, 16 s). The shell tests' bounded waits get three times as long, and the
# campaigns run small, their point there being the memory checks (the plain build runs them in full,
# scripts/ longer). The pattern property test runs 1 random term (25 plain; run_rules.sh covers every
# rule; 2 terms took 41-141 s, as the random terms' sizes vary), the state machine one 6 schemas (25 plain); the exactly-once test kills 5 agents (20 plain)
# that live 150-550 ms (an ASan agent's first iteration takes about that) over batches of 10 events, with
# 3 s call deadlines; the dependency property test 30 random sets (60 plain, scripts/deps-property.sh
# 1000); the GSM property test 3 models (14 plain), the isolation property test 4 cases (16 plain,
# scripts/isolation-property.sh 200), the call campaign 4 and 2 kills (20 and 10 plain,
# scripts/chaos.sh longer), the Solid page's documents 5,000 triples each (60,000 plain; their page still takes
# seconds), the slow conversion beside small requests 10,000 triples (100,000 plain), the differential
# sentry test 2,000 random queries (5,000 plain), the fleet 12 instances (100 plain), the
# long-running agent 5 instances and 45 polls (20 and 150 plain; there it releases its terms in every
# iteration, so a few show the bound), the order fixture's run 12 orders beside 500 unrelated ones (100 and
# 2,000 plain: an iteration of 100 took 5-9 s there, near the calls' 10 s deadline, and the run 135 s).
# Two tests run in the plain build only: the agreement with the peer reasoners (its time there is EYE's
# and N3.js's) and the evaluation workflow's run (the fleet, shard and --instances-from tests run that
# workflow here). The sanitizer stage took 798 s, then 601 s, then 622 s, with the suite at 21:00 here and
# 21:24 on CI (2026-11-27); with these sizes, the fork-free stepping of tests/agent/lib.sh and unit tests
# linked without LTO (CMakeLists.txt), 533-608 s and 17:04-19:16 from a fresh clone.
(cd build-sanitize && LDGSM_TEST_WAIT=90 PATTERN_PROPERTY_TERMS=1 WSM_PROPERTY_SCHEMAS=6 WSM_CHAOS_KILLS=5 WSM_CHAOS_KILL_MIN=150 \
  DEPS_PROPERTY_CASES=30 FLEET_INSTANCES=12 GSM_PROPERTY_MODELS=3 ISOLATION_CASES=4 CHAOS_KILLS=4 CHAOS_KILLS2=2 LDP_SOLID_TRIPLES=5000 \
  LDP_BOMBS_BIG_TRIPLES=10000 LDGSM_SENTRY_DIFF_CASES=2000 LONG_RUN_INSTANCES=5 LONG_RUN_ITERATIONS=45 LONG_RUN_ROUND=15 \
  ORDERS_INSTANCES=12 ORDERS_UNRELATED=500 WSM_CHAOS_KILL_SPAN=400 WSM_CHAOS_BATCH=10 WSM_CHAOS_TIMEOUT=3000 ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=10 \
  LSAN_OPTIONS=suppressions="$PWD/../tests/lsan.supp":print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j"$jobs" -E '^(reason_run_peer_agreement|gsm_run_evaluation)$')
