#!/bin/bash
# The table of bench/stalled.sh, from the raw logs it leaves in DIR (also
# what STALL_KEEP copies, so a figure can be looked into again later):
#   meta      size window_start window_end text_start fetch0 fetch1 cpus
#             load, one NAME=VALUE a line (times in epoch us; fetch0 and
#             fetch1 the live pmcd's fetch count at the window's ends;
#             load the load average at its end)
#   ports     NAME PORT: tui_live tui_stall text_live text_stall probe_stall
#   presses   tmux presses: T_SEND T_SENT T_SEEN POLLS KEY (epoch us)
#   capture   a capture-pane alone, in us, one a line
#   probe     pty presses on parallax: WHEN LATENCY RUN WAIT SELF_WAIT (us)
#   floor     the same on a shell loop that answers at once
#   listener.log  open|close PORT EPOCH of each stalled connection
#   text.log  the --text run's output, each line prefixed with its arrival
#
# Usage: bench/stalled_report.sh DIR
# Exit: 0 the pty latencies met the 50 ms target, 1 they did not, 2 the
# logs are incomplete.
set -euo pipefail

tmp=${1:?usage: bench/stalled_report.sh DIR}
limit_ms=50

die() { echo "stalled_report: $*" >&2; exit 2; }

for f in meta ports presses capture probe floor listener.log text.log; do
    [ -f "$tmp/$f" ] || die "no $f in $tmp"
done
declare -A port=() meta=()
while read -r name value; do port[$name]=$value; done <"$tmp/ports"
while IFS='=' read -r name value; do meta[$name]=$value; done <"$tmp/meta"
for name in size window_start window_end text_start fetch0 fetch1 cpus load; do
    [ -n "${meta[$name]:-}" ] || die "no $name in $tmp/meta"
done

# stats: "n median p90 worst" in ms of the microsecond figures on stdin
# (nearest rank), or "0 - - -".
stats() {
    sort -n | awk '{ v[++n] = $1 / 1000 }
        END { if (!n) { print "0 - - -"; exit }
              m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
              k = int(0.9 * n); if (k < 0.9 * n) k++
              printf "%d %.1f %.1f %.1f\n", n, m, v[k], v[n] }'
}

# hanging PORT FILE: FILE's "WHEN LATENCY" lines as "LATENCY HANGING",
# HANGING 1 when a connection to PORT was open at WHEN.
hanging() {
    awk -v port="$1" '
        FNR == NR { if ($2 == port) {
                        if ($1 == "open") o[++no] = $3 * 1e6
                        else c[++nc] = $3 * 1e6 }
                    next }
        { h = 0
          for (k = 1; k <= no; k++)
              if ($1 >= o[k] && (k > nc || $1 <= c[k])) h = 1
          print $2, h }' "$tmp/listener.log" "$2"
}

# held PORT: the stalled connections of PORT: "COUNT MIN MAX HANGING%"
# (the closed ones' lengths; how much of the window one was open).
held() {
    awk -v port="$1" -v a="${meta[window_start]}" -v b="${meta[window_end]}" '
        $2 == port && $1 == "open" { o[++no] = $3 * 1e6 }
        $2 == port && $1 == "close" { c[++nc] = $3 * 1e6 }
        END { for (k = 1; k <= no; k++) {
                  end = (k <= nc) ? c[k] : b
                  if (k <= nc) { d = (c[k] - o[k]) / 1e6
                      if (!n++ || d < mn) mn = d; if (d > mx) mx = d }
                  s = o[k] > a ? o[k] : a; e = end < b ? end : b
                  if (e > s) busy += e - s }
              printf "%d %.1f %.1f %.0f\n", no, mn, mx, 100 * busy / (b - a) }' \
        "$tmp/listener.log"
}

# The text run's refreshes, one a line: "ARRIVAL LIVE_OK STALLED_STATE"
# (epoch microseconds; LIVE_OK 1 when the live guest's state is live and
# its CPU user % is a figure). The state line is two lines below a
# refresh's header; the live guest's state starts where its name does in
# the line between, the stalled guest's is the next state word after it.
text_refreshes() {
    awk '
        function flush() { if (n) print at, (state == "live" && fig), sst }
        { t = $1; sub(/^[^ ]+ /, "") }
        /^parallax .* - interval / { flush(); n++; at = t; row = 0
                                     state = sst = "?"; fig = 0; next }
        n { row++ }
        row == 1 { col = index($0, " live ") + 1 }
        row == 2 { k = split(substr($0, col), w, " "); state = w[1]
                   for (i = 2; i <= k; i++)
                       if (w[i] ~ /^(connecting|live|stale|down)$/) {
                           sst = w[i]; break } }
        row > 2 && /^CPU user %/ { fig = ($6 ~ /^[0-9.]+[kKMG]?$/) }
        END { flush() }' "$tmp/text.log" | sed 's/\.//'
}

# verdict "N MEDIAN P90 WORST": PASS or MISS against the target.
verdict() {
    awk -v w="${1##* }" -v l="$limit_ms" \
        'BEGIN { print (w != "-" && w + 0 < l + 0) ? "PASS" : "MISS" }'
}

# line LABEL "N MEDIAN P90 WORST" [NOTE]: one row of the latency table.
line() {
    local n m p w
    read -r n m p w <<<"$2"
    printf '%-30s %4s %7s %7s %7s  %s\n' "$1" "$n" "$m" "$p" "$w" "${3:-}"
}

report() {
    local pty tmux_all v_pty v_tmux
    # scratch files go next to the logs (the directory is the caller's)
    awk '{ print $1, $3 - $1 }' "$tmp/presses" >"$tmp/tmux"
    hanging "${port[probe_stall]}" "$tmp/probe" >"$tmp/probe.h"
    hanging "${port[tui_stall]}" "$tmp/tmux" >"$tmp/tmux.h"
    pty=$(awk '{ print $1 }' "$tmp/probe.h" | stats)
    tmux_all=$(awk '{ print $1 }' "$tmp/tmux.h" | stats)
    v_pty=$(verdict "$pty") v_tmux=$(verdict "$tmux_all")
    local window_s tui_f n_ref gaps live_ok states nc mn mx busy first want
    window_s=$(((meta[window_end] - meta[window_start] + 500000) / 1000000))
    tui_f=$((meta[fetch1] - meta[fetch0] - 1)) # less the second probe's own fetch
    read -r nc mn mx busy <<<"$(held "${port[tui_stall]}")"
    text_refreshes >"$tmp/refreshes"
    n_ref=$(wc -l <"$tmp/refreshes")
    # the first refresh waits for every guest's first answer (or failure)
    first=$(awk 'NR == 1 { print $1 }' "$tmp/refreshes")
    want=$(awk -v f="${first:-0}" -v e="${meta[window_end]}" -v s="${meta[text_start]}" \
        'BEGIN { if (f) printf "%d %.1f", (e - f) / 1e6 + 1, (f - s) / 1e6
                 else print 0, "-" }')
    gaps=$(awk 'NR > 1 { print ($1 - prev) / 1000 } { prev = $1 }' \
        "$tmp/refreshes" | sort -n | awk '{ v[++n] = $1 } END {
            if (n) printf "%.0f..%.0f, median %.0f", v[1], v[n], v[int((n + 1) / 2)] }')
    live_ok=$(awk '{ s += $2 } END { print s + 0 }' "$tmp/refreshes")
    states=$(awk '{ c[$3]++ } END { for (k in c) printf "%s%s x%d", \
        (n++ ? ", " : ""), k, c[k] }' "$tmp/refreshes")
    printf '\n4. A stalled guest  %s  window %s s  %s CPUs  load %s\n' \
        "$(date -d "@$((meta[window_start] / 1000000))" '+%F %T')" \
        "$window_s" "${meta[cpus]}" "${meta[load]}"
    printf '%s\n' "parallax -t 1 -h live=<pmcd> -h stalled=<listener that never answers>," \
        "${meta[size]}; g opens the add-guest prompt, ^G closes it (tmux times both)" ""
    line "key-to-redraw ms" "n median p90 worst" "target < $limit_ms"
    line "at its pty (keyprobe.py)" "$pty" "$v_pty"
    line "  stalled guest hanging" "$(awk '$2 { print $1 }' "$tmp/probe.h" | stats)"
    line "  stalled guest between" "$(awk '!$2 { print $1 }' "$tmp/probe.h" | stats)"
    line "  less its waits for a CPU" \
        "$(awk '{ d = $2 - $4 - $5; print (d > 0 ? d : 0) }' "$tmp/probe" | stats)"
    line "  floor: a shell loop's" "$(awk '{ print $2 }' "$tmp/floor" | stats)"
    line "in tmux, send-keys..capture" "$tmux_all" "$v_tmux (info)"
    line "  stalled guest hanging" "$(awk '$2 { print $1 }' "$tmp/tmux.h" | stats)"
    line "  stalled guest between" "$(awk '!$2 { print $1 }' "$tmp/tmux.h" | stats)"
    line "  from send-keys' return" "$(awk '{ print $3 - $2 }' "$tmp/presses" | stats)"
    line "tmux send-keys alone" "$(awk '{ print $2 - $1 }' "$tmp/presses" | stats)"
    line "tmux capture-pane alone" "$(stats <"$tmp/capture")"
    sort -n -k2 "$tmp/probe" | tail -n 1 | awk '{ printf "%s%.1f %s %.1f %s %.1f %s %.1f %s\n",
        "\nworst at the pty: ", $2 / 1000, "ms, in which parallax ran",
        $3 / 1000, "ms and waited", $4 / 1000, "ms for a CPU,\n  the probe waited",
        $5 / 1000, "ms for one" }'
    printf '\nstalled guest (tmux run): %s connections, closed ones held %s..%s s,\n' \
        "$nc" "$mn" "$mx"
    printf '  one open (its sampler hanging) %s%% of the window\n\n' "$busy"
    printf '%-30s %6s %8s  %s\n' "live guest" got expected result
    printf '%-30s %6s %8s  %s\n' "TUI fetches at its pmcd" "$tui_f" \
        "$window_s" "$(awk -v f="$tui_f" -v w="$window_s" \
            'BEGIN { print (f >= w - 1) ? "kept" : "LATE" }')"
    printf '%-30s %6s %8s  %s\n' "--text refreshes" "$n_ref" \
        "~${want% *}" "gaps ${gaps:-none} ms, the first ${want#* } s in"
    printf '%-30s %6s %8s  %s\n' "  live column live, figures" "$live_ok" \
        "$n_ref" "$([ "$live_ok" = "$n_ref" ] && echo kept || echo LATE)"
    printf '%-30s %s\n' "  stalled column states" "${states:-none}"
    result=$v_pty
}

report
[ "$result" = PASS ] || exit 1
