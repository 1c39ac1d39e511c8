# tests/patterns/rules_lib.sh: the start of the reduction-rule tests (run_rules_*.sh): the libraries, the
# task service, `ldgsm serve`, and every condition of tests/patterns/names.ttl false. Sourced by the test,
# whose $1 is the ldgsm binary.
. "$(dirname "${BASH_SOURCE[0]}")/../agent/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../gsm/property/step.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../gsm/call_lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
configure '{}'
start_service
start_server
setenv c1 false c2 false stop false inner false e1 false e2 false done false
