#!/usr/bin/env bash
# bench/page/run.sh: the size and time of `ldgsm serve`'s console (/.well-known/ldgsm, src/gsm/page.h)
# with N instances: N complete copies of the evaluation workflow seeded as bench/scale/lib.sh seeds them,
# then, one request at a time, the first screen once cold (every document read) and ROUNDS times warm
# (read again only when changed: page.h design note 6), a later page, a filtered page and one instance's
# own page (its drawing: a Graphviz child process). Prints per request its bytes and the median and 90th
# percentile wall-clock milliseconds on loopback.
# usage: bench/page/run.sh      environment: INSTANCES=10000, ROUNDS=20, LDGSM (default build/ldgsm), WORK
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${INSTANCES:-10000}
rounds=${ROUNDS:-20}
ldgsm=${LDGSM:-$root/build/ldgsm}
work=${WORK:-$(mktemp -d /tmp/ldgsm-bench-page.XXXXXX)}; mkdir -p "$work"
. "$root/bench/scale/lib.sh"
trap stop_server EXIT
trap 'exit 130' INT TERM
start_server serve "$root/ldp-fixtures/evaluation" || exit 1
echo "# seeding $n instances on $base"
seed_complete_copies "$n" || exit 1
page="${base}.well-known/ldgsm"

# measure LABEL COUNT URL: COUNT GETs of URL one at a time; a line of the table
measure() {
  local label=$1 count=$2 url=$3
  for _ in $(seq 1 "$count"); do
    curl -s -o "$work/page.html" -w '%{http_code} %{size_download} %{time_total}\n' "$url"
  done > "$work/times"
  grep -qv '^200 ' "$work/times" && { echo "$label: a GET did not answer 200" >&2; return 1; }
  sort -k3 -n "$work/times" | awk -v label="$label" '
    { size = $2; t[NR] = $3 * 1000 }
    END { printf "%-32s %8d bytes  median %7.1f ms  p90 %7.1f ms  (%d GETs)\n", label, size,
                 t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.999)], NR }'
}

measure "first screen, cold" 1 "$page"
measure "first screen, warm" "$rounds" "$page"
measure "page 100" "$rounds" "$page?page=100"
measure "filtered: completed, text i99" "$rounds" "$page?state=completed&text=i99"
measure "one instance's own page" 5 "$page?instance=$(python3 -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.argv[1], safe=""))' "${base}status/poll/i1#it")"
