#!/usr/bin/env bash
# The property test of the GSM rules (tests/gsm/property/gsm_property.py): random well-formed and free
# workflow models, nesting up to depth 3, run one agent iteration at a time under a random environment;
# after every iteration GSM-1, GSM-2, the rule table of DESIGN section 5 and the table's exact step for
# the sentry values are checked, and at the end each task against its activations. Seeded: the seed is
# printed, and GSM_PROPERTY_SEED=N reruns one; GSM_PROPERTY_MODELS sets how many models (14). $1 is the
# ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/property/gsm_property.py" "$ldgsm" --models "${GSM_PROPERTY_MODELS:-14}" --free 6 --iterations 30
