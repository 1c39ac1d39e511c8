#!/usr/bin/env bash
# The isolation property of DESIGN section 8 (its last point), as a property test
# (tests/gsm/property/iso_property.py): ISOLATION_CASES (default 16; the sanitizer build 4, scripts/test.sh)
# random models whose stages read each instance's own data through gsm:thisArtifactInstance (its values,
# documents reached through links, what its calls bound), whose tasks fill URI, header and body templates
# from ldgsm:arguments and bind ldgsm:results from the answers of a service answering each request by its
# content (tests/gsm/property/iso_service.py), and 3 to 6 random instances each (items shared, values
# often equal, at times two instances with the same data). All of a case's instances run under one agent,
# then each alone on a fresh server; per instance its status document and history, its writes and tasks
# (--trace) and what the service received under its keys must be the same, normalised as
# tests/gsm/orders_check.py normalises them. Guards hold "leak" alternatives reading answer data or bound
# results without gsm:thisArtifactInstance, which must never hold (the answers' RDF is text in the call
# record; each instance's sentries see only the documents read for it, agent/views.h). The seed is
# printed; ISOLATION_SEED=N replays it. Two instances' PUT tasks may name one URI with other bytes in one
# iteration: their writes take turns (agent/plan.h invariant 2). scripts/isolation-property.sh runs a
# longer campaign. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: $0 path/to/ldgsm}
exec python3 "$(dirname "$0")/property/iso_property.py" "$ldgsm" --cases "${ISOLATION_CASES:-16}"
