#!/bin/bash
# Recording and replay on the real screen in tmux (issue 19): r starts a
# recording (the status row says where, REC stays on it while it runs)
# and stops it (how many records); the help lists the keys; a recording
# replayed with -a is named in the title with its recorded time, each
# recorded column says where it stands, and , pauses, . steps one record,
# ] and [ change the pace, n goes to the next workload run.
set -u
. "$(dirname "$0")/../lib.sh"
use_build

tmux_use parallax-record
state=$(mktemp -d)
trap 'tmux_stop; rm -rf "$state"' EXIT
export XDG_STATE_HOME=$state
rec=$state/parallax/recordings
tmux_shell 120 40

tmux_parallax "$bin -t 1" # a record a second: each step shows another
tm send-keys -t t r
wait_for 5 has "^  REC  recording into $rec \(r stops\)" ||
    { screen; fail "r did not start a recording"; }
meta() { find "$rec/host" -name '*.meta' 2>/dev/null | grep -q .; }
wait_for 5 meta || fail "no archive in $rec/host"
tm send-keys -t t F1
wait_for 5 has '│ r +record every live source' || { screen; fail "help lacks r"; }
for k in ', \. +replay' '\[ \] +replay slower' 'n +replay: to the start'; do
    has "│ $k" || { screen; fail "help does not list /$k/"; }
done
tm send-keys -t t Escape
records() { pmdumplog "$(find "$rec/host" -name '*.meta' | sed 's/\.meta$//')" \
    2>/dev/null | grep -c '(kernel.all.pswitch): value'; }
enough() { [ "$(records)" -ge 4 ]; }
wait_for 10 enough || fail "the recording holds $(records) records"
tm send-keys -t t r
wait_for 5 has "^ recording stopped: [0-9]+ records in [0-9]+ s, in $rec" ||
    { screen; fail "r did not stop the recording"; }
hasnt ' REC ' || { screen; fail "REC stays after the recording stopped"; }
tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "did not quit"; }
echo "ok: r records into $rec and stops, REC while it runs"

tm send-keys -t t "clear" Enter
tmux_parallax "$bin -t 0.5 -a then=$rec"
wait_for 5 has 'recorded then:host at [0-9-]+ [0-9:]+' ||
    { screen; fail "the title does not name the recorded column"; }
wait_for 5 has '(rec|ended) [0-9]{2}:[0-9]{2}:[0-9]{2}' ||
    { screen; fail "the recorded column does not say where it stands"; }
tm send-keys -t t ','
wait_for 5 has '^ replay paused' || { screen; fail ", said nothing"; }
wait_for 5 has 'paused [0-9:]{8}' || { screen; fail ", did not pause the replay"; }
at() { screen | grep -oE 'paused [0-9:]{8}' | head -1; }
was=$(at)
tm send-keys -t t '.'
wait_for 5 has '^ replay: one record on' || { screen; fail ". did not step"; }
moved() { [ "$(at)" != "$was" ] || has 'ended [0-9:]{8}'; }
wait_for 5 moved || { screen; fail ". did not move the replay on ($was)"; }
tm send-keys -t t ']'
wait_for 5 has '^ replay at 2 times the recorded pace' || { screen; fail "] did not speed up"; }
tm send-keys -t t '[' '['
wait_for 5 has '^ replay at 0.5 times the recorded pace' || { screen; fail "[ did not slow down"; }
tm send-keys -t t n
wait_for 5 has '^ replay: to the start of the next workload run' ||
    { screen; fail "n did nothing"; }
tm send-keys -t t q
wait_for 5 has '^EXIT=0$' || { screen; fail "did not quit"; }
echo "ok: -a: title and column say where the replay is; , . ] [ n answer"
echo "all record key checks passed"
