# tests/sanitizer.cmake: how the tests run in a build configured with -DLDGSM_SANITIZE=ON (scripts/test.sh's
# last stage): the sanitizers' runtime options and the sizes of the long tests, in one place. Included by
# CMakeLists.txt after the tests are declared; every test of that build gets these as its ENVIRONMENT, so a
# bare `ctest` in build-sanitize/ runs exactly what the suite runs (a variable set here wins over the
# caller's environment: run a script by hand to try other sizes).

# Leak reports need the stack of each allocation, taken at malloc time. The system libraries (raptor2,
# rasqal, libxml2, redland) have no frame pointers, so the fast unwinder stops at their first frame, below
# the function that dropped the memory. The unit tests, which call those libraries directly, unwind with the
# slow unwinder, 10 frames deep, and tests/lsan.supp names the very functions that leak (the RDF/XML
# conversion of 30,000 triples: 36 s with 30 frames, 16 s with 10). The shell tests run ldgsm thousands of
# times, and there the slow unwinder on every malloc cost 2.4x the time (tests/patterns/run_fixtures.sh:
# 52 s, 22 s; test_patterns 14.5 s, 2.9 s of CPU): they unwind fast, and tests/lsan-shell.supp names the
# allocation sites inside the libraries instead (an object one of them allocates and ldgsm forgets to free
# goes unreported there; the unit tests still catch it). A leak whose stack reaches ldgsm's own code is
# reported in both, with its whole stack (ldgsm keeps its frame pointers).
set(LDGSM_SANITIZER_UNIT_ENV
  "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=10"
  "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/lsan.supp:print_suppressions=0"
  "UBSAN_OPTIONS=print_stacktrace=1")

# The shell tests' sizes: the sanitizer build runs 2-4x slower, so the campaigns run small there, their
# point being the memory checks (the plain build runs them at their defaults, scripts/ longer). Each line:
# the variable, then its plain default and why this size.
set(LDGSM_SANITIZER_SHELL_ENV
  "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=1:malloc_context_size=10"
  "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/lsan-shell.supp:print_suppressions=0"
  "UBSAN_OPTIONS=print_stacktrace=1"
  # every bounded wait of tests/agent/lib.sh (30 s plain): an ASan agent's iteration is slower
  "LDGSM_TEST_WAIT=90"
  # the pattern property test: 1 random term (25; tests/patterns/run_rules*.sh cover every rule; 2 terms
  # took 41-141 s, as the random terms' sizes vary); under --incremental 1 too (8)
  "PATTERN_PROPERTY_TERMS=1" "PATTERN_PROPERTY_INCREMENTAL_TERMS=1"
  # the state machine property test: 6 schemas (25)
  "WSM_PROPERTY_SCHEMAS=6"
  # the exactly-once test: 5 agents killed (20), living 150-550 ms (an ASan agent's first iteration takes
  # about that), over batches of 10 events, with 3 s call deadlines
  "WSM_CHAOS_KILLS=5" "WSM_CHAOS_KILL_MIN=150" "WSM_CHAOS_KILL_SPAN=400" "WSM_CHAOS_BATCH=10"
  "WSM_CHAOS_TIMEOUT=3000"
  # the dependency property test: 30 random sets (60; scripts/deps-property.sh 1000)
  "DEPS_PROPERTY_CASES=30"
  # the compiled dependency policy: 30 random sets (200; each runs the scheduler's --trace three times too:
  # 50 took 20 s of CPU here, most of it the sanitized ldgsm's starts)
  "DEPS_POLICY_CASES=30"
  # the N-Triples round trip through N3.js: 15 rounds (50; each a sanitized ldgsm start on a fresh random
  # document: 50 took 21 s of CPU here, 2.5 in the plain build)
  "NT_ROUNDTRIP_ROUNDS=15"
  # the W3C N3 tests: the reasoner manifest's (both: 320 tests, each a sanitized ldgsm start of 140 ms of
  # CPU, 45 s in all); every file of the suite, the parser manifest's inputs among them, goes through the
  # N3 reader here in one process (fuzz_replay_n3_reader_w3c)
  "N3SUITE_MANIFEST=reasoner"
  # the GSM property test: 3 models (14)
  "GSM_PROPERTY_MODELS=3"
  # the live same-outcome test: 3 models (and a free one) over 6 rounds (6 and 12; 9 s here beside other work)
  "GSM_LIVE_MODELS=3" "GSM_LIVE_ROUNDS=6"
  # the live same-outcome tests of compiled patterns and state machines: 2 terms over 4 rounds (4 and 8), 3
  # schemas over 5 rounds (4 and 8)
  "PATTERN_LIVE_TERMS=2" "PATTERN_LIVE_ROUNDS=4" "WSM_LIVE_SCHEMAS=3" "WSM_LIVE_ROUNDS=5"
  # the isolation property test: 4 cases (16; scripts/isolation-property.sh 200)
  "ISOLATION_CASES=4"
  # the call campaign: 4 and 2 kills (20 and 10; scripts/chaos.sh longer)
  "CHAOS_KILLS=4" "CHAOS_KILLS2=2"
  # the Solid page's documents: 20,000 triples each (60,000): the small requests beside its page must end first
  "LDP_SOLID_TRIPLES=20000"
  # the slow conversion beside small requests: 40,000 triples (100,000): with fast unwinding 10,000 ended first
  "LDP_BOMBS_BIG_TRIPLES=40000"
  # the differential sentry test: 2,000 random queries (5,000)
  "LDGSM_SENTRY_DIFF_CASES=2000"
  # the rule index against every rule in every round: 1,000 random programs (3,000: 20 s of CPU here with
  # the slow unwinder)
  "LDGSM_RULE_INDEX_PROGRAMS=1000"
  # the long-running agent: 5 instances, 45 polls, a round of 15 (20, 150): it releases its terms in every
  # iteration there, so a few show the bound
  "LONG_RUN_INSTANCES=5" "LONG_RUN_ITERATIONS=45" "LONG_RUN_ROUND=15"
  # the order fixture: 12 orders beside 500 unrelated ones (100 and 2,000: an iteration of 100 took 5-9 s
  # there, near the calls' 10 s deadline)
  "ORDERS_INSTANCES=12" "ORDERS_UNRELATED=500")

# Three unit tests unwind fast, as the shell tests do, and take their sizes from the shell tests' list: two
# whose time is rasqal parsing thousands of queries (the compiled patterns' sentries; 2,000 random sentries
# against redland: slow unwinding took them 67 and 20 s of CPU, 11 and 2.5 fast), and the rule index's,
# whose time is the reasoner's own allocations. Their leaks in ldgsm's own code are reported with whole
# stacks all the same; the rdf layer's tests, which own the libraries' objects, keep the slow unwinder.
set(LDGSM_SANITIZER_FAST_UNWIND_UNIT_TESTS test_patterns test_sentry_differential test_rule_index)

foreach(test_name ${LDGSM_ALL_TESTS})
  if(test_name IN_LIST LDGSM_SANITIZER_FAST_UNWIND_UNIT_TESTS)
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${LDGSM_SANITIZER_SHELL_ENV}")
  elseif(test_name MATCHES "^(test_|fuzz_replay_)")
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${LDGSM_SANITIZER_UNIT_ENV}")
  else()
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${LDGSM_SANITIZER_SHELL_ENV}")
  endif()
endforeach()

# Seven tests run in the plain build only: the agreement with the peer reasoners (its time there is EYE's and
# N3.js's), the evaluation workflow's run (the fleet, shard and --instances-from tests run that workflow
# here), the runs against Community Solid Server (their time is the server's) and the call rules again
# under --incremental (the sanitized build runs the call rules, and --incremental in run_gsm_incremental.sh
# and run_gsm_same_outcome.sh).
set_tests_properties(reason_run_peer_agreement gsm_run_evaluation gsm_css_gsm gsm_css_notifications ldp_css_interop
  auth_css_auth gsm_run_call_rules_incremental PROPERTIES DISABLED TRUE)

# Seven tests run no ldgsm code at all (their $1 is unused): the documentation checks, the reference
# interpreters' and the dependency oracle's own tests and scripts/peers.sh's. The plain build runs them; here
# they would prove nothing more.
set_tests_properties(docs_run_layers docs_run_links docs_run_script_paths deps_run_oracle patterns_run_interp
  wsm_run_interp cli_run_peers PROPERTIES DISABLED TRUE)

# The fleet (gsm_run_gsm_fleet: four agents on overlapping shards of 100 instances with calls, a watcher
# checking GSM-1 and GSM-2) proves exactly-once execution and the server's limits at that scale, in the
# plain build. Each agent is a process of its own, so ASan sees there only what one agent on a shard does,
# which gsm_run_gsm_shards runs here (four agents on overlapping shards, every write conditional), with the
# calls of gsm_run_call_rules and gsm_run_call_chaos: at 12 instances it ran those paths a third time.
set_tests_properties(gsm_run_gsm_fleet PROPERTIES DISABLED TRUE)
