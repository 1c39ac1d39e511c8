# css_agent_lib.sh: tests/agent/lib.sh for tests/gsm/css_gsm.sh, which runs the GSM shell tests against
# Community Solid Server: the real lib.sh ($LDGSM_AGENT_LIB), with the server already running at
# $CSS_URL. start_server --fixtures DIR PUTs every fixture resource into it (each PUT replaces the
# resource, so every start begins from the fixtures' state) and starts a stand-in process for the test to
# stop (and DELETEs what earlier runs added to the fixtures' containers); put PUTs without waiting for a
# `ldgsm serve` log line (CSS writes none).
. "${LDGSM_AGENT_LIB:?}" "$1"

start_server() { # --fixtures DIR (other `ldgsm serve` options do not apply to CSS)
  base=$CSS_URL
  http_driver_start
  local dir="" file
  while [ $# -gt 0 ]; do
    case $1 in --fixtures) dir=$2; shift ;; esac
    shift
  done
  if [ -n "$dir" ]; then
    while IFS= read -r file; do
      request PUT "$base$file" "$(< "$dir/$file")"$'\n' 'Content-Type: text/turtle'
      case $http_code in 2??) ;; *) echo "CSS refused the fixture $file: $http_code $http_error"; exit 1 ;; esac
    done < <(cd "$dir" && find . -type f ! -name README.md ! -name .container.ttl | sed 's|^\./||' | sort)
    # folders are containers (an empty one, such as an inbox, has no file to create it)
    while IFS= read -r file; do ensure_container "$file/"; done < <(cd "$dir" && find . -mindepth 1 -type d | sed 's|^\./||' | sort)
    # what an earlier run made in them (a shipment posted, ...) goes: each start begins from the fixtures
    local folder member
    while IFS= read -r folder; do
      request GET "$base$folder/" "" 'Accept: application/n-triples'
      while IFS= read -r member; do
        [ -e "$dir/$folder/$(basename "$member")" ] || request DELETE "$member" ""
      done < <(grep -o '<http://www.w3.org/ns/ldp#contains> <[^>]*>' <<< "$http_body" | sed 's/.*> <//; s/>$//')
    done < <(cd "$dir" && find . -mindepth 1 -type d | sed 's|^\./||' | sort)
  fi
  sleep 600 & # stands for the server: the test stops it by PID; CSS itself is css_gsm.sh's
  server_pid=$!
}

put() { request PUT "$base$1" "$2" 'Content-Type: text/turtle'; printf '%s' "$http_code"; } # path turtle: prints the status code
