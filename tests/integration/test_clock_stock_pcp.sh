#!/bin/bash
# A guest with only stock PCP (pmcd and its linux agent, no pmdaparallax)
# has clock figures from pmcd's own stamps, as one with the agent does
# (issue 23.4): under faketime "+1d", "-2" and "+0 x1.01" a plain pmcd and
# one with the agent, side by side in one --batch, read offsets and drifts
# that agree with each other within their bounds and with faketime's
# (+86400 s, -2 s, +10000 ppm). What needs the agent says so: the probe,
# CPU billed/wall, system calls and the workloads read "no agent" for the
# plain pmcds (in the text report and the JSON's notes), never for the
# others; a recording of a plain pmcd holds its offset, and its replay
# says "no agent" too.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
pid=
names=(day_plain day_agent back_plain back_agent fast_plain fast_agent)
specs=("+1d" "+1d" "-2" "-2" "+0 x1.01" "+0 x1.01")
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null
      for n in "${names[@]}"; do pmcd_stop "$work/$n/pmcd"; pmcd_stop "$work/$n"; done
      rm -rf "$work"' EXIT
hosts=()
for i in "${!names[@]}"; do
    n=${names[$i]}
    port=$(free_port) || fail "no free port"
    case $n in
    *_plain) pmcd_faked "${specs[$i]}" pmcd_start "$work/$n" "$port" ;;
    *) pmcd_faked "${specs[$i]}" pmcd_start_agent "$work/$n" "$port" ;;
    esac || fail "pmcd $n under faketime ${specs[$i]}"
    hosts+=(-h "$n=localhost:$port")
done

# the runs fail on the plain pmcds (no agent): exit 1, a report all the same
LANG=C "$bin" --batch syscall-null -r 1 "${hosts[@]}" -o "$work/r.txt" \
    2>"$work/err"
rc=$?
[ "$rc" -eq 1 ] || { cat "$work/err"; fail "batch exited $rc, expected 1 (runs failed on the plain pmcds)"; }
sed -n '/^TIME/,/^steal/p' "$work/r.txt"

python3 - "$work/r.json" <<'PY' || fail "JSON: clock figures"
import json, sys
src = {s["name"]: s for s in json.load(open(sys.argv[1]))["sources"]}
truth = {"day": 86400.0, "back": -2.0}
for kind in ("day", "back", "fast"):
    p, a = src[kind + "_plain"], src[kind + "_agent"]
    assert not p["pmda"] and a["pmda"], (p["pmda"], a["pmda"])
    tp, ta = p["time"], a["time"]
    for t, who in ((tp, "plain"), (ta, "agent")):
        assert t["offset_s"] is not None and t["drift_ppm"] is not None, (kind, who, t)
        print(f"{kind} {who}: offset {t['offset_s']:+.4f} +- {t['offset_err_s']:.4f} s, "
              f"drift {t['drift_ppm']:+.0f} +- {t['drift_err_ppm']:.0f} ppm")
    # the same clock, the same figures, within both bounds (the drift's
    # bound of a short batch is wide; 100 ppm of slack for its coarse fit)
    dd = abs(tp["drift_ppm"] - ta["drift_ppm"])
    assert dd <= tp["drift_err_ppm"] + ta["drift_err_ppm"] + 100, (kind, dd)
    want_ppm = 10000 if kind == "fast" else 0
    for t in (tp, ta):
        assert abs(t["drift_ppm"] - want_ppm) <= t["drift_err_ppm"] + max(100, want_ppm / 10), (kind, t)
    if kind in truth:  # faketime x1.01 counts from each pmcd's own start
        do = abs(tp["offset_s"] - ta["offset_s"])
        assert do <= tp["offset_err_s"] + ta["offset_err_s"] + 0.01, (kind, do)
        for t in (tp, ta):
            assert abs(t["offset_s"] - truth[kind]) <= t["offset_err_s"] + 0.05, (kind, t)
    else:
        assert tp["offset_s"] > 0 and ta["offset_s"] > 0, (tp, ta)
    # what needs the agent says so, for the plain pmcd only
    assert tp["note"] == "no agent" and ta["note"] == "", (tp["note"], ta["note"])
    assert tp["probe"] is None or not tp["probe"].get("count"), tp["probe"]
    wp, wa = p["workloads"]["syscall-null"], a["workloads"]["syscall-null"]
    assert wp["state"] == "failed" and "pmdaparallax" in wp["note"], wp
    assert wa["state"] == "done", wa
print("ok: a stock pmcd's offset and drift are its agent twin's and faketime's")
PY

# the text report's TIME rows: "n/a no agent" in the plain pmcds' cells
for row in 'probe 10ms took' 'CPU billed/wall'; do
    line=$(grep -E "^$row " "$work/r.txt") || fail "no $row row"
    n=$(grep -o 'n/a no agent' <<<"$line" | wc -l)
    [ "$n" -eq 3 ] || fail "$row: $n cells say 'n/a no agent', expected 3: $line"
done
echo "ok: the probe and billed/wall rows say 'no agent' for the three plain pmcds"

# --text: the same, and the system call row (counted only when asked)
LANG=C "$bin" --text -n 3 --syscalls "${hosts[@]:0:4}" >"$work/live" \
    2>"$work/err" || { cat "$work/err"; fail "--text exited $?"; }
last() { awk -v RS= 'END { print }' "$1"; }
last "$work/live" | grep -E '^(syscalls|clock offset|probe|CPU billed)'
for row in 'syscalls/s' 'probe 10ms took' 'CPU billed/wall'; do
    n=$(last "$work/live" | grep -E "^$row " | grep -o 'no agent' | wc -l)
    [ "$n" -eq 1 ] || fail "--text $row: $n cells say 'no agent', expected 1 (day_plain)"
done
last "$work/live" | grep -qE '^clock offset +- +!\+1\.000d .* !\+1\.000d ' ||
    fail "--text: offsets of day_plain and day_agent"
echo "ok: --text says 'no agent' where the figure needs it, offsets from pmcd's stamps"

# recorded (this host and the plain +1d pmcd only: a recording of more
# sources can crash in libpcp_import 6.0.3, whose pmiStart moves the
# contexts already written to), then replayed: its archive holds its
# offset and no agent, and its replayed cells say so
LANG=C "$bin" --text -n 4 "${hosts[@]:0:2}" --record "$work/rec" \
    >/dev/null 2>"$work/err" || { cat "$work/err"; fail "--record exited $?"; }
a=$(find "$work/rec/day_plain" -name '*.meta' | sed 's/\.meta$//')
[ -n "$a" ] || fail "no archive of day_plain"
pmval -U "$a" parallax.source.pmda 2>/dev/null | awk '$NF == "0" { z = 1 } END { exit !z }' ||
    fail "the recording does not say day_plain had no agent: $(pmval -U "$a" parallax.source.pmda 2>&1 | tail -2)"
off=$(pmval -U "$a" -f 3 parallax.time.offset 2>/dev/null | awk '$NF ~ /^[0-9.e+-]+$/ { v = $NF } END { print v }')
within "$off" 86399.9 86400.1 || fail "recorded offset of day_plain: '$off'"
LANG=C "$bin" --text -a "$work/rec" >"$work/replay" 2>"$work/err" &
pid=$!
ended() { [ "$(grep -cE '^parallax .* recorded .*, ended$' "$work/replay")" -ge 2 ]; }
wait_for 30 ended || fail "the replay did not end: $(tail -1 "$work/err")"
kill -INT "$pid"
wait "$pid" || fail "-a exited $?: $(cat "$work/err")"
pid=
n=$(last "$work/replay" | grep -E '^probe 10ms took ' | grep -o 'no agent' | wc -l)
[ "$n" -eq 1 ] || fail "replay: $n probe cells say 'no agent', expected 1: $(last "$work/replay" | grep '^probe')"
echo "ok: recorded offset $off s of the plain pmcd, its replay says 'no agent'"
