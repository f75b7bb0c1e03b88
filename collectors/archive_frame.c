/* See archive_frame.h. The formats are PCP's (libpcp's e_loglabel.c,
 * e_index.c, logmeta.c): every file opens with a label record, every
 * record of the metadata and the volumes is its length (big-endian, the
 * record whole), its body and its length again; the temporal index is a
 * label, then fixed entries (a timestamp, a volume, an offset into the
 * metadata and one into that volume). PCP reads a record cut short at a
 * file's end as the file's end, so a copy cut short would pass for
 * whole; PCP writes each record with one unbuffered write (pmlogger, as
 * libpcp_import), so even an archive being written ends whole. Files are
 * read through a buffer: a day's volume holds 86,400 records. */
#include "collectors/archive_frame.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pcp/pmapi.h>

#include "base/file_kind.h"

#define BUF_SIZE     65536
#define NAME_LEN_MAX 4095 /* libpcp reads a metric's name into 4096 bytes */
/* the label records of version 2 and 3 files, length and trailer too */
#define V2_LABEL_LEN (8 + 20 + PM_LOG_MAXHOSTLEN + PM_TZ_MAXLEN)
#define V3_LABEL_LEN                                                           \
    (8 + 32 + PM_MAX_HOSTNAMELEN + PM_MAX_TIMEZONELEN + PM_MAX_ZONEINFOLEN)
#define TYPE_MAX     7 /* of a metadata record (libpcp.h TYPE_*) */
#define T_DESC       1
#define T_INDOM_V2   2
#define T_TEXT       4
#define T_INDOM      5
#define T_INDOM_DELT 6

struct rd {
    const char *path;
    int fd;
    off_t size;
    off_t at; /* what buf holds: [at, at + len) */
    size_t len;
    unsigned char buf[BUF_SIZE];
};

/* An entry of the temporal index; times in ns. */
struct ti {
    int64_t t;
    int vol;
    int64_t meta, data;
};

/* One archive (a stem) as its files are walked. */
struct walk {
    char dir[4096];
    const char *stem;
    int version;   /* 2 or 3, from the first label read */
    int label_len; /* the same in every file */
    int64_t last_t;
    struct ti *ti;
    int nti;
    int cur; /* the index entry to meet next */
    char *err;
    size_t errlen;
};

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static int32_t sbe32(const unsigned char *p)
{
    return (int32_t)be32(p);
}

static int64_t sbe64(const unsigned char *p)
{
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

/* A version 3 timestamp's seconds: libpcp's __pmPutTimestamp swaps the
 * 64 bits, then writes the upper half of the result first, so that on
 * the little-endian machines that write archives the low word comes
 * first. */
static int64_t sec64(const unsigned char *p)
{
    return (int64_t)((uint64_t)be32(p + 4) << 32 | be32(p));
}

/* n bytes at off into dst: 0, or -1 when the file ends before. */
static int rd_get(struct rd *r, off_t off, void *dst, size_t n)
{
    if (off < 0 || (off_t)n > r->size || off > r->size - (off_t)n)
        return -1;
    if (n > BUF_SIZE)
        return pread(r->fd, dst, n, off) == (ssize_t)n ? 0 : -1;
    if (off < r->at || off + (off_t)n > r->at + (off_t)r->len) {
        ssize_t got = pread(r->fd, r->buf, BUF_SIZE, off);
        if (got < (ssize_t)n)
            return -1;
        r->at = off;
        r->len = (size_t)got;
    }
    memcpy(dst, r->buf + (off - r->at), n);
    return 0;
}

/* Opens path for reading if it is a regular file: looked at before it is
 * opened (opening a device can do something), opened without blocking (a
 * FIFO put there meanwhile) and looked at again. The fd, or -1 with err. */
static int open_regular(const char *path, off_t *size, char *err, size_t errlen)
{
    struct stat st;
    int fd = -1;
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode)) {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0)
        snprintf(err, errlen,
                 "%s: %s, not a regular file: an archive is read from regular "
                 "files only",
                 path, file_kind(st.st_mode));
    *size = st.st_size;
    return fd;
}

/* --- labels --- */

/* The label of r, which names volume vol. 0, or -1 with err. */
static int check_label(struct walk *w, struct rd *r, int vol)
{
    unsigned char h[32];
    if (r->size == 0) {
        snprintf(w->err, w->errlen, "%s: empty: not a PCP archive file",
                 r->path);
        return -1;
    }
    if (rd_get(r, 0, h, sizeof(h)) < 0) {
        snprintf(w->err, w->errlen,
                 "%s: truncated: %lld bytes, shorter than a label "
                 "(a copy cut short?)",
                 r->path, (long long)r->size);
        return -1;
    }
    uint32_t len = be32(h), magic = be32(h + 4);
    int version = (int)(magic & 0xff);
    if ((magic & 0xffffff00) != PM_LOG_MAGIC ||
        (version != PM_LOG_VERS02 && version != PM_LOG_VERS03)) {
        snprintf(w->err, w->errlen,
                 "%s: not a PCP archive file (no PCP label at its start)",
                 r->path);
        return -1;
    }
    unsigned char tail[4];
    if ((version == PM_LOG_VERS02 && len != V2_LABEL_LEN) ||
        (version == PM_LOG_VERS03 && len != V3_LABEL_LEN) ||
        (off_t)len > r->size || rd_get(r, len - 4, tail, 4) < 0 ||
        be32(tail) != len) {
        snprintf(w->err, w->errlen,
                 "%s: corrupt: its label record is not framed (length %u)",
                 r->path, len);
        return -1;
    }
    if (w->version && (version != w->version || (int)len != w->label_len)) {
        snprintf(w->err, w->errlen,
                 "%s: its label is of PCP archive version %d, the "
                 "archive's other files' of %d: files of two archives",
                 r->path, version, w->version);
        return -1;
    }
    w->version = version;
    w->label_len = (int)len;
    int said = sbe32(h + (version == PM_LOG_VERS02 ? 20 : 24));
    if (said != vol) {
        snprintf(w->err, w->errlen,
                 "%s: corrupt: its label names it %s %d, not %s", r->path,
                 said < 0 ? "part" : "volume", said,
                 vol == PM_LOG_VOL_META ? "the metadata (-1)"
                 : vol == PM_LOG_VOL_TI ? "the index (-2)"
                                        : "by its name");
        return -1;
    }
    return 0;
}

/* --- the temporal index --- */

static int read_index(struct walk *w, struct rd *r)
{
    if (check_label(w, r, PM_LOG_VOL_TI) < 0)
        return -1;
    int size = w->version == PM_LOG_VERS02 ? 20 : 32;
    off_t body = r->size - w->label_len;
    if (body % size) {
        snprintf(w->err, w->errlen,
                 "%s: truncated: its last entry is cut short at byte %lld "
                 "of %lld (a copy cut short?)",
                 r->path, (long long)(r->size - body % size),
                 (long long)r->size);
        return -1;
    }
    w->nti = (int)(body / size);
    w->ti = calloc((size_t)w->nti + 1, sizeof(*w->ti));
    if (!w->ti) {
        snprintf(w->err, w->errlen, "out of memory");
        return -1;
    }
    for (int k = 0; k < w->nti; k++) {
        unsigned char e[32];
        struct ti *t = &w->ti[k];
        if (rd_get(r, w->label_len + (off_t)k * size, e, (size_t)size) < 0) {
            snprintf(w->err, w->errlen, "%s: %s", r->path, strerror(EIO));
            return -1;
        }
        if (size == 20) {
            t->t =
                (int64_t)sbe32(e) * 1000000000 + (int64_t)sbe32(e + 4) * 1000;
            t->vol = sbe32(e + 8);
            t->meta = sbe32(e + 12);
            t->data = sbe32(e + 16);
        } else {
            t->t = sec64(e) * 1000000000 + sbe32(e + 8);
            t->vol = sbe32(e + 12);
            t->meta = sbe64(e + 16);
            t->data = sbe64(e + 24);
        }
        const struct ti *p = k ? &w->ti[k - 1] : NULL;
        if (t->vol < 0 || t->meta < w->label_len || t->data < w->label_len ||
            (p && (t->t < p->t || t->vol < p->vol || t->meta < p->meta ||
                   (t->vol == p->vol && t->data < p->data)))) {
            snprintf(w->err, w->errlen,
                     "%s: corrupt: entry %d goes back in time or in the "
                     "files (a damaged index: PCP reads the archive without "
                     "it, remove it)",
                     r->path, k + 1);
            return -1;
        }
    }
    return 0;
}

/* The index entries that point into a file meet its records: each at a
 * record's start or at the file's end. field: 0 the metadata, 1 the
 * volume vol. `at` is a record's start (-1: the file's end), t its time
 * (a volume's). */
static int meet(struct walk *w, const char *path, int field, int vol, off_t at,
                int64_t t, off_t size)
{
    for (; w->cur < w->nti; w->cur++) {
        const struct ti *e = &w->ti[w->cur];
        int64_t off = field ? e->data : e->meta;
        if (field && e->vol != vol)
            return 0; /* another volume's, met when it is walked */
        if (at >= 0 && off > at)
            return 0;
        if (at < 0 && off > size) {
            snprintf(w->err, w->errlen,
                     "%s.index: corrupt: entry %d points past the end of %s "
                     "(byte %lld of %lld; a damaged index: PCP reads the "
                     "archive without it, remove it)",
                     w->stem, w->cur + 1, path, (long long)off,
                     (long long)size);
            return -1;
        }
        if ((at >= 0 && off < at) || (at < 0 && off < size)) {
            snprintf(w->err, w->errlen,
                     "%s.index: corrupt: entry %d points into a record of %s "
                     "(byte %lld; a damaged index: PCP reads the archive "
                     "without it, remove it)",
                     w->stem, w->cur + 1, path, (long long)off);
            return -1;
        }
        /* between the records before and after where it points (at the
         * end: the last record's time; one after it fails PCP's seeks) */
        bool late =
            at >= 0 ? e->t > t : w->last_t != INT64_MIN && e->t > w->last_t;
        bool early = w->last_t != INT64_MIN && e->t < w->last_t;
        if (field && (late || early)) {
            snprintf(w->err, w->errlen,
                     "%s.index: corrupt: entry %d is stamped %s %s in %s "
                     "(a damaged index: PCP reads the archive without it, "
                     "remove it)",
                     w->stem, w->cur + 1, late ? "after" : "before",
                     at < 0 ? "the last record"
                     : late ? "the record it points to"
                            : "the record before it",
                     path);
            return -1;
        }
    }
    return 0;
}

/* --- records --- */

static int cut_short(struct walk *w, struct rd *r, off_t off)
{
    snprintf(w->err, w->errlen,
             "%s: truncated: its last record is cut short at byte %lld of "
             "%lld (a copy cut short?)",
             r->path, (long long)off, (long long)r->size);
    return -1;
}

static int bad_record(struct walk *w, struct rd *r, off_t off, const char *why)
{
    snprintf(w->err, w->errlen, "%s: corrupt: the record at byte %lld %s",
             r->path, (long long)off, why);
    return -1;
}

/* The record at off: its length, framed. 0, or -1 with err. */
static int frame(struct walk *w, struct rd *r, off_t off, uint32_t min,
                 uint32_t *len)
{
    unsigned char h[4], t[4];
    if (rd_get(r, off, h, 4) < 0)
        return cut_short(w, r, off);
    *len = be32(h);
    if (*len < min || (off_t)*len > r->size - off)
        return *len < min && (off_t)*len <= r->size - off
                   ? bad_record(w, r, off, "is shorter than a record")
                   : cut_short(w, r, off);
    if (rd_get(r, off + *len - 4, t, 4) < 0 || be32(t) != *len)
        return bad_record(w, r, off, "is not framed (its lengths differ)");
    return 0;
}

/* A metric descriptor: its names, each a length and the bytes, fill the
 * record exactly. */
static int check_desc(struct walk *w, struct rd *r, off_t off, uint32_t len)
{
    unsigned char b[4];
    off_t p = off + 8 + 20, end = off + len - 4;
    if (len < 12 + 24 || rd_get(r, p, b, 4) < 0)
        return bad_record(w, r, off, "is too short for a metric descriptor");
    int32_t names = sbe32(b);
    p += 4;
    for (int32_t i = 0; i < names; i++) {
        if (p + 4 > end || rd_get(r, p, b, 4) < 0)
            return bad_record(w, r, off,
                              "holds more names than fit (a damaged or "
                              "crafted archive)");
        int32_t n = sbe32(b);
        if (n < 0 || n > NAME_LEN_MAX || n > end - p - 4) {
            char why[160];
            snprintf(why, sizeof(why),
                     "names a metric %d bytes long in %u bytes (a damaged "
                     "or crafted archive)",
                     n, len);
            return bad_record(w, r, off, why);
        }
        p += 4 + n;
    }
    if (names < 0 || p != end)
        return bad_record(w, r, off,
                          "is a metric descriptor that does not fill it "
                          "(a damaged or crafted archive)");
    return 0;
}

/* An instance domain: the instances' numbers and name offsets fit, and
 * the names' table ends its last name. */
static int check_indom(struct walk *w, struct rd *r, off_t off, uint32_t len,
                       int type)
{
    int ts = type == T_INDOM_V2 ? 8 : 12;
    unsigned char b[4];
    off_t p = off + 8 + ts + 4, end = off + len - 4;
    if (p + 4 > end || rd_get(r, p, b, 4) < 0)
        return bad_record(w, r, off, "is too short for an instance domain");
    int32_t n = sbe32(b);
    p += 4;
    if (n < 0 || (int64_t)n * 8 > end - p)
        return bad_record(w, r, off,
                          "holds more instances than fit (a damaged or "
                          "crafted archive)");
    off_t table = p + (off_t)n * 8, tlen = end - table;
    bool named = false;
    for (int32_t i = 0; i < n; i++) {
        if (rd_get(r, p + (off_t)(n + i) * 4, b, 4) < 0)
            return cut_short(w, r, off);
        int32_t at = sbe32(b);
        if (at >= tlen || (at < 0 && !(type == T_INDOM_DELT && at == -1)))
            return bad_record(w, r, off,
                              "names an instance outside its names' table "
                              "(a damaged or crafted archive)");
        named |= at >= 0;
    }
    unsigned char last = 0;
    if (named && (rd_get(r, end - 1, &last, 1) < 0 || last))
        return bad_record(w, r, off,
                          "is an instance domain whose names do not end "
                          "(a damaged or crafted archive)");
    return 0;
}

static int check_meta(struct walk *w, struct rd *r)
{
    if (check_label(w, r, PM_LOG_VOL_META) < 0)
        return -1;
    w->cur = 0;
    for (off_t off = w->label_len; off < r->size;) {
        uint32_t len;
        unsigned char b[4];
        if (meet(w, r->path, 0, 0, off, 0, r->size) < 0 ||
            frame(w, r, off, 12, &len) < 0 || rd_get(r, off + 4, b, 4) < 0)
            return -1;
        int32_t type = sbe32(b);
        if (type < 1 || type > TYPE_MAX)
            return bad_record(w, r, off,
                              "is of no type PCP knows (a damaged archive)");
        unsigned char last = 0;
        if ((type == T_DESC && check_desc(w, r, off, len) < 0) ||
            ((type == T_INDOM_V2 || type == T_INDOM || type == T_INDOM_DELT) &&
             check_indom(w, r, off, len, type) < 0))
            return -1;
        if (type == T_TEXT &&
            (len < 12 + 9 || rd_get(r, off + len - 5, &last, 1) < 0 || last))
            return bad_record(w, r, off,
                              "is a help text that does not end (a damaged "
                              "or crafted archive)");
        off += len;
    }
    return meet(w, r->path, 0, 0, -1, 0, r->size);
}

static int check_volume(struct walk *w, struct rd *r, int vol)
{
    if (check_label(w, r, vol) < 0)
        return -1;
    uint32_t min = w->version == PM_LOG_VERS02 ? 20 : 24;
    for (w->cur = 0; w->cur < w->nti && w->ti[w->cur].vol < vol; w->cur++)
        ;
    for (off_t off = w->label_len; off < r->size;) {
        uint32_t len;
        unsigned char b[12];
        if (frame(w, r, off, min, &len) < 0 || rd_get(r, off + 4, b, 12) < 0)
            return -1;
        int64_t t =
            w->version == PM_LOG_VERS02
                ? (int64_t)sbe32(b) * 1000000000 + (int64_t)sbe32(b + 4) * 1000
                : sec64(b) * 1000000000 + sbe32(b + 8);
        if (t < w->last_t)
            return bad_record(w, r, off,
                              "is stamped before the one before it (a "
                              "damaged archive)");
        if (meet(w, r->path, 1, vol, off, t, r->size) < 0)
            return -1;
        w->last_t = t;
        off += len;
    }
    return meet(w, r->path, 1, vol, -1, 0, r->size);
}

/* --- an archive's files --- */

/* What an archive's file name says: NAME.meta (-1), NAME.index (-2),
 * NAME.N (N), and whether it is compressed (NAME.0.xz); -3: none of
 * these. stem_len gets NAME's length. */
static int part_of(const char *name, size_t *stem_len, bool *compressed)
{
    const char *end = name + strlen(name);
    *compressed = false;
    for (int pass = 0; pass < 2; pass++) {
        const char *dot = end;
        while (dot > name && dot[-1] != '.')
            dot--;
        if (dot <= name + 1)
            return -3;
        size_t n = (size_t)(end - dot);
        int part = -3;
        if (n == 4 && memcmp(dot, "meta", 4) == 0)
            part = PM_LOG_VOL_META;
        else if (n == 5 && memcmp(dot, "index", 5) == 0)
            part = PM_LOG_VOL_TI;
        else if (n > 0 && n < 10 && strspn(dot, "0123456789") == n)
            part = atoi(dot);
        if (part != -3) {
            *stem_len = (size_t)(dot - 1 - name);
            return part;
        }
        if (pass == 0) { /* a compression suffix, then the part */
            *compressed = true;
            end = dot - 1;
        }
    }
    return -3;
}

struct part {
    char name[256];
    size_t stem_len;
    int part;
    bool compressed;
};

struct parts {
    struct part *p;
    int n, cap;
};

static int add_part(struct parts *ps, const char *name, size_t stem_len,
                    int part, bool compressed)
{
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 16;
        struct part *q = realloc(ps->p, (size_t)cap * sizeof(*q));
        if (!q)
            return -1;
        ps->p = q;
        ps->cap = cap;
    }
    struct part *p = &ps->p[ps->n++];
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->stem_len = stem_len;
    p->part = part;
    p->compressed = compressed;
    return 0;
}

static bool same_stem(const struct part *a, const char *stem, size_t len)
{
    return a->stem_len == len && strncmp(a->name, stem, len) == 0;
}

/* The file of stem's part `part`, uncompressed: its index in ps, or -1. */
static int find_part(const struct parts *ps, const char *stem, size_t len,
                     int part)
{
    for (int i = 0; i < ps->n; i++)
        if (same_stem(&ps->p[i], stem, len) && ps->p[i].part == part &&
            !ps->p[i].compressed)
            return i;
    return -1;
}

static int open_rd(struct walk *w, struct rd *r, const char *name, char *path,
                   size_t pathlen)
{
    snprintf(path, pathlen, "%s/%s", w->dir, name);
    r->path = path;
    r->at = 0;
    r->len = 0;
    r->fd = open_regular(path, &r->size, w->err, w->errlen);
    return r->fd < 0 ? -1 : 0;
}

/* The framing of one archive (the parts named stem): its index first,
 * then its metadata and volumes, which the index's entries point into. */
static int check_archive(struct walk *w, const struct parts *ps,
                         const char *stem, size_t len)
{
    char sbase[4400], path[4400];
    snprintf(sbase, sizeof(sbase), "%s/%.*s", w->dir, (int)len, stem);
    w->stem = sbase;
    w->version = 0;
    w->last_t = INT64_MIN;
    w->nti = 0;
    free(w->ti);
    w->ti = NULL;
    struct rd *r = malloc(sizeof(*r));
    if (!r) {
        snprintf(w->err, w->errlen, "out of memory");
        return -1;
    }
    int rc = 0, i;
    bool compressed = false;
    for (i = 0; i < ps->n; i++)
        compressed |= same_stem(&ps->p[i], stem, len) && ps->p[i].compressed;
    int meta = find_part(ps, stem, len, PM_LOG_VOL_META);
    int index = compressed ? -1 : find_part(ps, stem, len, PM_LOG_VOL_TI);
    if (index >= 0) {
        rc = open_rd(w, r, ps->p[index].name, path, sizeof(path));
        if (rc == 0) {
            rc = read_index(w, r);
            close(r->fd);
        }
    }
    if (rc == 0 && meta >= 0) {
        rc = open_rd(w, r, ps->p[meta].name, path, sizeof(path));
        if (rc == 0) {
            rc = check_meta(w, r);
            close(r->fd);
        }
    }
    /* the volumes in order: the index's entries and the records' times
     * run through them */
    for (int vol = -1;;) {
        int next = -1;
        for (i = 0; i < ps->n; i++)
            if (same_stem(&ps->p[i], stem, len) && !ps->p[i].compressed &&
                ps->p[i].part > vol && (next < 0 || ps->p[i].part < next))
                next = ps->p[i].part;
        if (rc < 0 || next < 0)
            break;
        vol = next;
        i = find_part(ps, stem, len, vol);
        rc = open_rd(w, r, ps->p[i].name, path, sizeof(path));
        if (rc == 0) {
            rc = check_volume(w, r, vol);
            close(r->fd);
        }
    }
    for (; rc == 0 && w->cur < w->nti; w->cur++)
        if (!compressed && index >= 0) {
            snprintf(w->err, w->errlen,
                     "%s.index: corrupt: entry %d points into volume %d, "
                     "which is not there (a damaged index: PCP reads the "
                     "archive without it, remove it)",
                     sbase, w->cur + 1, w->ti[w->cur].vol);
            rc = -1;
        }
    free(r);
    return rc;
}

/* Every file of the archives in dir (stem NULL: all of them) is regular;
 * the uncompressed ones are framed. */
static int check_dir(struct walk *w, const char *stem)
{
    DIR *d = opendir(w->dir);
    if (!d) {
        snprintf(w->err, w->errlen, "%s: %s", w->dir, strerror(errno));
        return -1;
    }
    struct parts ps = {0};
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        size_t sl;
        bool comp;
        int part = part_of(e->d_name, &sl, &comp);
        if (part == -3 || (stem && !(strlen(stem) == sl &&
                                     strncmp(e->d_name, stem, sl) == 0)))
            continue;
        rc = add_part(&ps, e->d_name, sl, part, comp);
        if (rc < 0)
            snprintf(w->err, w->errlen, "out of memory");
    }
    closedir(d);
    /* only what has metadata is an archive: what PCP opens */
    for (int i = 0; rc == 0 && i < ps.n; i++) {
        bool archive = false;
        for (int k = 0; k < ps.n && !archive; k++)
            archive = same_stem(&ps.p[k], ps.p[i].name, ps.p[i].stem_len) &&
                      ps.p[k].part == PM_LOG_VOL_META;
        if (!archive)
            continue;
        char path[4400];
        off_t size;
        snprintf(path, sizeof(path), "%s/%s", w->dir, ps.p[i].name);
        int fd = open_regular(path, &size, w->err, w->errlen);
        if (fd < 0)
            rc = -1;
        else
            close(fd);
    }
    for (int i = 0; rc == 0 && i < ps.n; i++) {
        bool first = ps.p[i].part == PM_LOG_VOL_META;
        for (int k = 0; first && k < i; k++) /* meta and meta.xz */
            first = !(same_stem(&ps.p[k], ps.p[i].name, ps.p[i].stem_len) &&
                      ps.p[k].part == PM_LOG_VOL_META);
        if (first)
            rc = check_archive(w, &ps, ps.p[i].name, ps.p[i].stem_len);
    }
    free(ps.p);
    return rc;
}

int archive_frame_check(const char *target, char *err, size_t errlen)
{
    struct walk *w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    w->err = err;
    w->errlen = errlen;
    const char *stem = NULL;
    struct stat st;
    snprintf(w->dir, sizeof(w->dir), "%s", target);
    if (stat(target, &st) < 0 || !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(w->dir, '/');
        stem = slash ? target + (slash - w->dir) + 1 : target;
        if (slash == w->dir)
            w->dir[1] = '\0';
        else if (slash)
            *slash = '\0';
        else
            snprintf(w->dir, sizeof(w->dir), ".");
    }
    int rc = check_dir(w, stem);
    free(w->ti);
    free(w);
    return rc;
}
