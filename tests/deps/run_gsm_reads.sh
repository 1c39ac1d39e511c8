#!/usr/bin/env bash
# `ldgsm deps --gsm` keeps what a sentry says beside its text (issue 31): the sentries it writes in place of
# a guard condition, an achieving sentry and a root milestone's sentry (tests/deps/gsm/reads.ttl,
# reads.deps) declare the containers and resources the originals read (ldgsm:readsContainer, ldgsm:reads),
# which the crawl GETs for them only then; the originals' labels stay theirs. A blank node beside a
# sentry's text is refused.
set -u
. "$(dirname "$0")/../agent/lib.sh"
deps_dir=$(cd "$(dirname "$0")" && pwd)
start_server

"$ldgsm" deps --gsm "$deps_dir/gsm/reads.ttl" --base "${base}models/trip" "$deps_dir/gsm/reads.deps" \
  -o "$work/trip.ttl" > /dev/null 2> "$work/compile.err"
check "ldgsm deps --gsm compiles the model ($(cat "$work/compile.err"))" [ $? = 0 ]
check "the model is published" [ "$(put models/trip "$(cat "$work/trip.ttl")")" = 201 ]
get models/trip > "$work/trip.nt"
declares() { grep -qF "<${base}models/trip#$1> <https://w3id.org/ldgsm#$2> <$base$3> ." "$work/trip.nt"; }
check "book's guard condition reads the container requests/" declares dep-condition-book-1 readsContainer requests/
check "and the calendar" declares dep-condition-book-1 reads calendar
check "booked's achieving sentry reads the container bookings/" declares dep-achieving-booked-1 readsContainer bookings/
check "the root's achieving sentry reads the container ends/" declares dep-complete-ended-1 readsContainer ends/
labels=$(grep -cF "<${base}models/trip#dep-condition-book-1> <http://www.w3.org/2000/01/rdf-schema#label> " \
  "$work/trip.nt")
check "the guard condition has one label, its own ($labels)" [ "$labels" = 1 ]

sed 's|^<#book-done> a sp:Ask ;|<#book-done> a sp:Ask ; <http://example.org/note> [ <http://example.org/by> "me" ] ;|' \
  "$deps_dir/gsm/reads.ttl" > "$work/blank.ttl"
rm -f "$work/blank-out.ttl"
"$ldgsm" deps --gsm "$work/blank.ttl" "$deps_dir/gsm/reads.deps" -o "$work/blank-out.ttl" \
  > /dev/null 2> "$work/blank.err"
check "a blank node beside a sentry's text: exit 1" [ $? = 1 ]
check "saying which sentry and property ($(cat "$work/blank.err"))" grep -qF "event booked: \
<file://$work/blank.ttl#book-done>: its <http://example.org/note> is a blank node, which the sentries made of it \
cannot carry: give it an IRI" "$work/blank.err"
check "and writing nothing" [ ! -e "$work/blank-out.ttl" ]
finish
