# one_stage_lib.sh, sourced after tests/agent/lib.sh by the tests that need a small GSM model: a root with one
# child stage S, each with one milestone, whose sentries the test gives.
#   one_stage_model PATH GUARD MILESTONE [S-EXTRA]
# puts at PATH a model whose S opens when the SPARQL ASK GUARD holds and whose S-done and root done are
# achieved when MILESTONE holds; S-EXTRA adds to S's description (e.g. a timeout). started_guard is the
# guard "the instance is active" (S opens once the instance is set up).
started_guard='PREFIX gsm: <http://purl.org/gsm/vocab#> ASK { gsm:thisArtifactInstance gsm:hasState gsm:active }'
one_stage_model() {
  put "$1" "@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<#root> a gsm:Stage ; gsm:hasChildStage <#S> ; gsm:hasMilestone <#done> .
<#S> a gsm:Stage ; gsm:hasGuard <#g> ; gsm:hasMilestone <#S-done> ${4:-} .
<#g> a gsm:Guard ; gsm:hasCondition <#guard> .
<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#milestone> .
<#S-done> a gsm:Milestone ; gsm:hasAchievingSentry <#milestone> .
<#guard> a sp:Ask ; sp:text \"\"\"$2\"\"\" .
<#milestone> a sp:Ask ; sp:text \"\"\"$3\"\"\" ." > /dev/null
}
# sensed NAME: the ASK that env/NAME's value is true
sensed() { printf 'ASK { <../env/%s#it> <https://example.org/env#value> true }' "$1"; }
# await_completed N...: waits (bounded) until the instances s/iN... say they are complete
completed() { grep -q 'isCompleted> "true"' <<< "$(get "s/i$1")"; }
await_completed() {
  local i k all
  for ((i = 0; i < wait_limit * 10; i++)); do
    all=1
    for k in "$@"; do completed "$k" || { all=0; break; }; done
    [ $all = 1 ] && return 0
    nap 0.1
  done
  return 1
}
