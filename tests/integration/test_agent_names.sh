#!/bin/bash
# One table of the agent's metrics (core/agent_metrics.h), held to a real
# agent (issue 25): pmdaparallax under a private pmcd lists exactly the
# table's names, each with the table's type, semantics and units; every
# name the host's client (collectors/pmda_jobs.c) and the fleet's
# (fleet/pmapi_source.c) fetch is one it lists; and every row of a
# recording (core/record_table.h) named as an agent's metric has the
# agent's descriptor, so that a replay reads it as it reads the agent.
# The names come from the code itself (tests/integration/agent_names.c).
set -u
export LC_ALL=C # one order for sort and comm
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/pmcd.sh"
use_agent "${1:-}"
names=$build/tests/integration/agent_names
[ -x "$names" ] || fail "no $names; run make build"

work=$(mktemp -d)
cleanup() {
    pmcd_stop "$work/pmcd"
    rm -rf "$work"
}
trap cleanup EXIT

port=$(free_port) || fail "no free port"
h=localhost:$port
pmcd_start_agent "$work" "$port" || {
    cat "$work/pmcd/pmcd.log" "$work/agent.log"
    fail "pmcd with pmdaparallax did not answer on $port"
}
"$names" >"$work/used" || fail "$names failed"

# what the agent says: NAME|type|semantics|units, one a line
pminfo -h "$h" -d parallax >"$work/desc" 2>&1 || fail "pminfo -d: $(head -3 "$work/desc")"
awk '/^parallax\./ { name = $1 }
     /Data Type:/ { sub(/^ *Data Type: /, ""); sub(/  InDom:.*/, ""); type = $0 }
     /Semantics:/ { sem = $2; sub(/^.*Units: /, ""); print name "|" type "|" sem "|" $0 }' \
    "$work/desc" | sort >"$work/agent"
pminfo -h "$h" parallax | sort >"$work/listed"
[ -s "$work/listed" ] || fail "the agent lists no metrics"

# the table: exactly the agent's names, with its descriptors
awk '$1 == "agent" { sub(/^[^ ]* /, ""); print }' "$work/used" | sort >"$work/table"
cut -d'|' -f1 "$work/table" | sort >"$work/table_names"
if ! diff -u "$work/listed" "$work/table_names" >"$work/diff"; then
    cat "$work/diff"
    fail "the agent's names (-) and core/agent_metrics.h's (+) differ"
fi
bad=$(comm -13 "$work/agent" "$work/table")
[ -z "$bad" ] || fail "descriptors the agent does not give (table's):
$bad
the agent's: $(grep -F "$(echo "$bad" | head -1 | cut -d'|' -f1)|" "$work/agent")"
echo "ok: the agent lists the table's $(wc -l <"$work/table") metrics, each as the table describes it"

# each user's names: all the agent's
for user in pmda_jobs pmapi; do
    awk -v u="$user" '$1 == u { print $2 }' "$work/used" | sort -u >"$work/$user"
    [ -s "$work/$user" ] || fail "$user uses no name of the agent's?"
    missing=$(comm -23 "$work/$user" "$work/listed")
    [ -z "$missing" ] || fail "$user fetches names the agent does not have: $missing"
    echo "ok: $user's $(wc -l <"$work/$user") names are all the agent's"
done

# the recording's rows of agent names: the agent's descriptors
awk '$1 == "record" { sub(/^[^ ]* /, ""); print }' "$work/used" | sort -u >"$work/record"
[ "$(wc -l <"$work/record")" -ge 20 ] || fail "fewer recorded rows of agent names than expected: $(wc -l <"$work/record")"
bad=$(comm -13 "$work/agent" "$work/record")
[ -z "$bad" ] || fail "recorded rows that an agent's metric names, described otherwise than the agent does:
$bad"
echo "ok: the recording's $(wc -l <"$work/record") rows of agent names are described as the agent describes them"
echo "all agent-name checks passed"
