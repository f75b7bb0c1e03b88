#!/bin/bash
# More sources than fit at 80x24: this host and eleven guests (contexts to
# two real pmcds with pmdaparallax). Right and Left scroll the guests
# ("< more", "more >"), bringing other guests' columns in; Enter asks which
# sources take part and toggles any of them, source 10 and up too, by
# number or by name, and a workload then runs only where asked; while one
# pmcd is stopped its guests go down and the others keep updating.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
tmux_use parallax-many
cleanup() {
    tmux_stop
    pmcd_stop "$work/a/pmcd"
    pmcd_stop "$work/b/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT
# the row of column names, squeezed: "< more host g2 × g3 ×"; the row of
# their states below it ("more >" at its start when guests are hidden)
names() { screen | grep -m1 -E '^(< more)? +host' | tr -s ' '; }
states() { screen | grep -m1 -E '^(more >)? +live '; }
names_has() { names | grep -qE "$1"; }
# the status rows, joined (a long message takes two)
status_has() { screen | sed -n 2,3p | tr '\n' ' ' | tr -s ' ' | grep -qE "$1"; }
log=$work/state/parallax/parallax.log
fetches() { grep -c "parallax: $1: fetch " "$log"; }

pmcd_two_agents "$work/a" "$work/b"
# odd guests on the first pmcd, even ones on the second; each its own
# target (127.0.0.N), as one target is watched once
guests=()
for i in $(seq 11); do
    port=$p2
    [ $((i % 2)) -eq 1 ] && port=$p1
    guests+=(-h "g$i=127.0.0.$(((i + 1) / 2)):$port")
done
echo "ok: pmcds on $p1 (g1 g3 ... g11) and $p2 (g2 g4 ... g10)"

export XDG_STATE_HOME=$work/state
tmux_new 80 24 \
    "$bin -t 1 -r 1 -vv ${guests[*]}; echo EXIT=\$?; sleep 60"
wait_for 15 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE '^more > +live .* live .* live '" ||
    { screen; fail "the first guests not live, or no 'more >'"; }
names_has '^ host g1 × g2 ×$' || { screen; fail "not host, g1, g2 first"; }
echo "ok: $(names) / $(states | cut -c1-6)"

# Right: g3's column comes in, g1 goes; "< more" says there are more left
tm send-keys -t t Right
wait_for 5 names_has '^< more host g2 × g3 ×$' || { screen; fail "Right did not scroll"; }
has '^more > ' || { screen; fail "no 'more >' after one Right"; }
echo "ok: Right: $(names)"
# to the end: g10 and g11, nothing more to the right; Right there stays
tm send-keys -t t Right Right Right Right Right Right Right Right Right Right
wait_for 5 names_has '^< more host g10 × g11 ×$' || { screen; fail "not at the end"; }
hasnt '^more > ' || { screen; fail "'more >' at the end"; }
echo "ok: at the end: $(names)"
tm send-keys -t t Left
wait_for 5 names_has '^< more host g9 × g10 ×$' || { screen; fail "Left did not scroll"; }
has '^more > ' || { screen; fail "no 'more >' after Left"; }
echo "ok: Left: $(names)"

# Enter: any source by number or name; an unknown one toggles nothing
tm send-keys -t t Enter
wait_for 5 has '^ toggle sources \(0-11 or names\): *$' || { screen; fail "no prompt"; }
tm send-keys -t t "0 1 2 3 4 5 6 7 8 9 g11" Enter
wait_for 5 status_has '^ workloads: host off, g1 off, .* g9 off, g11 off $' ||
    { screen; fail "sources not toggled"; }
tm send-keys -t t Right
wait_for 5 names_has '^< more host \[off\] g10 × g11 \[off\] ×$' ||
    { screen; fail "no [off] where asked"; }
tm send-keys -t t Enter
wait_for 5 has '^ toggle sources' || { screen; fail "no prompt again"; }
tm send-keys -t t "nope" Enter
wait_for 5 has '^ no source nope: give 0-11 \(0 is this host\) or a name' ||
    { screen; fail "an unknown source not said"; }
echo "ok: Enter toggles sources 0-11 by number and name: $(names)"

# Space: syscall-null runs on g10 alone
tm send-keys -t t Space
wait_for 30 grep -q 'syscall-null on g10: done' "$log" ||
    { screen; tail "$log"; fail "syscall-null did not run on g10"; }
grep -q 'syscall-null: started on 1 source$' "$log" ||
    fail "syscall-null started on more than g10"
[ "$(grep -c 'syscall-null on ' "$log")" -eq 1 ] ||
    { grep 'syscall-null on ' "$log"; fail "syscall-null ran elsewhere too"; }
# g10's figure, no ratio as the host did not take part (n/a), and
# nothing at all for g11, which did not either
wait_for 5 has '^  syscall-null +[0-9.]+(ns|µs)( ±[^ ]+)? +n/a$' ||
    { screen; fail "g10's figure not shown, alone"; }
echo "ok: run on g10 alone: $(screen | grep '^  syscall-null' | tr -s ' ')"

# the first pmcd stops: its guests go down; the host and the second pmcd's
# guests keep updating (live, not stale, and fetched every second)
tm send-keys -t t Left Left Left Left Left Left Left Left Left
wait_for 5 names_has '^ host \[off\] g1 \[off\] × g2 \[off\] ×$' ||
    { screen; fail "not back at the start"; }
pmcd_stop "$work/a/pmcd"
wait_for 5 bash -c "tmux -L $sock capture-pane -p -t t | grep -qE '^more > +live .* down [0-9]+s .* live '" ||
    { screen; fail "g1 not down next to a live g2"; }
g2=$(fetches g2) host=$(fetches host)
for _ in 1 2 3 4 5; do # five fetches of g2, each waited for
    wait_prompt 3 bash -c "[ \$(grep -c 'parallax: g2: fetch ' '$log') -gt $g2 ]" ||
        fail "g2 not fetched while g1 is down"
    g2=$(fetches g2)
    states | grep -qE '^more > +live .* down .* live ' ||
        { screen; fail "a live column went stale while g1 is down"; }
done
[ "$(fetches host)" -gt $((host + 3)) ] || fail "the host not fetched meanwhile"
tm send-keys -t t Right
wait_for 5 names_has '^< more host \[off\] g2 \[off\] × g3 \[off\] ×$' ||
    { screen; fail "keys do not answer while g1 is down"; }
echo "ok: g1 down, host and g2 kept updating: $(states | tr -s ' ')"

tm send-keys -t t q
wait_for 10 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
echo "all scrolling and toggling checks passed"
