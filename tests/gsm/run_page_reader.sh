#!/usr/bin/env bash
# `ldgsm serve`'s instances page reads the documents in the background (src/gsm/page.h design note 6):
# started on a data directory of 60 instances, its reader reads each document once (/metrics:
# ldgsm_page_documents_read_total{by="reader"}) and pages read none themselves; a document written or
# deleted through the server is read again by the reader (the store's change hook queues it, after the
# notifications'), and the page right after the write shows it; a write while no page is asked for is left
# queued until one is. (The page while its reader is behind, a
# burst of writes, the reader thread beside pages: test_gsm_page; with 10,000 instances: bench/page/.)
set -u
. "$(dirname "$0")/../agent/lib.sh"
instances=60
instance() { # STATE: an instance document in that state (uninitialized, or active: set up)
  local set_up=
  [ "$1" = active ] && set_up='; gsm:inArtifactInstance <#it>'
  printf '@prefix gsm: <http://purl.org/gsm/vocab#> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:%s %s .\n' "$1" "$set_up"
}
# metric SAMPLE: the value of the sample (name and labels as written) at /metrics, or "none"
metric() {
  request GET "${base}metrics"
  local line
  while IFS= read -r line; do [[ $line == "$1 "* ]] && { echo "${line##* }"; return; }; done <<< "$http_body"
  echo none
}
reader_read() { metric 'ldgsm_page_documents_read_total{by="reader"}'; }
request_read() { metric 'ldgsm_page_documents_read_total{by="request"}'; }
page_says() { request GET "${base}.well-known/ldgsm"; grep -qF "$1" <<< "$http_body"; }

start_server --data "$work/data"
for i in $(seq 1 "$instances"); do
  [ "$(put "status/i$i" "$(instance uninitialized)")" = 201 ] || echo "FAIL: status/i$i not created"
done
stop_pid "$server_pid"

# ---- a start: the reader reads every document once; the page then reads none itself
start_server --data "$work/data"
check "the reader read the $instances documents after the start (got $(reader_read))" await [ "$(reader_read)" = "$instances" ]
check "... and has none queued" [ "$(metric ldgsm_page_documents_queued)" = 0 ]
check "the page lists the $instances instances" page_says "<b>$instances</b> instances"
check "... saying nothing of reading" ! page_says 'id="reading"'
check "no page read a document itself (got $(request_read))" [ "$(request_read)" = 0 ]

# ---- a write: the next page shows it; the reader reads it again, so later pages need not
check "PUT status/i7, now active: 204" [ "$(put status/i7 "$(instance active)")" = 204 ]
check "the page right after the write shows it" page_says '<b>1</b> active'
check "the store's change hook queued it for the reader (read $(reader_read))" \
  await [ "$(reader_read)" = $((instances + 1)) ]
before=$(request_read)
check "the page still shows it" page_says '<b>1</b> active'
check "... without reading it itself ($before, then $(request_read))" [ "$(request_read)" = "$before" ]

# ---- a deletion: the document is read no more
request DELETE "${base}status/i8"
check "DELETE status/i8: 204 (got $http_code)" [ "$http_code" = 204 ]
check "the page lists $((instances - 1)) instances" page_says "<b>$((instances - 1))</b> instances"
check "the reader was told of the deletion (read $(reader_read))" await [ "$(reader_read)" = $((instances + 2)) ]

# ---- writes nobody looks at: the reader leaves them queued until a page is asked for (page_index.h note 6)
stop_pid "$server_pid"
start_server --data "$work/data"
left=$((instances - 1))
check "after a restart the reader read the $left documents (got $(reader_read))" await [ "$(reader_read)" = "$left" ]
check "PUT status/i9, now active, no page asked for: 204" [ "$(put status/i9 "$(instance active)")" = 204 ]
nap 0.5
check "the write is queued (got $(metric ldgsm_page_documents_queued))" [ "$(metric ldgsm_page_documents_queued)" = 1 ]
check "... and not read (read $(reader_read))" [ "$(reader_read)" = "$left" ]
check "the page shows it" page_says '<b>2</b> active'
check "... and sets the reader reading it (read $(reader_read))" await [ "$(reader_read)" = $((left + 1)) ]
finish
