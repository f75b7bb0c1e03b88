#!/usr/bin/python3
"""Writes a real PCP archive and its mutations as inputs of fuzz/fuzz_archive.c
(issue 24): the corpus make check reads every input of once
(tests/integration/test_archive_fuzz.sh) and make fuzz starts from.

    archive_mutations.py ARCHIVE_BASE OUT_DIR

ARCHIVE_BASE is a version 2 or 3 archive of one volume (NAME.meta, NAME.0,
NAME.index), a fresh recording so that the corpus follows what parallax
and libpcp write today; nothing binary is kept in the tree. The inputs:
the archive whole; each file cut at every record's end and 1-3 bytes
either side of it; bytes changed in the fields PCP reads a record by
(lengths, types, labels, a descriptor's name count and name lengths, an
instance domain's counts, a result's counts and formats, a value's type,
the index's times and offsets), among them byte 165 of the metadata set to 0x50 (the
first descriptor's name 5 MB long: libpcp's stack overflowed); each file
left out. Prints how many of each kind it wrote."""
import os
import struct
import sys

base, out = sys.argv[1], sys.argv[2]
files = {k: open(base + "." + e, "rb").read()
         for k, e in (("m", "meta"), ("i", "index"), ("0", "0"))}
be32 = lambda b, o: struct.unpack(">I", b[o:o + 4])[0]
version = be32(files["m"], 4) & 0xff
label = be32(files["m"], 0)
os.makedirs(out, exist_ok=True)
counts, written = {}, set()


def write(kind, name, parts):
    if name in written:  # the same change reached another way
        return
    written.add(name)
    blob = b"".join(k.encode() + struct.pack(">I", len(v)) + v
                    for k, v in parts.items() if v is not None)
    with open(os.path.join(out, name), "wb") as f:
        f.write(blob)
    counts[kind] = counts.get(kind, 0) + 1


def with_file(k, data):
    parts = dict(files)
    parts[k] = data
    return parts


def records(k):
    """(offset, length) of each record of file k after its label."""
    b, off, recs = files[k], label, []
    if k == "i":
        size = 20 if version == 2 else 32
        return [(o, size) for o in range(label, len(b), size)]
    while off + 4 <= len(b):
        n = be32(b, off)
        if n < 8 or off + n > len(b):
            break
        recs.append((off, n))
        off += n
    return recs


def changed(k, at, value):
    b = bytearray(files[k])
    if at + len(value) <= len(b):
        b[at:at + len(value)] = value
    return bytes(b)


write("whole", "whole", files)
for k in files:
    write("without", "without-" + k, with_file(k, None))

# cuts at every record's end, and 1-3 bytes either side
for k in files:
    rec = records(k)
    if len(rec) > 40:  # the metadata's first and last, and every tenth
        rec = rec[:20] + rec[20:-20:10] + rec[-20:]
    ends = {0, label, len(files[k])} | {o + n for o, n in rec}
    cuts = {e + d for e in ends for d in range(-3, 4)}
    for c in sorted(c for c in cuts if 0 <= c < len(files[k])):
        write("cut", "cut-%s-%d" % (k, c), with_file(k, files[k][:c]))

# the fields PCP reads a record by: (offset in the record, size)
ts = 8 if version == 2 else 12
meta_fields = {
    1: [(8, 4), (12, 4), (16, 4), (20, 4), (24, 4), (28, 4), (32, 4)],
    2: [(8 + ts, 4), (12 + ts, 4), (16 + ts, 4), (20 + ts, 4)],
    3: [(8 + ts, 4), (12 + ts, 4), (16 + ts, 4), (20 + ts, 4), (24 + ts, 4),
        (28 + ts, 4), (32 + ts, 4), (36 + ts, 4)],
    4: [(8, 4), (12, 4)],
}
meta_fields[5] = meta_fields[6] = meta_fields[2]
meta_fields[7] = meta_fields[3]
data_fields = [(4 + ts, 4), (8 + ts, 4), (12 + ts, 4), (16 + ts, 4),
               (20 + ts, 4), (24 + ts, 4), (4, 4)]
index_fields = ([(0, 4), (4, 4), (8, 4), (12, 4), (16, 4)] if version == 2
                else [(0, 4), (8, 4), (12, 4), (20, 4), (28, 4)])
values = [b"\x50", b"\xff"]


def flips(k, rec, fields):
    for o, size in sorted(set(rec)):
        typ = be32(files[k], o + 4) if k == "m" else None
        own = fields(typ)
        # the record's length before and after it, and its own fields
        for fo, fs in [(0, 4), (size - 4, 4)] + own:
            if fo + fs > size:
                continue
            for byte in (0, fs - 1):  # a field's top and bottom
                for v in values:
                    at = o + fo + byte
                    write("byte", "byte-%s-%d-%02x" % (k, at, v[0]),
                          with_file(k, changed(k, at, v)))


# the label of each file: its length, magic, volume
for k in files:
    for at in (0, 3, 4, 7, 20 if version == 2 else 24, label - 1):
        for v in values:
            write("label", "label-%s-%d-%02x" % (k, at, v[0]),
                  with_file(k, changed(k, at, v)))
meta_recs = records("m")
flips("m", meta_recs[:8] + meta_recs[-4:], lambda t: meta_fields.get(t, []))
data_recs = records("0")
flips("0", data_recs[:4] + data_recs[-2:], lambda t: data_fields)
index_recs = records("i")
for o, size in index_recs:
    for fo, fs in index_fields:
        for byte in (0, fs - 1):
            for v in values:
                at = o + fo + byte
                write("index", "index-%d-%02x" % (at, v[0]),
                      with_file("i", changed("i", at, v)))
# a value's type in a result: the first double (type 5, 12 bytes) of the
# first records said to be an event record (9; libpcp's decoder then
# crashes: pmdumplog too), a high-resolution one (10), a string (6)
for o, size in data_recs[:4]:
    at = files["0"].find(b"\x05\x00\x00\x0c", o, o + size)
    for v in (b"\x09", b"\x0a", b"\x06") if at > 0 else ():
        write("vtype", "vtype-%d-%02x" % (at, v[0]),
              with_file("0", changed("0", at, v)))
# the one the issue names
write("byte", "meta-165-50", with_file("m", changed("m", 165, b"\x50")))
print(" ".join("%s %d" % kv for kv in sorted(counts.items())),
      "total", sum(counts.values()))
