#!/usr/bin/env bash
# scripts/deb.sh [-o DIR] [--check]: builds the Debian package of ldgsm with dpkg-buildpackage and debhelper
# (scripts/debian is its debian/ directory) into DIR (default build/deb), with the distribution's compiler
# flags, and runs lintian on it (any error fails). --check then installs it into this machine's system with
# dpkg, checks the installed program, rules, man page and systemd units from outside the source tree, and
# removes it again. Installs what it needs with apt-get when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=build/deb
check=0
usage() { echo "usage: scripts/deb.sh [-o DIR] [--check]"; }
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=${2:?-o wants a directory}; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
started=$(date +%s)

# The build dependencies are the project's (scripts/install-deps.sh); the packaging tools besides.
scripts/install-deps.sh
tools=(debhelper dpkg-dev lintian)
[ $check = 0 ] || tools+=(man-db systemd)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || { echo "scripts/deb.sh: run as root (or install: ${missing[*]})" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The package's version is the project's (CMakeLists.txt) with a Debian revision: they must agree.
version=$(sed -n 's/^project(ldgsm VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
deb_version=$(dpkg-parsechangelog -l scripts/debian/changelog -S Version)
if [ "${deb_version%-*}" != "$version" ]; then
  echo "scripts/deb.sh: scripts/debian/changelog is at $deb_version, CMakeLists.txt at $version: add a changelog entry" >&2
  exit 1
fi

# A copy of the source tree (dpkg-buildpackage wants debian/ at the top, and builds in place): the files git
# knows or would add, as they are in the working tree, or without git everything but build output.
work=$(mktemp -d /tmp/ldgsm-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/ldgsm-$version
mkdir "$tree"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$tree" -xf -
else
  tar --exclude=./build --exclude='./build-*' --exclude=./node_modules --exclude=./.git -cf - . | tar -C "$tree" -xf -
fi
rm -rf "$tree/debian"
cp -r scripts/debian "$tree/debian"

jobs=$(nproc 2>/dev/null || echo 2)
echo "building ldgsm $deb_version (dpkg-buildpackage, log in $out/build.log)"
if ! (cd "$tree" && dpkg-buildpackage -us -uc -b -j"$jobs") > "$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log" >&2
  echo "scripts/deb.sh: dpkg-buildpackage failed (log: $out/build.log)" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)
rm -f "$out"/ldgsm*.deb "$out"/ldgsm_*.changes "$out"/ldgsm_*.buildinfo
mv "$work"/ldgsm*_"$arch".deb "$work"/ldgsm_*.changes "$work"/ldgsm_*.buildinfo "$out"/
deb=$out/ldgsm_${deb_version}_$arch.deb
cflags=$(cd "$tree" && DEB_BUILD_MAINT_OPTIONS='hardening=+all optimize=-lto' dpkg-buildflags --get CFLAGS)
# The build tree goes now: the installed binary must not find rules there (LDGSM_SOURCE_DIR points into it).
rm -rf "$tree"
echo "built $deb"

failures=0
passes=0
check() { # description command...
  local what=$1; shift
  if "$@" > /dev/null 2>&1; then echo "ok: $what"; passes=$((passes + 1)); else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

# The distribution's flags are the ones compiled with (dh sets CMAKE_BUILD_TYPE=None; the log has every
# compiler line): -O2 and the hardening flags, not the project's -O3, and no link-time optimization.
compiles=$(grep -E '^[^ ]*(cc|gcc)(-[0-9]+)? .* -c .*\.c$' "$out/build.log" || true)
check "compiled with dpkg-buildflags' CFLAGS ($cflags)" \
  bash -c '[ -n "$1" ] && ! grep -v -e " -O2 .*-fstack-protector-strong" <<< "$1" | grep -q .' _ "$compiles"
check "no -O3, no -flto" bash -c '! grep -q -e " -O3" -e "-flto" <<< "$1"' _ "$compiles"
check "-Wall -Wextra -Werror on every compile" bash -c '! grep -v -e "-Wall -Wextra -Werror" <<< "$1" | grep -q .' _ "$compiles"
elf=$(mktemp -d "$work/elf.XXXXXX")
dpkg-deb -x "$deb" "$elf"
check "the binary is PIE, full RELRO, BIND_NOW" bash -c 'readelf -h "$1" | grep -q "DYN" && readelf -l "$1" | grep -q GNU_RELRO &&
  readelf -d "$1" | grep -q "FLAGS.*BIND_NOW"' _ "$elf/usr/bin/ldgsm"
check "the binary is fortified (_FORTIFY_SOURCE)" bash -c 'readelf --dyn-syms -W "$1" | grep -q "__[a-z]*_chk@"' _ "$elf/usr/bin/ldgsm"

# lintian: errors fail; warnings and notes are shown.
echo "lintian:"
if lintian --fail-on error --display-info "$out/ldgsm_${deb_version}_$arch.changes" > "$out/lintian.log" 2>&1; then
  check "lintian reports no errors" true
else
  check "lintian reports no errors" false
fi
sed 's/^/  /' "$out/lintian.log"

if [ $check = 1 ]; then
  # Installed into this machine's system: refused when ldgsm is installed already (purging it at the end
  # would not leave the machine as found).
  if dpkg-query -W -f='${Status}' ldgsm 2>/dev/null | grep -q "ok installed"; then
    echo "scripts/deb.sh --check: ldgsm is installed on this machine already; remove it first (dpkg -r ldgsm)" >&2
    exit 1
  fi
  [ "$(id -u)" -eq 0 ] || { echo "scripts/deb.sh --check: run as root (it installs the package)" >&2; exit 1; }
  before=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort)
  removed=0
  serve_pid=
  remove() { # the package and whatever apt-get -f install brought for it: the machine as found
    [ $removed = 0 ] || return 0
    removed=1
    [ -z "$serve_pid" ] || kill "$serve_pid" 2> /dev/null || true
    dpkg --purge ldgsm > "$out/remove.log" 2>&1 || true
    local added
    added=$(comm -13 <(echo "$before") <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort))
    [ -z "$added" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $added >> "$out/remove.log" 2>&1 || true
  }
  trap 'remove; rm -rf "$work"' EXIT
  # Minimal images drop manual pages (a path-exclude in /etc/dpkg/dpkg.cfg.d): this one is let in.
  if ! dpkg --path-include='/usr/share/man/man1/ldgsm.1*' -i "$deb" > "$out/install.log" 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq >> "$out/install.log" 2>&1 || true
  fi
  check "dpkg -i installs the package ($(tail -n 1 "$out/install.log"))" \
    bash -c 'dpkg-query -W -f="\${Status}" ldgsm | grep -q "install ok installed"'

  # Every check from a directory outside the source tree, without LDGSM_HOME.
  away=$(mktemp -d /tmp/ldgsm-deb-check.XXXXXX)
  cd "$away"
  unset LDGSM_HOME
  check "ldgsm is /usr/bin/ldgsm" [ "$(command -v ldgsm)" = /usr/bin/ldgsm ]
  check "ldgsm --version is ldgsm $version" [ "$(ldgsm --version)" = "ldgsm $version" ]
  for f in /usr/share/ldgsm/rules/gsm-fcr.n3 /usr/share/ldgsm/ontology/gsm.ttl \
    /usr/share/ldgsm/ldp-fixtures/fire-alarm/status/alarm1 /usr/share/man/man1/ldgsm.1.gz \
    /lib/systemd/system/ldgsm-serve.service /lib/systemd/system/ldgsm@.service /etc/default/ldgsm-serve \
    /etc/ldgsm/agent.conf /usr/share/doc/ldgsm/copyright; do
    check "installed: $f" [ -r "$f" ]
  done

  # The demo reads the installed rules: with one of them broken it fails, naming the installed file (the
  # build tree the binary was compiled in is gone, and LDGSM_HOME is unset); restored, it runs.
  rules=/usr/share/ldgsm/rules/gsm-fcr.n3
  cp "$rules" "$away/gsm-fcr.n3"
  echo '{ this is not N3' >> "$rules"
  status=0
  timeout 60 ldgsm demo --interval 0 > "$away/broken.out" 2>&1 || status=$?
  cp "$away/gsm-fcr.n3" "$rules"
  check "with an installed rule file broken, ldgsm demo fails (status $status)" [ $status != 0 ]
  check "naming the installed file ($(grep -m 1 -o '[^ ]*gsm-fcr.n3:[0-9:]*' "$away/broken.out" || head -c 200 "$away/broken.out"))" \
    bash -c 'grep -oE "[^ ]*gsm-fcr\.n3:[0-9]+:[0-9]+" "$1" | grep -qE "^(/usr|/usr/bin/\.\.)/share/ldgsm/rules/"' _ "$away/broken.out"
  check "the installed files are as shipped again (dpkg --verify)" bash -c '[ -z "$(dpkg --verify ldgsm)" ]'
  status=0
  timeout 120 ldgsm demo --interval 0 > "$away/demo.out" 2>&1 || status=$?
  check "ldgsm demo runs from the installed rules (status $status)" [ $status = 0 ]
  check "the demo's workflow completes" grep -q "the workflow is complete" "$away/demo.out"

  # man ldgsm: found on the manual path, and shows every command of --help and every flag of each --help.
  check "man -w ldgsm finds /usr/share/man/man1/ldgsm.1.gz" [ "$(man -w ldgsm 2>/dev/null)" = /usr/share/man/man1/ldgsm.1.gz ]
  MANWIDTH=200 man ldgsm > "$away/man.txt" 2> "$away/man.err" || true
  check "man ldgsm renders the page ($(head -c 200 "$away/man.err"))" [ -s "$away/man.txt" ]
  absent=
  for command in $(ldgsm --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    grep -q "^ *ldgsm $command\$" "$away/man.txt" || absent="$absent $command"
    for flag in $(ldgsm "$command" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
      grep -qF -- "$flag" "$away/man.txt" || absent="$absent $command:$flag"
    done
  done
  commands=$(ldgsm --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' | wc -l)
  check "man ldgsm shows all $commands commands and every flag of their --help (missing:${absent:- none})" [ -z "$absent" ]

  # The systemd units: systemd's own checker, an agent's instance name made into --shard, and the
  # units' command lines, run as they are written (no systemd manager runs in a container).
  mkdir "$away/units"
  cp /lib/systemd/system/ldgsm-serve.service "$away/units/"
  cp /lib/systemd/system/ldgsm@.service "$away/units/ldgsm@2-4.service"
  check "systemd-analyze verify accepts ldgsm-serve.service and ldgsm@2-4.service ($(cd "$away/units" &&
    systemd-analyze verify --man=no ./ldgsm-serve.service ./ldgsm@2-4.service 2>&1 | head -c 300))" \
    bash -c 'cd "$1" && [ -z "$(systemd-analyze verify --man=no ./ldgsm-serve.service ./ldgsm@2-4.service 2>&1)" ]' _ "$away/units"
  # ExecStart as systemd runs it for ldgsm@2-4: %i is 2-4, $$ a dollar, the agent's settings in the
  # environment; the program replaced by one that prints its arguments.
  exec_start=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/ldgsm@.service)
  exec_start=${exec_start//%i/2-4}
  exec_start=${exec_start//\$\$/\$}
  exec_start=${exec_start//\/usr\/bin\/ldgsm/printf %s\\\\n}
  args=$(set -a; . /etc/ldgsm/agent.conf; eval "$exec_start" 2>&1 | tr '\n' ' ')
  check "ldgsm@2-4.service runs: ldgsm $args" [ "$args" = "run --shard 2/4 --instances-from http://127.0.0.1:8080/status/ " ]
  # ldgsm serve with the shipped /etc/default/ldgsm-serve options (another port and data directory here),
  # and an agent of shard 2/4 with /etc/ldgsm/agent.conf's (its container on that server): both start.
  serve_args=$(set -a; . /etc/default/ldgsm-serve; echo "$LDGSM_SERVE_ARGS")
  serve_args=${serve_args/--port 8080/--port 0}
  serve_args=${serve_args/\/var\/lib\/ldgsm/$away\/data}
  ldgsm serve $serve_args --fixtures /usr/share/ldgsm/ldp-fixtures/fire-alarm > "$away/serve.out" 2> "$away/serve.err" &
  serve_pid=$!
  for _ in $(seq 100); do [ -s "$away/serve.out" ] && break; sleep 0.1; done
  base=$(head -n 1 "$away/serve.out")
  check "ldgsm serve starts with /etc/default/ldgsm-serve's options ($base)" bash -c '[[ $1 == http://127.0.0.1:* ]]' _ "$base"
  run_args=$(set -a; . /etc/ldgsm/agent.conf; echo "$LDGSM_RUN_ARGS")
  run_args=${run_args//http:\/\/127.0.0.1:8080\//$base}
  status=0
  timeout 60 ldgsm run --shard 2/4 $run_args --iterations 2 --interval 0 > "$away/agent.out" 2>&1 || status=$?
  check "ldgsm run --shard 2/4 runs with /etc/ldgsm/agent.conf's options (status $status: $(tail -n 1 "$away/agent.out" | head -c 200))" [ $status = 0 ]
  kill "$serve_pid" 2> /dev/null || true
  wait "$serve_pid" 2> /dev/null || true
  cd "$src"
  rm -rf "$away"

  remove
  check "dpkg --purge removes the package" bash -c '! dpkg-query -W -f="\${Status}" ldgsm 2>/dev/null | grep -q "ok installed"'
  check "and its files (/usr/bin/ldgsm, /usr/share/ldgsm, /etc/ldgsm, the units)" bash -c '! [ -e /usr/bin/ldgsm ] &&
    ! [ -e /usr/share/ldgsm ] && ! [ -e /etc/ldgsm ] && ! [ -e /lib/systemd/system/ldgsm@.service ]'
fi
echo "scripts/deb.sh: $passes passed, $failures failed, $(( $(date +%s) - started )) s; the package: $deb"
[ $failures = 0 ]
