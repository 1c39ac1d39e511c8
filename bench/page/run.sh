#!/usr/bin/env bash
# bench/page/run.sh: the size and time of `ldgsm serve`'s console (/.well-known/ldgsm, src/gsm/page.h)
# with N instances: N complete copies of the evaluation workflow seeded as bench/scale/lib.sh seeds them,
# into a data directory (--data). Then, for ldgsm and (BASELINE) an older binary in the same run, each
# serving that directory on the port it was seeded on: the first screen right after the start (the
# documents not read yet: page.h design note 6), how long until the page has read every document, the
# first screen ROUNDS times warm, a later page, a filtered page, one instance's own page (its drawing: a
# Graphviz child process), and the first screen right after WRITES of the documents are written again.
# Prints per request its bytes, the median and 90th percentile wall-clock milliseconds on loopback, and
# what the page said of its reading ("reading K of N" while it reads).
# usage: bench/page/run.sh   environment: INSTANCES=10000, ROUNDS=20, WRITES=1000, LDGSM (default
# build/ldgsm), BASELINE (an older ldgsm, e.g. main's; none by default), WORK
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${INSTANCES:-10000}
rounds=${ROUNDS:-20}
writes=${WRITES:-1000}
ours=${LDGSM:-$root/build/ldgsm}
ldgsm=$ours
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-page.XXXXXX)}; mkdir -p "$work"
. "$root/bench/scale/lib.sh"
trap stop_server EXIT
trap 'exit 130' INT TERM

SERVE_DATA=$work/data start_server serve "$root/ldp-fixtures/evaluation" || exit 1
echo "# seeding $n instances on $base into $work/data"
seeded=$(date +%s.%N)
seed_complete_copies "$n" || exit 1
echo "# seeded in $(awk -v a="$seeded" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
port=${base%/}; port=${port##*:}
stop_server
# again TAG: the first WRITES documents with one more line each (TAG in it: each binary's writes change
# them), and curl's list to write them
again() {
  python3 - "$work" "$base" "$writes" "$1" <<'PY'
import sys
work, base, n, tag = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(f"{work}/urls-again", "w") as urls:
    for i in range(1, n + 1):
        with open(f"{work}/docs/i{i}") as doc, open(f"{work}/docs/again{i}", "w") as again:
            again.write(doc.read() + f"# written again by {tag}\n")
        urls.write(f'url = "{base}status/poll/i{i}"\nupload-file = "{work}/docs/again{i}"\noutput = "/dev/null"\n')
PY
}
page="${base}.well-known/ldgsm"

# reading FILE: what the page in FILE says of its reading, or "all read"
reading() {
  grep -o 'reading the server.s documents: [0-9]* of [0-9]* read' "$1" | sed 's/.*: /reading: /' | grep . ||
    echo "all read"
}

# measure LABEL COUNT URL: COUNT GETs of URL one at a time; a line of the table
measure() {
  local label=$1 count=$2 url=$3
  for _ in $(seq 1 "$count"); do
    curl -s -o "$work/page.html" -w '%{http_code} %{size_download} %{time_total}\n' "$url"
  done > "$work/times"
  grep -qv '^200 ' "$work/times" && { echo "$label: a GET did not answer 200" >&2; return 1; }
  sort -k3 -n "$work/times" | awk -v label="$label" -v said="$(reading "$work/page.html")" '
    { size = $2; t[NR] = $3 * 1000 }
    END { printf "%-36s %8d bytes  median %8.1f ms  p90 %8.1f ms  (%d GETs; the last: %s)\n", label, size,
                 t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.999)], NR, said }'
}

# until_read SINCE: waits until the first screen says every document is read; prints the seconds since
# $started (SINCE says what that was)
until_read() {
  while curl -s "$page" > "$work/poll.html" && grep -q 'id="reading"' "$work/poll.html"; do sleep 0.5; done
  echo "every document read $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after $1"
}

# bench LABEL BINARY: the rows of one binary, serving the seeded directory
bench() {
  local label=$1
  ldgsm=$2
  echo "## $label ($ldgsm)"
  started=$(date +%s.%N)
  SERVE_DATA=$work/data SERVE_OPTIONS="--port $port" start_server serve || return 1
  echo "started (the documents read back) in $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
  started=$(date +%s.%N)
  measure "first screen after the start" 1 "$page"
  until_read "the start"
  measure "first screen, warm" "$rounds" "$page"
  measure "page 100, first (its rows' why)" 1 "$page?page=100"
  measure "page 100" "$rounds" "$page?page=100"
  measure "filtered: completed, text i99" "$rounds" "$page?state=completed&text=i99"
  measure "one instance's own page" 5 "$page?instance=$(python3 -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.argv[1], safe=""))' "${base}status/poll/i1#it")"
  again "$label" || return 1
  started=$(date +%s.%N)
  curl -s --no-progress-meter -Z --parallel-max 8 -H 'Content-Type: application/n-triples' -o /dev/null \
    -K "$work/urls-again" || return 1
  echo "$writes documents written again in $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
  measure "first screen after the writes" 1 "$page"
  until_read "the writes began"
  measure "first screen, warm again" "$rounds" "$page"
  stop_server
}

bench ldgsm "$ours"
[ -z "${BASELINE:-}" ] || bench baseline "$BASELINE"
