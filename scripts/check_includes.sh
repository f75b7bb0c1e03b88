#!/bin/sh
# The floors hold: every #include of parallax's C sources points to its own
# folder or down, and only the folders that may include a library's headers
# (curses, PCP...) do, directly or through a header of another folder. The
# rules are the floors table of docs/hacking.md (its ```floors and
# ```libraries blocks), read from there so that the page cannot drift from
# what is checked. The compiler cannot hold this: PCP's and curses' headers
# are in /usr/include, found from every folder, so this reads the sources.
# Usage: scripts/check_includes.sh [ROOT] (default: this checkout). Prints
# one line per broken rule (file:line, the include, the rule) and exits 1;
# "includes: ok" and 0 when none is.
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
table=docs/hacking.md
if [ ! -f "$table" ]; then
    echo "includes: no $table in $(pwd): the floors table is there" >&2
    exit 2
fi
# the sources: git's list in a checkout (the build's trees are ignored),
# else every .c and .h below ROOT
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    files=$(git ls-files -co --exclude-standard -- '*.c' '*.h')
else
    files=$(find . -name '*.[ch]' -type f | sed 's|^\./||' | sort)
fi
[ -n "$files" ] || {
    echo "includes: no C sources in $(pwd)" >&2
    exit 2
}

# shellcheck disable=SC2086 # one path a line, no spaces in them
exec awk -v table="$table" '
function fail(msg) { print msg; bad++ }
# the folder a path belongs to: its first component ("" at the top)
function folder(p) { return index(p, "/") ? substr(p, 1, index(p, "/") - 1) : "" }
# the library class of a <header>, "" for the C library and the system
function lib_of(h,    c, i, n, pats, pat) {
    for (c in libpat) {
        n = split(libpat[c], pats, " ")
        for (i = 1; i <= n; i++) {
            pat = pats[i]
            if (pat ~ /\*$/) {
                if (substr(h, 1, length(pat) - 1) == substr(pat, 1, length(pat) - 1))
                    return c
            } else if (h == pat)
                return c
        }
    }
    return ""
}
function may_use(d, c) { return index(" " libs[d] " ", " " c " ") > 0 }
# the folders that may include class c, in the order of the table
function users(c,    k, s) {
    s = ""
    for (k = 1; k <= nfold; k++)
        if (may_use(fold[k], c))
            s = s (s == "" ? "" : ", ") fold[k] "/"
    return s
}

FILENAME == table {
    if ($0 ~ /^```floors[ \t]*$/) { block = "floors"; next }
    if ($0 ~ /^```libraries[ \t]*$/) { block = "libraries"; next }
    if ($0 ~ /^```/) { block = ""; next }
    if (block == "floors" && $1 ~ /^[0-9]+$/) {
        # FLOOR FOLDER... : LIBRARY...
        split($0, half, ":")
        n = split(half[1], w, " ")
        for (i = 2; i <= n; i++) {
            fold[++nfold] = w[i]
            floor[w[i]] = w[1] + 0
            libs[w[i]] = half[2]
        }
        rows++
    } else if (block == "libraries" && NF > 1 && $1 !~ /^#/) {
        libpat[$1] = ""
        for (i = 2; i <= NF; i++)
            libpat[$1] = libpat[$1] " " $i
    }
    next
}

FNR == 1 {
    if (!rows) {
        print "includes: " table " has no floors table (a ```floors block)"
        exit 2
    }
    src[FILENAME] = 1
    d = folder(FILENAME)
    if (!(d in floor))
        fail(FILENAME ": in no floor: add " (d == "" ? "its folder" : d "/") \
             " to the floors table of " table)
}

/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    line = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", line)
    q = substr(line, 1, 1)
    name = substr(line, 2)
    sub(q == "<" ? ">.*" : "\".*", "", name)
    here = FILENAME ":" FNR
    inc = "#include " (q == "<" ? "<" name ">" : "\"" name "\"")
    d = folder(FILENAME)
    if (q == "<") {
        c = lib_of(name)
        if (c == "")
            next
        if (!(FILENAME SUBSEP c in brings))
            brings[FILENAME, c] = "<" name ">"
        if ((d in floor) && !may_use(d, c))
            fail(here ": " inc ": " c " headers only in " users(c) \
                 " (" table ", the floors)")
        next
    }
    # a path from the top of the tree, or beside the including file
    path = index(name, "/") ? name : (d == "" ? "" : d "/") name
    to = folder(path)
    ne++
    e_from[ne] = FILENAME; e_to[ne] = path; e_at[ne] = here; e_inc[ne] = inc
    if (!(d in floor))
        next
    if (!(to in floor)) {
        fail(here ": " inc ": " to "/ is in no floor of " table)
        next
    }
    if (to != d && floor[to] >= floor[d])
        fail(here ": " inc " points " (floor[to] > floor[d] ? "up" : "across") \
             ": " d "/ (floor " floor[d] ") includes only its own folder and " \
             "the floors below; " to "/ is floor " floor[to] " (" table ", the floors)")
}

END {
    if (!rows)
        exit 2
    # what each header brings with it, through the headers it includes
    do {
        changed = 0
        for (i = 1; i <= ne; i++) {
            f = e_from[i]; h = e_to[i]
            if (!(h in src))
                continue
            for (c in libpat)
                if ((h SUBSEP c in brings) && !(f SUBSEP c in brings)) {
                    brings[f, c] = brings[h, c]
                    changed = 1
                }
        }
    } while (changed)
    # reported where it leaves the folders that may use it: the header
    # that includes the library itself is reported on its own
    for (i = 1; i <= ne; i++) {
        f = e_from[i]; h = e_to[i]; d = folder(f); t = folder(h)
        if (!(d in floor) || !(t in floor) || !(h in src))
            continue
        for (c in libpat)
            if ((h SUBSEP c in brings) && may_use(t, c) && !may_use(d, c))
                fail(e_at[i] ": " e_inc[i] ", which brings " brings[h, c] \
                     ": " c " headers only in " users(c) " (" table ", the floors)")
    }
    if (bad) {
        print bad " include" (bad == 1 ? "" : "s") " against the floors"
        exit 1
    }
    print "includes: ok"
}' "$table" $files
