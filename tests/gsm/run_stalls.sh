#!/usr/bin/env bash
# Nothing waits silently (DESIGN section 6.5; issue 11): every way a workflow instance can stall gives one
# line naming the instance and the cause, said again only every --remind iterations, and an --until run
# ends with a status that says so (6). The model is tests/gsm/models/stalls.ttl.
#   - an instance whose document answers 404; a model that answers 404 (held set-up)
#   - a model `ldgsm lint` rejects (a stage its own descendant): refused, exit 1, nothing written
#   - a sentry input that fails (500) after set-up, feeding only a guard: no write is held, yet it is named
#   - a stage that cycles (its milestone achieved and invalidated by the same fact): named once
#   - one "withheld" line per iteration and instance; no GET of a blank node; -v progress lines
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/../agent/lib.sh"
models=$(cd "$(dirname "$0")" && pwd)/models
start_server
echo /nothing > "$work/failing"
start_proxy --fail "$work/failing"

publish() { # name SWITCH CHILD: the model under models/NAME and an uninitialized instance status/NAME
  put "models/$1" "$(sed "s|SWITCH|$2|g; s|CHILD|$3|" "$models/stalls.ttl")" > /dev/null
  put "status/$1" "@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/$1#root> ; gsm:hasState gsm:uninitialized ." > /dev/null
}
run() { # log-name options...: one agent run, its standard error kept as $work/NAME.log; sets $rc
  bounded "$ldgsm" run -v -n 0 "${@:2}" 2> "$work/$1.log"; rc=$?
}
lines() { grep -c -- "$2" "$work/$1.log"; } # log-name pattern: how many lines match
put devices/switch '<#it> <https://example.org/env#go> true .' > /dev/null

# An instance document that answers 404.
run missing --instance "${base}status/missing#it" --iterations 5
check "a missing instance is named once in 5 iterations" [ "$(lines missing "waiting: <${base}status/missing#it>: its document cannot be read: answers 404")" = 1 ]
run missing-q --instance "${base}status/missing#it" --until quiescent --iterations 5
check "--until quiescent ends with 6 while the instance waits (got $rc)" [ $rc = 6 ]

# A model that answers 404: set-up is held, and says why; --remind repeats it.
put status/orphan '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/absent#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
run orphan --instance "${base}status/orphan#it" --iterations 5
check "an unpublished model holds set-up, named once" [ "$(lines orphan "held: <${base}status/orphan#it>: set-up waits for the stage model <${base}models/absent#root>: its document cannot be read: answers 404")" = 1 ]
run orphan-remind --instance "${base}status/orphan#it" --iterations 5 --remind 2
check "--remind 2 says it in iterations 1, 3 and 5" [ "$(lines orphan-remind "held: <${base}status/orphan#it>")" = 3 ]
run orphan-q --instance "${base}status/orphan#it" --until quiescent --iterations 5
check "--until quiescent ends with 6 while set-up is held (got $rc)" [ $rc = 6 ]

# A model that lint rejects is refused: exit 1, lint's message, nothing written.
publish looped "${base}devices/switch#it" "<#S>"
run looped --instance "${base}status/looped#it" --iterations 3
check "a lint-rejected model ends the run with 1 (got $rc)" [ $rc = 1 ]
check "lint's message is said" grep -q "lint: .*<#S>.*own descendant" "$work/looped.log"
check "the instance is not set up" grep -q uninitialized <(get status/looped)
check "no task was sent" [ "$(written /devices/lamp)" = 0 ]
check "its status document was written only by the test" [ "$(written /status/looped)" = 1 ]

# A sentry input that fails after set-up: only a guard reads it, no write is held, yet it is named.
publish guarded "${pbase}env/switch#it" "<#T>"
put env/switch '<#it> <https://example.org/env#go> false .' > /dev/null
run guarded-setup --instance "${base}status/guarded#it" --iterations 2
check "set up while the switch answers" grep -q 'vocab#inactive' <(get status/guarded)
echo /env/switch > "$work/failing"
run guarded --instance "${base}status/guarded#it" --iterations 4 --until quiescent
check "a guard whose input fails is named once" [ "$(lines guarded "waiting: <${base}status/guarded#it>: the guard of stage <${base}models/guarded#S> cannot be decided: its sentry reads <${pbase}env/switch#it>, which fails: answers 500")" = 1 ]
check "--until quiescent ends with 6 (got $rc)" [ $rc = 6 ]
# Before set-up the same failure withholds the set-up writes: one line per iteration and instance.
publish held "${pbase}env/switch#it" "<#T>"
run held --instance "${base}status/held#it" --iterations 3
check "one withheld line per iteration" [ "$(lines held "withheld.*a GET its group asked for failed")" = 3 ]
check "it names the instance" [ "$(lines held "withheld: .* of <${base}status/held#it>: a GET its group asked for failed")" = 3 ]
echo /nothing > "$work/failing"

# A stage that cycles is named once, with the milestone that makes it cycle; -v shows progress.
publish blink "${base}devices/switch#it" "<#T>"
run blink --instance "${base}status/blink#it" --iterations 14 -v
check "the cycling stage is named once" [ "$(lines blink "cycling: <${base}status/blink#it>: stage <${base}models/blink#S> \"Blink\" opened again without a change")" = 1 ]
check "the cycling line names the contradictory milestone" grep -q "cycling: .*milestone <${base}models/blink#lit> \"lit\": its achieving and invalidating sentries both hold" "$work/blink.log"
check "-v says when a stage opens" grep -q "progress: <${base}status/blink#it>: <${base}models/blink#S> \"Blink\" active" "$work/blink.log"
check "lint's warning about the milestone is said once" [ "$(lines blink "lint: .*warning: <#lit>")" = 1 ]

# Beside an instance that runs, the refused one is held, and the held line says why.
run looped-beside --instance "${base}status/looped#it" --instance "${base}status/blink#it" --iterations 2
check "a refused model's instance is held, saying why" grep -q "held: <${base}status/looped#it>: its model is refused: ldgsm lint finds" "$work/looped-beside.log"

# No run above tried to GET a blank node ([ ... ] guards and tasks).
check "no GET of a blank node" ! grep -h "^GET _:\|GET _:" "$work"/*.log
finish
