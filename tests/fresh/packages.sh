#!/bin/bash
# The packages on a machine that has never seen parallax's source:
# debootstraps a fresh Debian 12 (as run.sh does), copies DEB_DIR's
# parallax_*.deb and pcp-pmda-parallax_*.deb into it and, with this
# machine's network, installs them the way docs/install.md says (`apt install
# ./...deb`: apt fetches pcp and the libraries). Then, with no network and
# no pmcd ever run there: pmcd started the standard way
# (/etc/init.d/pmcd start), the agent registered (cd
# /var/lib/pcp/pmdas/parallax && ./Install), `pcp parallax --text -n 2 -h
# localhost` showing the agent's column, a workload run through the agent
# (parallax --batch), then both packages removed and purged, and nothing
# of parallax left in pmcd's configuration, its namespace, the process
# list or the file system. Prints its steps and ends with a line
# "packages: N passed, N failed"; exits 0 only when all passed.
# Usage: tests/fresh/packages.sh DEB_DIR   (run.sh runs it after .ci/run;
# scripts/deb.sh build/deb makes DEB_DIR). Root, debootstrap; KEEP=1 keeps
# the root. About 4 minutes here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
debs=${1:?usage: tests/fresh/packages.sh DEB_DIR}
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, namespaces)"; exit 2; }
command -v debootstrap >/dev/null || { say "no debootstrap; run scripts/deps.sh fresh"; exit 2; }
set -- "$debs"/parallax_*.deb "$debs"/pcp-pmda-parallax_*.deb
[ $# = 2 ] && [ -f "$1" ] && [ -f "$2" ] ||
    { say "$debs holds not one parallax_*.deb and one pcp-pmda-parallax_*.deb"; exit 2; }
mirror=$(fresh_mirror)
[ -n "$mirror" ] || { say "this machine's apt uses no deb.debian.org mirror"; exit 2; }

root=$(mktemp -d "${FRESH_DIR:-/var/tmp}/parallax-pkg.XXXXXX")
trap 'rc=$?; fresh_cleanup "$root"; exit $rc' EXIT
trap 'exit 130' INT TERM HUP
t0=$SECONDS
say "debootstrap bookworm from $mirror into $root (no source tree)"
fresh_root "$root" "$mirror" iproute2,procps || exit 1
mkdir -p "$root/root/debs"
cp "$@" "$root/root/debs/"

say "step 1 (network): apt install ./parallax_*.deb ./pcp-pmda-parallax_*.deb"
# No daemon starts while packages install (policy-rc.d says so, as in any
# chroot): pmcd is started the standard way in step 2.
# shellcheck disable=SC2016 # expanded in the root
in_root "$root" "" /root/debs '
    printf "#!/bin/sh\nexit 101\n" >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends ./parallax_*.deb ./pcp-pmda-parallax_*.deb >/root/apt.log 2>&1 ||
        { tail -n 20 /root/apt.log; exit 1; }
    rm -f /usr/sbin/policy-rc.d'
[ ! -e "$root/run/pcp" ] || { say "step 1 left a /run/pcp"; exit 1; }

say "step 2 (no network): pmcd, ./Install, pcp parallax, a workload, removal"
rc=0
# shellcheck disable=SC2016 # expanded in the root
in_root "$root" --net /root '
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
waitfor() { local n=$1; shift; for _ in $(seq $((n * 5))); do "$@" && return 0; sleep 0.2; done; return 1; }
. /etc/pcp.conf
v=$(dpkg-query -W -f="\${Version}" parallax)
check "parallax --version is the package version $v" \
    test "$(parallax --version)" = "parallax $v"
check "pcp-pmda-parallax is the same version" \
    test "$(dpkg-query -W -f="\${Version}" pcp-pmda-parallax)" = "$v"
check "no source tree here" test ! -e /root/parallax
/etc/init.d/pmcd start >/root/pmcd-start.log 2>&1 || cat /root/pmcd-start.log
check "pmcd started the standard way (/etc/init.d/pmcd start)" \
    waitfor 30 bash -c "pminfo -f pmcd.version >/dev/null"
(cd /var/lib/pcp/pmdas/parallax && ./Install) >/root/install.log 2>&1 || cat /root/install.log
check "./Install registered the agent" grep -q "^parallax[[:space:]]" "$PCP_PMCDCONF_PATH"
check "the agent answers: parallax.agent.version" waitfor 30 bash -c "pminfo -f parallax.agent.version >/dev/null"
pcp parallax --text -n 2 -h localhost >/root/text.txt 2>/root/text.err ||
    { bad "pcp parallax --text -n 2 -h localhost exited $?: $(cat /root/text.err)"; }
check "pcp parallax --text -n 2 -h localhost: two refreshes with a localhost column, live" \
    test "$(grep -c "^parallax .* - interval " /root/text.txt)" = 2 -a \
    "$(grep -cE "^ +host +localhost" /root/text.txt)" = 2 -a \
    "$(grep -cE "^ +live .* live " /root/text.txt)" = 2
# libpcp_import and libcurl are dlopened: the Depends of the package bring them
parallax --text -n 2 -h localhost --record /root/rec >/root/rec.txt 2>/root/rec.err ||
    { bad "parallax --text -n 2 -h localhost --record exited $?: $(cat /root/rec.err)"; }
check "--record wrote an archive pmlogcheck reads (libpcp_import loaded)" \
    bash -c "a=\$(find /root/rec/localhost -name \"*.meta\" | sed \"s/\\.meta\$//\"); [ -n \"\$a\" ] && pmlogcheck \"\$a\""
check "--fleet speaks HTTP through libcurl (a refused connection, not a missing library)" \
    bash -c "parallax --fleet http://127.0.0.1:1 --text -n 1 2>&1 | grep -q \"Couldn.t connect\""
rm -rf /root/rec
parallax --batch syscall-null -r 1 -h localhost -o /root/r.txt >/root/batch.out 2>&1 ||
    { bad "parallax --batch syscall-null -h localhost exited $?: $(tail -n 3 /root/batch.out)"; }
check "a workload ran through the agent (its report has localhost syscall-null)" \
    python3 -c "
import json, sys
s = [x for x in json.load(open(\"/root/r.json\"))[\"sources\"] if x[\"name\"] == \"localhost\"][0]
w = s[\"workloads\"][\"syscall-null\"]
assert w[\"n\"] >= 1 and w[\"median\"] > 0, w
print(\"localhost syscall-null median\", w[\"median\"])"
check "the agent ran it (parallax.workload.runs)" \
    bash -c "pminfo -f parallax.workload.runs | grep -q \"syscall-null\\\"\\] value [1-9]\""
export DEBIAN_FRONTEND=noninteractive
apt-get purge -y -qq parallax pcp-pmda-parallax >/root/remove.log 2>&1 ||
    { bad "apt-get purge exited $?: $(tail -n 5 /root/remove.log)"; }
grep -iE "warning|error" /root/remove.log && bad "dpkg warned while removing"
check "both packages gone" bash -c "! dpkg-query -W -f=\"\${Status}\n\" parallax pcp-pmda-parallax 2>/dev/null | grep -q installed"
check "pmcd still runs" bash -c "pminfo -f pmcd.version >/dev/null"
check "nothing of parallax in pmcd.conf" bash -c "! grep -i parallax $PCP_PMCDCONF_PATH"
check "nothing of parallax in the namespace (pminfo, the root file)" \
    bash -c "! pminfo parallax >/dev/null 2>&1 && ! grep -q parallax $PCP_VAR_DIR/pmns/root"
check "no parallax process left" bash -c "! ps -eo comm | grep -i parallax"
left=$(find / -xdev \( -path /proc -o -path /sys -o -path /root \) -prune -o \
    -iname "*parallax*" -print 2>/dev/null)
check "no file of parallax left${left:+: $left}" test -z "$left"
/etc/init.d/pmcd stop >/dev/null 2>&1 || true
echo "packages: $passed passed, $failed failed"
[ "$failed" = 0 ]' || rc=$?
say "packages run exited $rc after $((SECONDS - t0)) s"
exit "$rc"
