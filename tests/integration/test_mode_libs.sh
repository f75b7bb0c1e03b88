#!/bin/bash
# What only one mode needs is loaded only in that mode (issue 29): a plain
# --text run watching this host and a private pmcd guest maps neither
# libcurl nor libpcp_import, nor the TLS, HTTP/2, SSH, LDAP and Kerberos
# libraries libcurl brings (read from the process's own /proc/PID/maps);
# --record maps libpcp_import and its archives read back in PCP's tools;
# --fleet maps libcurl and talks HTTP through it; and with either library
# hidden (a bind mount of an empty file in a private mount namespace) the
# mode that needs it fails with one line naming the package.
set -u
export LANG=C.UTF-8 LC_ALL=
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
pid=
trap 'pmcd_stop "$work/g1/pmcd"; [ -z "$pid" ] || kill "$pid" 2>/dev/null
      rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
pmcd_start_agent "$work/g1" "$port" || fail "pmcd with the agent"

# libcurl's own libraries here, read from ldd of libcurl itself (not a
# list of this test's): each one libpcp (which every run needs) does not
# also bring, and libcurl and libpcp_import themselves
so_path() { ldconfig -p | awk -v l="$1" '$1 == l { print $NF; exit }'; }
curl_so=$(so_path libcurl.so.4)
pmi_so=$(so_path libpcp_import.so.1)
pcp_so=$(so_path libpcp.so.3)
[ -n "$curl_so" ] && [ -n "$pmi_so" ] && [ -n "$pcp_so" ] ||
    fail "libcurl, libpcp_import or libpcp not found by ldconfig"
libs() { ldd "$1" | awk '$1 ~ /^lib/ { sub(/\.so.*/, "", $1); print $1 }' | sort -u; }
mapfile -t only_curl < <(comm -23 <(libs "$curl_so") <(libs "$pcp_so"))
[ "${#only_curl[@]}" -ge 5 ] || fail "libcurl brings few libraries: ${only_curl[*]}"
unwanted=(libcurl libpcp_import "${only_curl[@]}")

# mapped NAME...: the names (libfoo, without .so) PID maps
mapped() { awk '$6 ~ /\.so/ { n = $6; sub(/.*\//, "", n); sub(/\.so.*/, "", n); print n }' \
    "/proc/$pid/maps" | sort -u; }
lines_in() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }

# --- a plain run ---
"$bin" --text -t 1 -n 600 -h "g1=localhost:$port" >"$work/plain" 2>"$work/err" &
pid=$!
# two refreshes: the guest's rows are up, its sampler and the screen's
# code have run
wait_for 30 grep -q 'g1' "$work/plain" || fail "no g1 in --text: $(cat "$work/err")"
wait_for 30 lines_in "$work/plain" 8 || fail "--text printed too little"
mapped >"$work/maps.plain"
grep -qx libpcp "$work/maps.plain" || fail "libpcp not mapped: is this PID parallax?"
bad=$(grep -xF -f <(printf '%s\n' "${unwanted[@]}") "$work/maps.plain" | tr '\n' ' ')
[ -z "$bad" ] || fail "a plain --text run maps $bad"
echo "ok: a plain run maps $(wc -l <"$work/maps.plain") libraries, none of: ${unwanted[*]}"
kill "$pid"; wait "$pid" 2>/dev/null; pid=

# --- --record: libpcp_import is mapped and the archives are whole ---
"$bin" --text -t 1 -n 600 -h "g1=localhost:$port" --record "$work/rec" \
    >"$work/rtext" 2>"$work/err" &
pid=$!
has_meta() { [ -n "$(find "$work/rec/g1" -name '*.meta' 2>/dev/null)" ] &&
    [ -n "$(find "$work/rec/host" -name '*.meta' 2>/dev/null)" ]; }
wait_for 30 has_meta || fail "no archives under $work/rec: $(cat "$work/err")"
wait_for 30 lines_in "$work/rtext" 12 || fail "--text --record printed too little"
mapped >"$work/maps.rec"
grep -qx libpcp_import "$work/maps.rec" || fail "--record does not map libpcp_import"
grep -qx libcurl "$work/maps.rec" && fail "--record maps libcurl"
kill -TERM "$pid"
wait "$pid"; rc=$?; pid=
[ "$rc" -eq 0 ] || [ "$rc" -eq 143 ] || fail "--record run ended with $rc: $(cat "$work/err")"
for src in host g1; do
    a=$(find "$work/rec/$src" -name '*.meta' | sed 's/\.meta$//')
    pmlogcheck "$a" >"$work/check" 2>&1 || fail "pmlogcheck $src: $(cat "$work/check")"
    pmdumplog -a "$a" >"$work/dump" 2>&1 || fail "pmdumplog $src"
    n=$(grep -c '(kernel.all.pswitch): value' "$work/dump")
    [ "$n" -ge 2 ] || fail "$src's archive has $n records of kernel.all.pswitch"
done
echo "ok: --record maps libpcp_import (not libcurl); pmlogcheck and pmdumplog read both archives"

# --- --fleet: libcurl is mapped and speaks HTTP (a listener that answers
# every request with a 404: libcurl's status, not a connection error) ---
hport=$(free_port) || fail "no free port"
python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(404); self.end_headers()
    do_POST = do_GET
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$hport" &
web=$!
trap 'pmcd_stop "$work/g1/pmcd"; kill "$web" 2>/dev/null
      [ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
wait_for 15 bash -c "exec 3<>/dev/tcp/127.0.0.1/$hport" 2>/dev/null || fail "no web server"
"$bin" --fleet "http://127.0.0.1:$hport" --text -t 1 -n 600 >"$work/fleet" 2>"$work/ferr" &
pid=$!
wait_for 30 grep -q 'HTTP 404\|404' "$work/fleet" "$work/ferr" ||
    fail "--fleet did not report the 404: $(cat "$work/fleet" "$work/ferr" | head -5)"
mapped >"$work/maps.fleet"
grep -qx libcurl "$work/maps.fleet" || fail "--fleet does not map libcurl"
grep -qx libpcp_import "$work/maps.fleet" && fail "--fleet maps libpcp_import"
kill "$pid"; wait "$pid" 2>/dev/null; pid=
echo "ok: --fleet maps libcurl (not libpcp_import) and saw the server's 404: $(grep -h 404 "$work/fleet" "$work/ferr" | head -1)"

# --- either library missing: one line naming the package ---
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    : >"$work/empty.so"
    hide() { unshare -m bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ \
        "$work/empty.so" "$(readlink -f "$1")" "${@:2}"; }
    expect_fail 2 "^parallax: recording .*needs libpcp_import.*apt-get install libpcp-import1$" \
        hide "$pmi_so" "$bin" --text -n 1 -h "g1=localhost:$port" --record "$work/rec2"
    expect_fail 1 "^parallax: --fleet needs libcurl.*apt-get install libcurl4$" \
        hide "$curl_so" "$bin" --fleet "http://127.0.0.1:$hport" --text -n 1
    # and a plain run does not miss them
    unshare -m bash -c 'mount --bind "$1" "$2" && mount --bind "$1" "$3" &&
        shift 3 && exec "$@"' _ "$work/empty.so" "$(readlink -f "$curl_so")" \
        "$(readlink -f "$pmi_so")" "$bin" --text -n 1 -h "g1=localhost:$port" \
        >"$work/hidden" 2>&1 || fail "a plain run without libcurl and libpcp_import: $(cat "$work/hidden")"
    echo "ok: without libcurl and libpcp_import a plain run works"
else
    echo "skip: hiding a library needs root and unshare -m"
fi
echo "PASS test_mode_libs"
