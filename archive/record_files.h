/* The files of an archive being recorded, kept whole when a write fails
 * (issue 24: a full disk tore a record, and the archive then replayed
 * nothing). libpcp_import writes each record with one write to the
 * volume, after what the metadata and the temporal index gain for it;
 * a write cut short leaves all three ahead of the last whole record.
 * Their sizes after every whole record are noted, and a failed write is
 * cut back to them; before each record the file system is asked whether
 * it has room, so that a recording that fills a disk usually stops with
 * its end marked and indexed, and never with a record torn. */
#ifndef PARALLAX_RECORD_FILES_H
#define PARALLAX_RECORD_FILES_H

#include <stddef.h>
#include <sys/types.h>

#define RECORD_BASE_MAX 4096

struct record_files {
    char base[RECORD_BASE_MAX]; /* DIR/SOURCE/STAMP */
    int vol;                    /* the volume written */
    off_t meta, index, data;    /* sizes at the last whole record; -1 none */
    off_t grew;                 /* what the last record added, bytes */
};

/* For the archive base (no file of it written yet). */
void record_files_init(struct record_files *f, const char *base);

/* 0 when base's file system has room for the next record (a few times
 * what the last one took), else -1 with one line in err. */
int record_files_room(const struct record_files *f, char *err, size_t errlen);

/* After a record (or the end mark) was written whole: notes the sizes,
 * and a volume libpcp_import went on to. */
void record_files_whole(struct record_files *f);

/* After a write that failed (and after libpcp_import's end, which writes
 * one more index entry): the files cut back to the last whole record, a
 * volume started since removed; with no whole record, every file of the
 * archive removed. 0, or -1 with errno. */
int record_files_restore(const struct record_files *f);

/* After libpcp_import's end of a whole archive: an index entry it could
 * not write whole is cut off. */
void record_files_end(const struct record_files *f);

#endif
