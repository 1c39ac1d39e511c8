#!/usr/bin/env bash
# Same outcome (the specification's section 9): the GSM property test (tests/gsm/property/gsm_property.py)
# run twice on one seed, by the polling agent and by `ldgsm run --incremental` (agent/incremental.h): every
# instance passes through the same states in the same iterations and the server takes the same writes
# (the status documents' and the tasks'), while the incremental agent leaves instances out. Each run makes
# every check of the property test too. GSM_PROPERTY_SEED=N reruns one seed. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
here=$(dirname "$0")
work=$(mktemp -d /tmp/ldgsm-same-outcome.XXXXXX)
trap 'rm -rf "$work"' EXIT
seed=${GSM_PROPERTY_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
seed=$((seed % 2147483648))
models=${GSM_PROPERTY_MODELS:-10}
failures=0
for mode in polling incremental; do
  python3 "$here/property/gsm_property.py" "$ldgsm" --seed "$seed" --models "$models" --free 4 --iterations 30 \
    --dump "$work/$mode" $([ $mode = incremental ] && echo --incremental) > "$work/$mode.out" 2>&1 ||
    { echo "FAIL: the $mode run: $(tail -n 20 "$work/$mode.out")"; failures=$((failures + 1)); }
done
if [ "$failures" = 0 ] && ! cmp -s "$work/polling" "$work/incremental"; then
  echo "FAIL: seed $seed: the incremental run did otherwise than polling:"
  diff "$work/polling" "$work/incremental" | head -n 20
  failures=$((failures + 1))
fi
tail -n 1 "$work/incremental.out"
echo "run_gsm_same_outcome.sh: seed $seed, $([ "$failures" = 0 ] && echo "the same states and writes" || echo "$failures failures")"
[ "$failures" = 0 ]
