#!/bin/bash
# The Debian packages (make deb, scripts/deb.sh; make guest builds them
# too): lintian finds no error in either; one version everywhere (base/
# version.h, debian/changelog, both packages' Version, the packaged
# parallax --version and pmdaparallax --version); pcp-pmda-parallax holds
# the agent alone (its binary, helpers, pmns, help, Install, Remove, man
# page; links from PCP_PMDAS_DIR) and depends on pcp; parallax holds no
# agent and links pcp-parallax to parallax; the maintainer scripts are
# sh and the prerm runs ./Remove only when the agent is registered.
# Installing them is tests/fresh/packages.sh's (a fresh machine).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/tests/lib.sh"
build=${PARALLAX_BUILD:-$here/${1:-build}}
command -v lintian >/dev/null || fail "no lintian; run make deps"
# make asan's build-asan/deb is the plain build's (as its guest is)
out=$here/build/deb
"$here/scripts/deb.sh" --lint "$out" >"$build/deb-lint.log" 2>&1 || {
    cat "$build/deb-lint.log"
    fail "scripts/deb.sh --lint"
}
grep -q '^deb: lintian: no errors$' "$build/deb-lint.log" || fail "lintian did not run"
grep -E '^E: ' "$build/deb-lint.log" && fail "lintian errors"
echo "ok: lintian: no errors ($(grep -cE '^[WI]: ' "$build/deb-lint.log") warnings and notes)"

v=$(sed -n 's/^#define PARALLAX_VERSION "\(.*\)"$/\1/p' "$here/base/version.h")
[ -n "$v" ] || fail "no version in base/version.h"
[ "$(cd "$here" && dpkg-parsechangelog -SVersion)" = "$v" ] ||
    fail "debian/changelog says $(cd "$here" && dpkg-parsechangelog -SVersion), base/version.h $v"
arch=$(dpkg --print-architecture)
main=$out/parallax_${v}_$arch.deb agent=$out/pcp-pmda-parallax_${v}_$arch.deb
for d in "$main" "$agent"; do
    [ -f "$d" ] || fail "no $d"
    [ "$(dpkg-deb -f "$d" Version)" = "$v" ] || fail "$d: Version $(dpkg-deb -f "$d" Version)"
done
x=$(mktemp -d)
trap 'rm -rf "$x"' EXIT
dpkg-deb -x "$main" "$x/main"
dpkg-deb -x "$agent" "$x/agent"
dpkg-deb -e "$agent" "$x/agent.ctl"
[ "$("$x/main/usr/bin/parallax" --version)" = "parallax $v" ] || fail "packaged parallax --version"
[ "$("$x/agent/usr/lib/pcp/pmdas/parallax/pmdaparallax" --version)" = "pmdaparallax $v" ] ||
    fail "packaged pmdaparallax --version"
echo "ok: version $v in base/version.h, debian/changelog, both packages and both binaries"

# the agent alone
want="usr/lib/pcp/pmdas/parallax/Install
usr/lib/pcp/pmdas/parallax/Remove
usr/lib/pcp/pmdas/parallax/domain.h
usr/lib/pcp/pmdas/parallax/help
usr/lib/pcp/pmdas/parallax/parallax-hello
usr/lib/pcp/pmdas/parallax/parallax-hello-dyn
usr/lib/pcp/pmdas/parallax/pmdaparallax
usr/lib/pcp/pmdas/parallax/pmns
usr/lib/pcp/pmdas/parallax/root
usr/share/doc/pcp-pmda-parallax/README.Debian
usr/share/doc/pcp-pmda-parallax/changelog.gz
usr/share/doc/pcp-pmda-parallax/copyright
usr/share/lintian/overrides/pcp-pmda-parallax
usr/share/man/man1/pmdaparallax.1.gz"
diff <(echo "$want") <(cd "$x/agent" && find . -type f | sed 's|^\./||' | sort) ||
    fail "pcp-pmda-parallax holds other files than the agent's"
for f in Install Remove domain.h help pmdaparallax pmns root; do
    [ "$(readlink "$x/agent/var/lib/pcp/pmdas/parallax/$f")" = "/usr/lib/pcp/pmdas/parallax/$f" ] ||
        fail "no link /var/lib/pcp/pmdas/parallax/$f"
done
dpkg-deb -f "$agent" Depends | grep -qE '(^|, )pcp(,|$)' || fail "pcp-pmda-parallax does not depend on pcp"
echo "ok: pcp-pmda-parallax holds the agent alone, linked from /var/lib/pcp/pmdas/parallax, and depends on pcp"

[ ! -e "$x/main/usr/lib/pcp/pmdas" ] && [ ! -e "$x/main/var" ] || fail "parallax holds agent files"
[ "$(readlink "$x/main/usr/lib/pcp/bin/pcp-parallax")" = ../../../bin/parallax ] ||
    fail "no pcp-parallax link to parallax in the parallax package"
for f in usr/bin/parallax-run usr/libexec/parallax/parallax-hello \
    usr/libexec/parallax/parallax-archive usr/share/man/man1/parallax.1.gz \
    usr/share/parallax/themes/default.theme usr/share/parallax/guest/build-image.sh \
    usr/share/parallax/guest/boot.sh; do
    [ -e "$x/main/$f" ] || fail "parallax lacks /$f"
done
echo "ok: parallax holds the program, parallax-run, helpers, the archive reader, man pages, themes, the guest builder and pcp-parallax"

for s in prerm postrm postinst; do
    sh -n "$x/agent.ctl/$s" || fail "$s: syntax"
done
grep -q './Remove' "$x/agent.ctl/prerm" || fail "the prerm does not run ./Remove"
# the prerm's test of registration, against pmcd.conf files of both kinds
reg=$(sed -n '/^registered() {/,/^}/p' "$x/agent.ctl/prerm")
[ -n "$reg" ] || fail "no registered() in the prerm"
printf 'pmcd\t2\tdso\tpmcd_init\tx\nparallax\t498\tpipe\tbinary\t/x -d 498\n\n[access]\nallow "local:*" : all;\n' >"$x/with"
printf 'pmcd\t2\tdso\tpmcd_init\tx\n\n[access]\n# parallax 498 said here is no agent\nallow "parallax" : all;\n' >"$x/without"
t() { printf 'PCP_PMCDCONF_PATH=%s\n' "$1" >"$x/pcp.conf"; sh -c "$(echo "$reg" | sed "s|/etc/pcp.conf|$x/pcp.conf|"); registered"; }
t "$x/with" || fail "the prerm does not see a registered agent"
t "$x/without" && fail "the prerm sees an agent in [access]"
echo "ok: maintainer scripts are sh; the prerm runs ./Remove when pmcd.conf registers the agent, only then"
echo "all package checks passed"
