#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/fuzz_*.c) for a bounded time each with ASan+UBSan and leak
# detection; exits non-zero on a crash, a leak or a sanitizer report. Needs clang (installed if missing).
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]   (default 60 s, every target; a target is a
# name such as fuzz_ldp_body). Each target mutates with its dictionary, tests/fuzz/dict/NAME.dict: the
# tokens that open and close its syntax's nesting (issue 30's campaign: scripts/fuzz.sh 600).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
scripts/install-deps.sh
command -v clang >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang; }
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DLDGSM_FUZZ=ON -DLDGSM_SANITIZE=ON > /dev/null
cmake --build build-fuzz -j"$(nproc 2>/dev/null || echo 2)" > /dev/null
# Slow unwinding lets the suppressions see frames inside libraries built without frame pointers.
export ASAN_OPTIONS=fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
status=0
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(build-fuzz/fuzz_*)
for target in "${targets[@]}"; do
  target=build-fuzz/$(basename "$target")
  [ -x "$target" ] || { echo "no fuzz target $target" >&2; exit 2; }
  name=$(basename "$target")
  corpus=build-fuzz/corpus-$name
  mkdir -p "$corpus"
  seeds=tests/fuzz/seeds/${name#fuzz_}
  dict=tests/fuzz/dict/${name#fuzz_}.dict
  echo "== $name for ${seconds}s"
  if ! "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
       $( [ -f "$dict" ] && echo "-dict=$dict" ) "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) \
       2> "build-fuzz/$name.log"; then
    echo "FAIL: $name (see build-fuzz/$name.log)"; tail -30 "build-fuzz/$name.log"; status=1
  else
    tail -1 "build-fuzz/$name.log"
  fi
done
exit $status
