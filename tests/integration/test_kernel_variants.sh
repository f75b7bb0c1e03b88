#!/bin/bash
# The demo guest on Debian's other kernels (issue 18): --demo-guest=
# kernel=6.12 and kernel=6.12-rt, booted side by side, come up with their
# own kernel (the release their boot relays) and show their scheduler and
# preemption model in the column header (EEVDF; voluntary, RT lazy), read
# from the guest by pmdaparallax. Where the Debian archive cannot be
# reached and a kernel is not cached, the variant fails in one line that
# names the package, before anything boots (apt pointed at a dead proxy,
# a cache of its own): the one line on stderr, where --text tells every
# guest it starts. The kernels are fetched once through apt into
# BUILD/guest/cache (34 MB and 107 MB); the boot part is skipped, saying
# so, only when that cannot be done because the archive is unreachable.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_guest_image
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# apt through a proxy nobody answers, with lists and a cache of its own
# (copies: the system's stay as they were), and a kernel cache of its own
mkdir -p "$work/lists/partial" "$work/apt-cache/archives/partial" "$work/debs"
cp /var/lib/apt/lists/*_Packages* /var/lib/apt/lists/*Release* "$work/lists/" 2>/dev/null
cat >"$work/apt.conf" <<CONF
Acquire::http::Proxy "http://127.0.0.1:9/";
Acquire::https::Proxy "http://127.0.0.1:9/";
Acquire::Retries "0";
Dir::State::Lists "$work/lists";
Dir::Cache "$work/apt-cache";
CONF
expect_fail 1 "linux-image-6\\.12[^ ]*-rt-amd64.*unreachable" \
    env APT_CONFIG="$work/apt.conf" PARALLAX_GUEST_CACHE="$work/debs" \
    "$bin" --text -n 1 --demo-guest --demo-guest=kernel=6.12-rt
echo "ok: the unreachable kernel failed in one line, before any guest started"

for v in 6.12 6.12-rt; do
    if ! guest/variant-image.sh "$gdir" "$v" >"$work/$v.release" 2>"$work/$v.err"; then
        if grep -q unreachable "$work/$v.err"; then
            echo "SKIP: kernel $v is not cached and the Debian archive is unreachable: $(tail -n 1 "$work/$v.err")"
            exit 0
        fi
        fail "kernel $v: $(tail -n 1 "$work/$v.err")"
    fi
done
t0=$SECONDS
"$bin" --text -n 2 -t 1 --demo-guest=kernel=6.12 --demo-guest=kernel=6.12-rt \
    >"$work/out" 2>"$work/err" || { cat "$work/err"; fail "parallax exited $?"; }
echo "both up and shown in $((SECONDS - t0)) s (two TCG guests competing for the CPUs)"
for v in 6.12 6.12-rt; do
    rel=$(cat "$work/$v.release")
    grep -qF "demo-$v: guest [" "$work/err" &&
        grep -qF "] kernel $rel up, 1 cpu" "$work/err" ||
        { cat "$work/err"; fail "no boot of kernel $rel relayed"; }
done
# the table, without the legend --text prints above it (lines with #)
grep -v '^#' "$work/out" | sed '/./,$!d' >"$work/table"
head -n 6 "$work/table"
header=$(sed -n 4p "$work/table")
echo "$header" | grep -qE 'demo-6\.12 +' || sed -n 2p "$work/table" | grep -qE 'demo-6\.12 ' ||
    fail "no demo-6.12 column"
sed -n 2p "$work/table" | grep -qE 'demo-6\.12-rt' || fail "no demo-6.12-rt column"
echo "$header" | grep -qE '6\.12 EEVDF( voluntary)? ' || fail "6.12's header lacks EEVDF: $header"
echo "$header" | grep -qE '6\.12 EEVDF RT' || fail "6.12-rt's header lacks EEVDF RT: $header"
echo "ok: the 6.12 and 6.12-rt columns show their kernel and scheduler"
