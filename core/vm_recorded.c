/* See vm_recorded.h. The text is "key<TAB>value" lines: name, kind, pid,
 * nvcpu, guest, joined, told, run_s, wait_s, read_mono, then
 * "fig<TAB>ROW<TAB>V" for each row with a figure, "note<TAB>ROW<TAB>detail" and
 * "shown<TAB>ROW<TAB>text" and "fault<TAB>ROW". Doubles as %.17g: a replay
 * shows the figure recorded. */
#include "core/vm_recorded.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_text.h"

const char *const vm_extra_keys[VX_COUNT] = {
#define VM_EXTRA_KEY(id, key, type, sem, units, help) key,
    VM_RECORD_EXTRAS(VM_EXTRA_KEY)
#undef VM_EXTRA_KEY
};

void vm_recorded_clear(struct vm_recorded *v)
{
    memset(v, 0, sizeof(*v));
    v->pid = v->nvcpu = -1;
    for (int row = 0; row < VM_ROW_COUNT; row++)
        v->fig[row] = NAN;
    v->run_s = v->wait_s = v->read_mono = NAN;
}

/* The row whose key starts text and ends at one of `ends` (or the text's
 * end), its length in *len; -1 when none. */
static int row_at(const char *text, const char *ends, size_t *len)
{
    *len = strcspn(text, ends);
    char key[32];
    if (*len == 0 || *len >= sizeof(key))
        return -1;
    memcpy(key, text, *len);
    key[*len] = '\0';
    return vm_row_of(key);
}

/* A field's value up to the end of its line into out, made safe. */
static void take(char *out, size_t n, const char *p)
{
    size_t len = strcspn(p, "\n");
    if (len >= n)
        len = n - 1;
    memcpy(out, p, len);
    out[len] = '\0';
    safe_text(out);
}

/* "KEY<TAB>text" lines into a row's text of rows (VM_ROW_COUNT texts of
 * n bytes each). */
static void row_lines(const char *text, char *rows, size_t n)
{
    for (const char *p = text; p && *p; p += strcspn(p, "\n"), p += *p != 0) {
        size_t len;
        int row = row_at(p, "\t\n", &len);
        if (row >= 0 && p[len] == '\t')
            take(rows + (size_t)row * n, n, p + len + 1);
    }
}

void vm_recorded_set_notes(struct vm_recorded *v, const char *notes)
{
    row_lines(notes, v->note[0], sizeof(v->note[0]));
}

void vm_recorded_set_shown(struct vm_recorded *v, const char *shown)
{
    row_lines(shown, v->shown[0], sizeof(v->shown[0]));
}

void vm_recorded_set_faults(struct vm_recorded *v, const char *faults)
{
    for (const char *p = faults; p && *p; p += strcspn(p, " "), p += *p != 0) {
        size_t len;
        int row = row_at(p, " ", &len);
        if (row >= 0)
            v->faults |= 1u << row;
    }
}

/* Appends to buf at *at; false once it no longer fits. */
static bool add(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = *at < n ? vsnprintf(buf + *at, n - *at, fmt, ap) : -1;
    va_end(ap);
    if (w < 0 || *at + (size_t)w >= n)
        return false;
    *at += (size_t)w;
    return true;
}

int vm_recorded_format(const struct vm_recorded *v, char *buf, size_t n)
{
    size_t at = 0;
    bool ok = add(buf, n, &at,
                  "name\t%s\nkind\t%s\npid\t%d\nnvcpu\t%d\nguest\t%s\n"
                  "joined\t%s\ntold\t%s\nrun_s\t%.17g\nwait_s\t%.17g\n"
                  "read_mono\t%.17g\n",
                  v->name, v->kind, v->pid, v->nvcpu, v->guest, v->how, v->told,
                  v->run_s, v->wait_s, v->read_mono);
    for (int row = 0; ok && row < VM_ROW_COUNT; row++) {
        if (isfinite(v->fig[row]))
            ok = add(buf, n, &at, "fig\t%s\t%.17g\n", vm_row_keys[row],
                     v->fig[row]);
        if (ok && v->note[row][0])
            ok = add(buf, n, &at, "note\t%s\t%s\n", vm_row_keys[row],
                     v->note[row]);
        if (ok && v->shown[row][0])
            ok = add(buf, n, &at, "shown\t%s\t%s\n", vm_row_keys[row],
                     v->shown[row]);
        if (ok && (v->faults >> row & 1))
            ok = add(buf, n, &at, "fault\t%s\n", vm_row_keys[row]);
    }
    return ok ? (int)at : -1;
}

/* A number field: finite, else NaN. */
static double number(const char *p)
{
    char *end;
    double x = strtod(p, &end);
    return end != p && isfinite(x) ? x : NAN;
}

static int whole(const char *p)
{
    double x = number(p);
    return isfinite(x) && x >= 0 && x <= 1e9 ? (int)x : -1;
}

bool vm_recorded_parse(const char *text, struct vm_recorded *v)
{
    vm_recorded_clear(v);
    for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p != 0) {
        size_t klen = strcspn(p, "\t\n");
        if (p[klen] != '\t')
            continue;
        const char *val = p + klen + 1;
        size_t len;
        int row;
#define IS(k) (klen == strlen(k) && strncmp(p, k, klen) == 0)
        if (IS("name"))
            take(v->name, sizeof(v->name), val);
        else if (IS("kind"))
            take(v->kind, sizeof(v->kind), val);
        else if (IS("guest"))
            take(v->guest, sizeof(v->guest), val);
        else if (IS("joined"))
            take(v->how, sizeof(v->how), val);
        else if (IS("told"))
            take(v->told, sizeof(v->told), val);
        else if (IS("pid"))
            v->pid = whole(val);
        else if (IS("nvcpu"))
            v->nvcpu = whole(val);
        else if (IS("run_s"))
            v->run_s = number(val);
        else if (IS("wait_s"))
            v->wait_s = number(val);
        else if (IS("read_mono"))
            v->read_mono = number(val);
        else if ((row = row_at(val, "\t\n", &len)) < 0)
            continue;
        else if (IS("fig") && val[len] == '\t')
            v->fig[row] = number(val + len + 1);
        else if (IS("note") && val[len] == '\t')
            take(v->note[row], sizeof(v->note[row]), val + len + 1);
        else if (IS("shown") && val[len] == '\t')
            take(v->shown[row], sizeof(v->shown[row]), val + len + 1);
        else if (IS("fault"))
            v->faults |= 1u << row;
#undef IS
    }
    return v->name[0] != '\0';
}

void vm_recorded_label(const struct vm_recorded *v, char *buf, size_t n)
{
    snprintf(buf, n, "%s", v->name);
    char pid[24];
    snprintf(pid, sizeof(pid), ".%d", v->pid);
    /* the last ".PID" that ends the name or is followed by ".N" */
    for (char *p = strstr(buf, pid); v->pid >= 0 && p; p = strstr(p + 1, pid)) {
        char *after = p + strlen(pid);
        if (*after == '\0' ||
            (*after == '.' &&
             strspn(after + 1, "0123456789") == strlen(after + 1) &&
             after[1])) {
            *p = '\0';
            break;
        }
    }
}
