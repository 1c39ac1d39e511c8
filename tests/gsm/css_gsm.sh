#!/usr/bin/env bash
# tests/gsm/css_gsm.sh: the fire-alarm, evaluation, procurement and pattern order runs, the state machine
# semantics and the intertask dependencies (tests/gsm/run_fire_alarm.sh, run_evaluation.sh,
# run_suppliers.sh, tests/patterns/run_order.sh, tests/wsm/run_rules.sh and tests/deps/run_gsm.sh,
# unchanged), and the data flow of ldp-fixtures/orders (tests/gsm/run_orders.sh, 25 orders)
# against Community Solid Server 7.2.0 instead of `ldgsm serve`, with CSS's notifications disabled, and
# there `ldgsm run --notifications` (tests/gsm/run_notifications.sh, the orders again), which must poll;
# then against a CSS with WebSocketChannel2023 and WebhookChannel2023 on, `ldgsm run --notifications` and
# `ldgsm run --webhook` (tests/gsm/run_notifications_webhook.sh). CSS runs in memory, without
# authorization, on 127.0.0.1 (tests/ldp/css.sh starts it, once per configuration). The scripts run from a
# scratch tree beside the real one in which tests/agent/lib.sh is property/css_agent_lib.sh: its
# start_server PUTs the fixture resources into CSS (which resets them), so each run starts where `ldgsm
# serve --fixtures` would. PART is `workflows` (the seven scripts and the runs where CSS offers no
# notifications), `notifications` (the runs on CSS's channels) or `all` (the default): ctest runs the first
# two as gsm_css_gsm and gsm_css_notifications in the plain build, first (CSS takes 15-40 s to start; the
# halves run beside each other and ldp_css_interop, which together took 365 s when they were one test).
# Usage: css_gsm.sh PATH/TO/ldgsm [PART]. Exit 77 when CSS is not installed (node_modules missing).
set -u
ldgsm=${1:?usage: css_gsm.sh path/to/ldgsm [workflows|notifications|all]}
part=${2:-all}
case $part in workflows | notifications | all) ;; *) echo "css_gsm.sh: unknown part '$part'" >&2; exit 2 ;; esac
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=$(mktemp -d /tmp/ldgsm-css-gsm.XXXXXX)
. "$root/tests/ldp/css.sh"
trap 'css_stop; rm -rf "$WORK"' EXIT
if ! css_available; then
  echo "css_gsm.sh: Community Solid Server is not installed (node_modules missing: run scripts/peers.sh)" >&2
  exit 77
fi

# The scratch tree: the real test scripts and libraries, the fixtures, and the CSS lib.sh.
mkdir -p "$WORK/tree/tests/gsm" "$WORK/tree/tests/agent" "$WORK/tree/tests/patterns" "$WORK/tree/tests/wsm" \
  "$WORK/tree/tests/deps"
ln -s "$root/ldp-fixtures" "$WORK/tree/ldp-fixtures"
for f in run_fire_alarm.sh run_evaluation.sh run_suppliers.sh fire_alarm_lib.sh run_orders.sh orders_check.py \
  orders_lib.sh run_notifications.sh one_stage_lib.sh history_lines.py run_notifications_webhook.sh \
  lossy_notifications.py; do ln -s "$here/$f" "$WORK/tree/tests/gsm/$f"; done
ln -s "$here/property/css_agent_lib.sh" "$WORK/tree/tests/agent/lib.sh"
ln -s "$root/tests/patterns/run_order.sh" "$WORK/tree/tests/patterns/run_order.sh"
for f in run_rules.sh summary.py schemas; do ln -s "$root/tests/wsm/$f" "$WORK/tree/tests/wsm/$f"; done
ln -s "$root/tests/agent/agents.sh" "$WORK/tree/tests/agent/agents.sh"
for f in run_gsm.sh gsm_run.py oracle.py gsm; do ln -s "$root/tests/deps/$f" "$WORK/tree/tests/deps/$f"; done

export LDGSM_AGENT_LIB="$root/tests/agent/lib.sh"
# Community Solid Server answers several times slower than ldgsm serve (and shares the cores with the
# suite's other tests): the scripts' bounded waits get twice their default. The order fixture runs 25
# orders here (100 against `ldgsm serve`): its scale is that test's point, this run's is the same protocol
# against another server; 100 orders took over a minute on CSS under the suite's load and ran out of the
# bound.
export LDGSM_TEST_WAIT=${LDGSM_TEST_WAIT:-60} ORDERS_CSS_INSTANCES=${ORDERS_CSS_INSTANCES:-25}
status=0
# with_css CONFIG: a fresh CSS of that configuration (tests/ldp/css/) in place of the last one. A start takes
# 9-11 s of CPU (node), so each part starts one: the workflows, which poll whatever CSS offers, share the
# CSS whose notifications are disabled with the runs that must find none.
with_css() {
  css_stop
  LDGSM_CSS_CONFIG="$CSS_DIR/$1" css_start || exit 1
  echo "css_gsm.sh: Community Solid Server ($1) at $CSS_URL"
  export CSS_URL
}
# run_script NAME SCRIPT [VAR=VALUE...]: runs tests/SCRIPT against the CSS, with those variables
run_script() {
  local name=$1 script=$2 started=$SECONDS
  shift 2
  if ! env "$@" bash "$WORK/tree/tests/$script" "$ldgsm"; then
    echo "FAIL: $script ($name) against Community Solid Server 7.2.0"; status=1
  fi
  echo "css_gsm.sh: $script ($name) took $((SECONDS - started)) s"
}
if [ "$part" != notifications ]; then
  with_css css-memory-open.json
  for t in gsm/run_fire_alarm.sh gsm/run_evaluation.sh gsm/run_suppliers.sh gsm/run_orders.sh patterns/run_order.sh \
    wsm/run_rules.sh deps/run_gsm.sh; do
    run_script polling "$t"
  done
  # `ldgsm run --notifications` where CSS offers none: it runs by polling
  run_script "notifications disabled" gsm/run_notifications.sh NOTIFICATIONS_OFFERED=no
  run_script "notifications disabled" gsm/run_orders.sh AGENT_OPTIONS=--notifications ORDERS_CSS_INSTANCES=10
fi
if [ "$part" != workflows ]; then
  # WebSocketChannel2023 and WebhookChannel2023 on: `ldgsm run --notifications`
  # (tests/gsm/run_notifications.sh) uses the first, `--webhook` the second
  with_css css-memory-notify.json
  run_script "notifications on" gsm/run_notifications.sh NOTIFICATIONS_OFFERED=yes
  # 10 orders here (the workflows part runs 25): the protocol, not the scale; beside the suite's other stages
  # 25 took a minute and more of a loaded machine
  run_script "notifications on" gsm/run_orders.sh AGENT_OPTIONS=--notifications ORDERS_CSS_INSTANCES=10
  run_script "webhooks" gsm/run_notifications_webhook.sh
fi
[ $status = 0 ] && echo "css_gsm.sh ($part): what it ran passes against Community Solid Server 7.2.0"
exit $status
