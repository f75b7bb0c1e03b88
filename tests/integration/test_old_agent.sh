#!/bin/bash
# A guest whose agent predates the stamps and the leases (its namespace
# without parallax.workload.repeat_log, run_start, run_end, the median's
# interval, the probe's sleep stamps, parallax.workload.lease and
# parallax.control.renew, as an older pmdaparallax installs it) still
# works: a batch runs there and gives its figures and a ratio, marked as
# the guest's own word ("reported only", basis "reported"), never as real
# time; its runs start without a lease (an older agent refuses --lease),
# and parallax says so once on stderr (its log), however many runs.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_build

work=$(mktemp -d)
trap 'pmcd_stop "$work/g/pmcd"; rm -rf "$work"' EXIT
port=$(free_port) || fail "no free port"
# the metrics added with the stamps and the leases, by their ids
grep -vE 'PARALLAX:(2:1[3457]|3:[789]|4:[89]|6:5)$' "$here/../pmda/pmns" >"$work/pmns"
[ "$(grep -c PARALLAX: "$work/pmns")" -lt "$(grep -c PARALLAX: "$here/../pmda/pmns")" ] ||
    fail "the old namespace is the new one"
# and their help entries
awk '/^@ / { skip = $2 ~ /\.(run_start|run_end|repeat_log|median_lo|median_hi|median_cover|lease|renew)$|^parallax\.clock\.sleep\.(start|end)$/ }
     !skip' "$here/../pmda/help" >"$work/help"
PMCD_AGENT_PMNS=$work/pmns PMCD_AGENT_HELP=$work/help \
    pmcd_start_agent "$work/g" "$port" ||
    fail "pmcd with the agent under the old namespace"
pminfo -h "localhost:$port" parallax.workload.repeat_log >/dev/null 2>&1 &&
    fail "the old namespace knows repeat_log"

"$bin" --batch syscall-null,syscall-read -r 2 -t 0.3 -h "old=localhost:$port" \
    -o "$work/r.txt" 2>"$work/err" || {
    cat "$work/err"
    fail "batch exited $?"
}
sed -n '/^WORKLOADS/,/^INDEX/p' "$work/r.txt"
grep -qE '^ +old +done +2 +[0-9.]+ +- +[0-9.]+ +reported only$' "$work/r.txt" ||
    fail "the old agent's figure is not marked reported only"
python3 - "$work/r.json" <<'PY' || fail "JSON: basis"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["sources"][1]["workloads"]["syscall-null"]
h = d["sources"][0]["workloads"]["syscall-null"]
assert g["basis"] == "reported" and h["basis"] == "real", (g, h)
assert g["n"] == 2 and g["median"] > 0 and g["ratio"] > 0, g
assert g["clock_rate"] is None and not g["divergent"], g
PY
grep -q 'lease' "$work/g/agent.log" && fail "a run there was started with a lease"
[ "$(grep -c 'old: its pmdaparallax takes no lease (an older agent): a run started there goes on if this parallax is killed' "$work/err")" -eq 1 ] || {
    cat "$work/err"
    fail "parallax did not say once that the older agent takes no lease"
}
echo "ok: an older agent's guest still runs, without a lease (said once), its figures marked as its word"
