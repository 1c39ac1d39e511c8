#!/usr/bin/env bash
# The property test of `ldgsm run --machine` against the reference interpreter of seed 002
# (tests/wsm/property.py, tests/wsm/interp.py): random schemas and inboxes (events with and without
# flags, unknown events, no event, several events, members that are not RDF), run by the agent on an
# `ldgsm serve --memory` and compared with the interpreter (RUN: final state, every variable, the
# history), and again with the members posted one at a time to a stepped agent (DETERM). 25 schemas
# (WSM_PROPERTY_SCHEMAS=N sets how many), ~10 s. Seeded: the seed is printed, WSM_PROPERTY_SEED=N reruns
# a campaign. scripts/wsm-property.sh runs 300. $1 is the ldgsm binary.
set -u
. "$(dirname "$0")/../agent/lib.sh"
start_server
python3 "$(dirname "$0")/property.py" "$ldgsm" "$base" --schemas "${WSM_PROPERTY_SCHEMAS:-25}"
