#!/bin/bash
# Two demo guests at once (issue 18): `parallax --demo-guest
# --demo-guest=uml` boots the qemu micro-VM (6.1) and the User-Mode Linux
# guest side by side, follows both boots on the status line, says when
# both are up that they compete for the host's CPUs, shows a column for
# each (demo-tcg or demo-kvm, and demo-uml) with its kernel and scheduler,
# runs syscall-null started by Space on all three sources with a ratio for
# each guest that its figure and the host's give, the host's figure what
# perf bench makes of this machine, shows sched's tasks' shares live while they run (the
# scheduler view), and after q leaves no boot.sh, qemu or linux.uml of
# ours.
# Figures here are taken with two emulated guests and the host competing
# for this machine's CPUs: the host's is checked against the share of the
# CPU its run got.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
use_guest_image

tmux_use parallax-guests -J
work=$(mktemp -d)
trap 'tmux_stop; rm -rf "$work"' EXIT
ours() {
    { pgrep -f "[b]oot.sh --build $gdir"; pgrep -f "[q]emu-system.*$gdir/"
        pgrep -f "[u]ml_dir=$gdir/uml "; } | wc -l
}
before=$(ours)

t0=$SECONDS
tmux_new 200 70 "$bin -t 1 --demo-guest --demo-guest=uml; echo EXIT=\$?; sleep 60"
# the status line follows both boots until both columns answer
both_up() {
    screen >"$work/screen"
    grep -E '^ demo' "$work/screen" >>"$work/status"
    [ "$(grep -cE 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' "$work/screen")" = 0 ] && return 1
    grep -qE 'demo-uml' "$work/screen" && grep -qE 'demo-(tcg|kvm)' "$work/screen" &&
        [ "$(grep -oE 'pcp 127\.0\.0\.1:[0-9]+ \+pmda' "$work/screen" | wc -l)" = 2 ]
}
wait_for 120 both_up || { screen; fail "the two guests' columns did not both answer in 120 s"; }
echo "ok: both columns live in $((SECONDS - t0)) s"
grep -qE 'demo-uml: guest \[[0-9.]+ s\] ' "$work/status" &&
    grep -qE 'demo-(tcg|kvm): guest \[[0-9.]+ s\] ' "$work/status" ||
    { uniq "$work/status"; fail "the status line did not follow both boots"; }
wait_for 10 has 'demo-(tcg|kvm): up \| demo-uml: up|demo-uml: up \| demo-(tcg|kvm): up' ||
    { screen; fail "the status line does not say both guests are up"; }
has '2 guests on [0-9]+ host CPUs: their figures compete' ||
    { screen; fail "the status line does not say the guests compete"; }
# each column's kernel is the one that guest runs: the UML package's and
# the image's (their schedulers and models parallax names from them)
has " $(uml_mm)\.[0-9]+ (CFS|EEVDF) none 1cpu" &&
    has " $(image_mm) (CFS|EEVDF) voluntary 1cpu" ||
    { screen; fail "the columns do not show each guest's kernel and scheduler"; }
echo "ok: $(screen | grep -E '^ demo' | sed 's/ *$//')"
px=$(pane_parallax) || fail "no parallax in the window"
host_null_checked "$px" 3
# sched (the last but two: timer-lat and wakeup-lat follow it): while its
# three tasks run together somewhere, their shares of the work so far, a
# line each
for _ in $(seq 30); do tm send-keys -t t Down; done
tm send-keys -t t Up Up
tm send-keys -t t Space
wait_for 10 has '^> sched ' || { screen; fail "sched did not start"; }
# a guest's share (its jN lasts seconds; the host's a fraction of one):
# a figure right of the host's column
guest_share() {
    has '^─+ task shares' &&
        screen | grep -E '^task 3 share %' | cut -c45- | grep -qE '[0-9]+\.[0-9]'
}
wait_for 90 guest_share || { screen; fail "no live task shares from a guest while sched ran"; }
echo "ok: live shares: $(screen | grep -E '^task [0-9] share %' | sed 's/  */ /g' | tr '\n' '|')"
wait_for 150 workload_figures sched 3 || { screen; fail "sched gave no figures on 3 sources"; }
echo "ok: $(screen | grep -E '^[> ] sched ' | sed 's/  */ /g')"
tm send-keys -t t q
wait_for 30 has '^EXIT=0$' || { screen; fail "q did not exit 0"; }
gone() { [ "$(ours)" -le "$before" ]; }
wait_for 15 gone || fail "after q: $(ours) boot.sh, qemu or linux.uml of ours left"
echo "ok: after q no boot.sh, qemu or linux.uml of ours"
