# css_auth_lib.sh: tests/agent/lib.sh for tests/auth/css_auth.sh, which runs GSM shell tests against a pod
# of Community Solid Server that answers 401 to anonymous requests: tests/gsm/property/css_agent_lib.sh
# (fixtures PUT into $CSS_URL, here the pod), every request of the test's own to the pod's origin
# carrying "Authorization: $LDGSM_TEST_AUTHORIZATION" (a Bearer token of the same client credentials,
# without DPoP: CSS takes both; tests/gsm/orders_check.py sends it too), so that the tests set up and check
# the pod as its owner while the agent authenticates with --auth.
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../gsm/property/css_agent_lib.sh" "$1"

eval "anonymous_$(declare -f request)"
request() { # METHOD URL [BODY [HEADER...]], as lib.sh's, with the owner's token for the pod's origin
  local method=$1 url=$2 body=${3:-}
  shift 2; [ $# -gt 0 ] && shift
  if [[ $url == "${CSS_ORIGIN:?}"* ]]; then set -- "$@" "Authorization: ${LDGSM_TEST_AUTHORIZATION:?}"; fi
  anonymous_request "$method" "$url" "$body" "$@"
}
