#!/bin/bash
# Restarts pmproxy when its key-value server comes back as a new server.
# pmproxy 6.0.3 writes a source's metadata (names, descriptors, labels)
# to the key-value server once, when it first reads the source's archive,
# and afterwards only values; when it reconnects to a restarted server it
# does not discover again (pmproxy's redis.c: "Redis was already connected
# before"). So a key-value server restarted empty gets the fleet's values
# but no query finds them, until pmproxy restarts and reads every archive
# again (docs/fleet.md, "When the key-value server restarts"; issue 24).
#
# Usage: fleet/kv_watch.sh HOST:PORT COMMAND...
#   runs COMMAND (say `systemctl restart pmproxy`; fleet/farm.sh kills its
#   pmproxy, which its watchdog then starts again) each time the run_id of
#   the redis-server at HOST:PORT changes (every restart gives a new one),
#   checked every KV_WATCH_EVERY (1) s; until killed. A server that needs
#   a password: REDISCLI_AUTH in the environment (redis-cli's).
set -u
[ $# -ge 2 ] || { echo "usage: fleet/kv_watch.sh HOST:PORT COMMAND..." >&2; exit 2; }
addr=$1
shift
host=${addr%:*} port=${addr##*:}
command -v redis-cli >/dev/null || { echo "kv_watch: no redis-cli" >&2; exit 2; }

# run_id: the server's, or nothing while it does not answer (a stopped
# server would hold redis-cli forever: 2 s at most)
run_id() {
    timeout 2 redis-cli -h "$host" -p "$port" info server 2>/dev/null |
        sed -n 's/^run_id:\([0-9a-f]*\).*/\1/p'
}

# (a server down when this starts: pmproxy's first connection to it
# discovers the archives then, no restart needed)
known=$(run_id)
while sleep "${KV_WATCH_EVERY:-1}"; do
    now=$(run_id)
    [ -n "$now" ] || continue # down: the next one that answers is news
    if [ -n "$known" ] && [ "$now" != "$known" ]; then
        echo "$(date '+%F %T') the key-value server at $addr restarted" \
            "(run_id ${known:0:8} -> ${now:0:8}): $*"
        "$@" || echo "$(date '+%F %T') kv_watch: '$*' failed ($?)"
    fi
    known=$now
done
