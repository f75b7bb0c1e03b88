#!/bin/bash
# make install honours DESTDIR and PREFIX: into a temporary root it puts
# the binaries, the exec helpers and the archive reader, the man pages,
# the themes, the demo guest's builder, the PMDA's files and pcp(1)'s
# link to parallax (pcp-parallax), nothing else; the installed binaries answer --version and find
# their helper under the new PREFIX; each man page renders without a
# warning and names every long option its program's --help lists.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/tests/lib.sh"
build=${PARALLAX_BUILD:-$here/${1:-build}}
build=${build#"$here"/}
[ -x "$here/$build/parallax" ] || fail "no $build/parallax; run make build"
command -v groff >/dev/null && command -v man >/dev/null ||
    fail "groff and man-db are needed (scripts/deps.sh installs them)"
eval "$(sed -n 's/^\(PCP_PMDAS_DIR\|PCP_BINADM_DIR\)=\(.*\)$/\1=\2/p' /etc/pcp.conf)"
pmdas=${PCP_PMDAS_DIR#/}
binadm=${PCP_BINADM_DIR#/}

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
make -C "$here" --no-print-directory install BUILD="$build" DESTDIR="$root" \
    PREFIX=/usr >"$root.log" 2>&1 || { cat "$root.log"; rm -f "$root.log"; fail "make install"; }
rm -f "$root.log"

want="usr/bin/parallax 755
usr/bin/parallax-run 755
usr/libexec/parallax/parallax-hello 755
usr/libexec/parallax/parallax-hello-dyn 755
usr/libexec/parallax/parallax-archive 755
usr/share/man/man1/parallax.1 644
usr/share/man/man1/parallax-run.1 644
usr/share/man/man1/pmdaparallax.1 644
usr/share/parallax/themes/default.theme 644
usr/share/parallax/guest/boot.sh 755
usr/share/parallax/guest/build-image.sh 755
usr/share/parallax/guest/init 755
usr/share/parallax/guest/clock_sync.c 644
$pmdas/parallax/pmdaparallax 755
$pmdas/parallax/Install 755
$pmdas/parallax/Remove 755
$pmdas/parallax/pmns 644
$pmdas/parallax/help 644
$pmdas/parallax/root 644
$pmdas/parallax/domain.h 644"
while read -r f mode; do
    [ -f "$root/$f" ] || fail "not installed: /$f"
    [ "$(stat -c %a "$root/$f")" = "$mode" ] || fail "/$f: mode not $mode"
done <<<"$want"
# pcp(1)'s command mode: `pcp parallax` runs $PCP_BINADM_DIR/pcp-parallax
[ "$(readlink "$root/$binadm/pcp-parallax")" = /usr/bin/parallax ] ||
    fail "no /$binadm/pcp-parallax linking to /usr/bin/parallax"
[ "$(readlink "$root/usr/share/man/man1/pcp-parallax.1")" = parallax.1 ] ||
    fail "no pcp-parallax(1) linking to parallax(1)"
# nothing outside these places (the themes are the theme helper's list)
stray=$(cd "$root" && find . -type f | sed 's|^\./||' |
    grep -vE "^(usr/bin/parallax(-run)?|usr/libexec/parallax/parallax-(hello(-dyn)?|archive)|usr/share/man/man1/(parallax|parallax-run|pmdaparallax)\.1|usr/share/parallax/(themes|guest)/[^/]+|$pmdas/parallax/[^/]+)$")
[ -z "$stray" ] || fail "installed where it should not: $stray"
echo "ok: make install DESTDIR=... PREFIX=/usr: $(cd "$root" && find . -type f | wc -l) files where they belong"

"$root/usr/bin/parallax" --version | grep -qxE 'parallax [0-9]+\.[0-9]+\.[0-9]+' ||
    fail "installed parallax --version"
"$root/usr/bin/parallax-run" --version | grep -qxE 'parallax-run [0-9.]+' ||
    fail "installed parallax-run --version"
"$root/$pmdas/parallax/pmdaparallax" --version | grep -qxE 'pmdaparallax [0-9.]+' ||
    fail "installed pmdaparallax --version"
# the installed parallax-run runs the helper installed beside it, not the
# build tree's
env -u PARALLAX_LIBEXEC "$root/usr/bin/parallax-run" -r 1 -d 0.05 -w 0 \
    fork-exec >"$root/run.out" 2>&1 || { cat "$root/run.out"; fail "installed fork-exec"; }
# ... and the installed parallax reads an archive with the reader
# installed beside it (libexec/parallax)
"$here/$build/parallax" --record "$root/rec" --text -n 2 -t 0.2 >/dev/null 2>&1 ||
    fail "a recording to replay"
env -u PARALLAX_LIBEXEC "$root/usr/bin/parallax" -a "$root/rec" --text -n 1 \
    -t 0.2 >"$root/run.out" 2>&1 || { cat "$root/run.out"; fail "installed -a"; }
echo "ok: installed binaries answer --version and find their helpers"

# every long option of a program's --help in its man page, written \-\-NAME
options_in() { grep -oE -- '--[a-z][a-z-]+' | sort -u; }
check_page() {
    local page=$1; shift
    local out
    out=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$out" ] || fail "$page: groff warns: $out"
    out=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
    [ -z "$out" ] || fail "$page: man warns: $out"
    MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME' || fail "$page: no NAME"
    for opt in $("$@" 2>&1 | options_in); do
        grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$page" ||
            fail "$page does not describe $opt (from $* )"
    done
    echo "ok: $(basename "$page") renders without warnings and has every option"
}
man1=$root/usr/share/man/man1
check_page "$man1/parallax.1" "$root/usr/bin/parallax" --help
check_page "$man1/parallax-run.1" "$root/usr/bin/parallax-run" --help
check_page "$man1/pmdaparallax.1" "$root/$pmdas/parallax/pmdaparallax" --help
echo "all install checks passed"
