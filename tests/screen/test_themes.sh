#!/bin/bash
# Themes on the real screen (tmux): --theme light starts in light's
# colours; t goes to the next theme and the status line names it; a theme
# with an error (in $XDG_CONFIG_HOME) met with t shows file:line: on the
# status line while parallax keeps running in the built-in look; NO_COLOR leaves no
# colour in the escape sequences (tmux capture-pane -e), only attributes;
# an 8-colour terminal gets 256-colour themes brought down to its colours.
# Also: an unknown --theme, or one with an error, is one line and exit 2,
# the installed themes (make install-themes) are found through
# PARALLAX_THEMES.
set -u
. "$(dirname "$0")/../lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
use_build

work=$(mktemp -d)
tmux_use parallax-themes -J
trap 'tmux_stop; rm -rf "$work"' EXIT
# the SGR parameters on screen, one a line ("1", "38", "5", "28", ...)
sgr() { tm capture-pane -p -e -t t | grep -ao $'\e\[[0-9;]*m' | tr -d '\033[m' | tr ';' '\n'; }
# a colour among them: 30-38 40-48 foreground and background, 90-107
# bright (39 and 49 are the terminal's own colours)
colours() { sgr | grep -xE '3[0-8]|4[0-8]|9[0-7]|10[0-7]' | sort -u | tr '\n' ' '; }
title_sgr() { tm capture-pane -p -e -t t | head -1 | grep -ao $'\e\[[0-9;]*m' | tr -d '\033[m' | tr ';\n' '  '; }

# the user's themes: one with an error on line 3
unset PARALLAX_THEMES NO_COLOR
export XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state
mkdir -p "$XDG_CONFIG_HOME/parallax/themes"
broken=$XDG_CONFIG_HOME/parallax/themes/broken.theme
printf '# broken on purpose\ntitle = red\nlive = purple bold\n' >"$broken"

# the shipped themes come from the source tree next to the build directory
expect_fail 2 "^parallax: unknown theme 'nosuch'; available: broken, default, high-contrast, light, mono$" \
    "$bin" --theme nosuch

tmux_shell 110 30 tmux-256color

# start ENV...: parallax in the pane until its figures show
start() { tmux_parallax "$* $bin -t 0.5 $THEME_ARGS"; }
quit() {
    tm send-keys -t t q
    wait_for 5 has '^EXIT=0$' || { screen; fail "no exit 0"; }
    tm send-keys -t t clear Enter
    wait_for 5 has '^PROMPT\$' || fail "no prompt after quitting"
}

# light: the title is bold bright white on blue; live is colour 28
THEME_ARGS="--theme light" start
t=$(title_sgr)
[[ " $t " == *" 97 "* && " $t " == *" 44 "* && " $t " == *" 1 "* ]] ||
    fail "title not in light's colours: $t"
sgr | tr '\n' ' ' | grep -q '38 5 28 ' || fail "no colour 28 on screen: $(colours)"
echo "ok: --theme light starts in its colours (title: $t)"

# t: light -> mono -> broken (its error) -> default
tm send-keys -t t t
wait_for 5 has '^ theme mono *$' || { screen; fail "t did not name mono"; }
[ -z "$(colours)" ] || fail "mono still has colours: $(colours)"
[[ " $(title_sgr) " == *" 7 "* ]] || fail "mono's title is not reversed"
echo "ok: t -> mono, no colours"
tm send-keys -t t t
wait_for 5 has "^ $broken:3: unknown colour 'purple'" ||
    { screen; fail "no file:line: for the broken theme"; }
[[ " $(title_sgr) " == *" 46 "* ]] || fail "not the built-in look: $(title_sgr)"
# still running: the figures keep coming, keys still answer
before=$(screen | grep '^CPU user %')
wait_for 5 eval '[ "$(screen | grep "^CPU user %")" != "$before" ]' ||
    fail "stopped updating after a broken theme"
tm send-keys -t t t
wait_for 5 has '^ theme default *$' || { screen; fail "t did not go on to default"; }
echo "ok: t -> broken (file:line: on the status line) -> default"
quit

# the broken theme named on the command line: bad input, as an unknown
# name is (issue 24), one line with file:line: and exit 2
expect_fail 2 "^parallax: --theme: $broken:3: unknown colour 'purple'" \
    "$bin" --theme broken

# NO_COLOR: attributes only, whatever the theme
THEME_ARGS="--theme high-contrast" start
[ -n "$(colours)" ] || fail "high-contrast without NO_COLOR has no colours"
quit
THEME_ARGS="--theme high-contrast" start NO_COLOR=1
c=$(colours)
[ -z "$c" ] || fail "colour escapes under NO_COLOR: $c"
sgr | grep -qx 1 || fail "no bold under NO_COLOR"
[[ " $(title_sgr) " == *" 7 "* ]] || fail "title bar not reversed under NO_COLOR"
tm send-keys -t t t # cycling keeps it colourless
wait_for 5 has '^ theme light *$' || { screen; fail "t under NO_COLOR"; }
c=$(colours)
[ -z "$c" ] || fail "colour escapes under NO_COLOR after t: $c"
quit
echo "ok: NO_COLOR: no colour escapes, attributes kept"

# 8 colours: light's colour 28 becomes green (32), bright white on blue
# becomes bold white on blue
THEME_ARGS="--theme light" start TERM=screen
sgr | grep -qx 38 && fail "256-colour escape on an 8-colour terminal"
sgr | grep -qx 32 || fail "colour 28 not brought down to green: $(colours)"
t=$(title_sgr)
[[ " $t " == *" 37 "* && " $t " == *" 44 "* && " $t " == *" 1 "* ]] ||
    fail "title on 8 colours: $t"
quit
echo "ok: 8 colours: themes brought down"

# make install-themes puts them where an installed parallax looks;
# PARALLAX_THEMES points a binary outside the source tree at them
make -s -C "$src" install-themes DESTDIR="$work/dest" PREFIX=/usr >/dev/null ||
    fail "make install-themes"
inst=$work/dest/usr/share/parallax/themes
for f in default light mono high-contrast; do
    [ -f "$inst/$f.theme" ] || fail "$f.theme not installed"
done
mkdir -p "$work/bin" && cp "$bin" "$work/bin/parallax"
rm "$broken"
PARALLAX_THEMES=$inst expect_fail 2 \
    "available: default, high-contrast, light, mono$" \
    "$work/bin/parallax" --theme nosuch
echo "all theme checks passed"
