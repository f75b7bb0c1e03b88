#!/bin/bash
# Clock rows read at a glance, in --text (issue 17: "clock rows people can
# read at a glance"; issue 16.14, 16.16). Four pmcds under faketime: 5 s
# ahead, a day ahead, a clock 1000 ppm fast and one 1% fast. Each offset is
# in the unit that fits (+5.0s, +1.000d: a day once read +8640000, a digit
# lost, and 5 s was glued to the cell before it), each drift in ppm up to
# 1% and as the clock's rate beyond; offsets beyond 1 s and drifts beyond
# 500 ppm carry the fault marker (no colour here), and the drift's x
# column holds the clock's rate. --text is as wide as COLUMNS says (it was
# 80 columns whatever COLUMNS said) and cuts no cell at 200 columns.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build
command -v faketime >/dev/null || fail "no faketime; run make deps"

work=$(mktemp -d)
names=(five day kppm pct)
fakes=("+5" "+1d" "+0 x1.001" "+0 x1.01")
cleanup() {
    for n in "${names[@]}"; do pmcd_stop "$work/$n"; done
    rm -rf "$work"
}
trap cleanup EXIT
guests=()
for i in "${!names[@]}"; do
    port=$(free_port) || fail "no free port"
    PMCD_WRAP=(faketime -f "${fakes[$i]}")
    pmcd_start "$work/${names[$i]}" "$port" ||
        fail "pmcd under faketime '${fakes[$i]}'"
    PMCD_WRAP=()
    guests+=(-h "${names[$i]}=localhost:$port")
done
echo "ok: pmcds under faketime ${fakes[*]}"

out=$work/wide.txt
COLUMNS=200 LANG=C.UTF-8 "$bin" --text -t 0.5 -n 30 "${guests[@]}" >"$out" ||
    fail "--text exited $?"
last() { grep -E "^$1" "$out" | tail -1; }
echo "$(last 'clock offset')"
echo "$(last 'clock drift')"
# a row's cells after its label: host figure, then per guest its figure,
# its detail and its ratio; the fields as words
read -r -a off <<<"$(last 'clock offset' | cut -c17-)"
read -r -a dri <<<"$(last 'clock drift' | cut -c17-)"
# offsets: host -, then five (fig, ±, ratio), day, kppm, pct
[ "${off[0]}" = - ] || fail "the host has an offset: ${off[0]}"
[[ ${off[1]} =~ ^!\+5\.0[0-9]+s$ ]] || fail "5 s ahead read '${off[1]}'"
[[ ${off[4]} =~ ^!\+1\.000d$ ]] || fail "a day ahead read '${off[4]}'"
[[ ${off[7]} =~ ^\+[0-9.]+(µs|ms)$ ]] || fail "kppm's offset '${off[7]}'"
[[ ${off[10]} =~ ^\+[0-9.]+(ms|s)$ ]] || fail "pct's offset '${off[10]}'"
for i in 3 6 9 12; do
    [ "${off[$i]}" = - ] || fail "an offset's ratio column holds '${off[$i]}'"
done
echo "ok: offsets ${off[1]} ${off[4]} ${off[7]} ${off[10]}"
# drifts: five and day run at the host's rate; kppm +1000 ppm, pct 1%
[[ ${dri[1]} =~ ^[+-][0-9]+$ ]] || fail "five's drift '${dri[1]}'"
[[ ${dri[7]} =~ ^!\+(9[0-9]{2}|1[01][0-9]{2})$ ]] ||
    fail "1000 ppm read '${dri[7]}', not within 10%"
[[ ${dri[10]} =~ ^!(×1\.0[01][0-9]{2}|\+(9[0-9]{3}|1[01][0-9]{3}))$ ]] ||
    fail "1% read '${dri[10]}'"
[[ ${dri[9]} =~ ^1\.00(09|10|11)$ ]] || fail "kppm's rate column '${dri[9]}'"
[[ ${dri[12]} =~ ^1\.0(099|100|101)$ ]] || fail "pct's rate column '${dri[12]}'"
echo "ok: drifts ${dri[7]} (rate ${dri[9]}), ${dri[10]} (rate ${dri[12]})"

# as wide as COLUMNS, and nothing cut at that width
width=$(wc -L <"$out")
[ "$width" -le 200 ] && [ "$width" -gt 150 ] ||
    fail "--text with COLUMNS=200 is $width wide"
if grep -v '^#' "$out" | grep -q '…'; then # the legend names it
    grep -v '^#' "$out" | grep '…'
    fail "a cell cut at 200 columns"
fi
COLUMNS=80 "$bin" --text -t 0.5 -n 1 "${guests[@]:0:2}" >"$work/narrow.txt" ||
    fail "--text exited $?"
[ "$(wc -L <"$work/narrow.txt")" -le 80 ] || fail "two sources wider than 80"
echo "ok: --text is $width wide at COLUMNS=200, $(wc -L <"$work/narrow.txt") at 80"
