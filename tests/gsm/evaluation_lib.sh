# evaluation_lib.sh, sourced by the tests that run instances of the evaluation workflow
# (ldp-fixtures/evaluation) on `ldgsm serve` (tests/agent/lib.sh's helpers): starts the server with the
# workflow's fixtures; instance_doc is a new instance's document; completed PATH says whether the instance
# of document PATH is complete.
. "$(dirname "$0")/../agent/lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/evaluation" && pwd)
start_server --fixtures "$fixtures"
instance_doc='@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/evaluation#workflow> ; gsm:hasState gsm:uninitialized .'
completed() { get "$1" | grep -qF "<${base}$1#it> <https://w3id.org/ldgsm#isCompleted> \"true\""; }
