#!/bin/sh
# Builds parallax's Debian packages (debian/) with Debian's own tools into
# OUT (default build/deb): parallax_V_ARCH.deb and
# pcp-pmda-parallax_V_ARCH.deb, with their .buildinfo and .changes. The
# source tree's files (git's, with what is changed and not yet committed;
# without build directories) are copied to OUT/src/parallax-V first and
# `dpkg-buildpackage -us -uc -b` runs there, so nothing is written beside
# the tree and the tree's own build/ stays. Build dependencies missing from
# debian/control's list are installed with `apt-get build-dep` (root).
# Rebuilds only when a source file changed (OUT/sources.sum).
# Usage: scripts/deb.sh [--lint] [OUT]
#   --lint  then lintian on both packages: fails on an error, prints all
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "deb: $*" >&2; }
die() {
    say "$*"
    exit 1
}

lint=false
if [ "${1:-}" = --lint ]; then
    lint=true
    shift
fi
OUT=${1:-$TOP/build/deb}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd -P)

# sources: the files a package is built from, one a line, relative to TOP
sources() {
    if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$TOP" ls-files -co --exclude-standard
    else
        (cd "$TOP" && find . -path ./.git -prune -o -type f -print | sed 's|^\./||')
    fi | grep -vE '^(build|build-[^/]*|bench/out)/' | while read -r f; do
        [ -f "$TOP/$f" ] && echo "$f"
    done | LC_ALL=C sort
}

command -v dpkg-buildpackage >/dev/null && [ -x /usr/bin/dh ] ||
    die "no dpkg-buildpackage or debhelper; run 'scripts/deps.sh' (make deps) as root"

version=$(sed -n 's/^#define PARALLAX_VERSION "\(.*\)"$/\1/p' "$TOP/base/version.h")
[ -n "$version" ] || die "no PARALLAX_VERSION in base/version.h"
arch=$(dpkg --print-architecture)
debs="$OUT/parallax_${version}_$arch.deb $OUT/pcp-pmda-parallax_${version}_$arch.deb"

# one build at a time per OUT (make guest beside make deb, say)
exec 9>"$OUT/.lock"
flock 9

sources >"$OUT/sources.list.new"
sum=$( (cd "$TOP" && tr '\n' '\0' <"$OUT/sources.list.new" | xargs -0 sha256sum) |
    sha256sum | cut -d' ' -f1)
rm -f "$OUT/sources.list.new"
fresh=true
for d in $debs; do
    [ -s "$d" ] || fresh=false
done
if $fresh && [ "$(cat "$OUT/sources.sum" 2>/dev/null)" = "$sum" ]; then
    say "up to date: $(for d in $debs; do basename "$d"; done | tr '\n' ' ')"
else
    src=$OUT/src/parallax-$version
    rm -rf "$OUT/src"
    mkdir -p "$src"
    (cd "$TOP" && sources | tar -cf - -T -) | tar -xf - -C "$src"
    if ! (cd "$src" && dpkg-checkbuilddeps >/dev/null 2>&1); then
        [ "$(id -u)" = 0 ] ||
            die "$(cd "$src" && dpkg-checkbuilddeps 2>&1 | head -n 1); as root: apt-get build-dep $TOP"
        say "installing the build dependencies (apt-get build-dep)"
        DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq \
            --no-install-recommends "$src" >&2
    fi
    say "dpkg-buildpackage -us -uc -b in $src"
    (cd "$src" &&
        DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}" \
            dpkg-buildpackage -us -uc -b >"$OUT/build.log" 2>&1) || {
        tail -n 30 "$OUT/build.log" >&2
        die "dpkg-buildpackage failed (the whole log: $OUT/build.log)"
    }
    rm -f "$OUT"/*.deb "$OUT"/*.buildinfo "$OUT"/*.changes
    mv "$OUT/src"/*.deb "$OUT/src"/*.buildinfo "$OUT/src"/*.changes "$OUT/"
    rm -rf "$OUT/src"
    for d in $debs; do
        [ -s "$d" ] || die "dpkg-buildpackage made no $(basename "$d")"
    done
    echo "$sum" >"$OUT/sources.sum"
    say "built $(for d in $debs; do basename "$d"; done | tr '\n' ' ')in $OUT"
fi

if $lint; then
    command -v lintian >/dev/null || die "no lintian; run 'scripts/deps.sh' (make deps) as root"
    say "lintian $(for d in $debs; do basename "$d"; done | tr '\n' ' ')"
    # shellcheck disable=SC2086 # two paths without spaces
    lintian --fail-on error --display-info $debs || die "lintian reports errors (above)"
    say "lintian: no errors"
fi
