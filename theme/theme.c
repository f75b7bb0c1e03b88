/* See theme.h. One line at a time, the first error ends the parse: a
 * broken theme is not half applied, the built-in one is used instead and
 * the message says where to look. Input is untrusted (fuzz/fuzz_theme.c):
 * lengths are checked, words printed back have non-printables masked. */
#include "theme/theme.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safe_text.h"
#include "theme/theme_color.h"

const char *const theme_role_names[ROLE_COUNT] = {
#define ROLE_NAME(role, name) [role] = name,
    THEME_ROLES(ROLE_NAME)
#undef ROLE_NAME
};

/* themes/default.theme without its comments; test_theme checks that the
 * two give the same theme */
static const char builtin_text[] = "normal     = default\n"
                                   "title      = black on cyan\n"
                                   "status     = default\n"
                                   "source     = white bold\n"
                                   "live       = green\n"
                                   "stale      = yellow bold\n"
                                   "down       = red bold\n"
                                   "label      = cyan\n"
                                   "rule       = cyan\n"
                                   "spark      = blue bold\n"
                                   "ratio-bad  = red bold\n"
                                   "ratio-good = green bold\n"
                                   "selection  = default reverse\n"
                                   "key        = white bold\n"
                                   "key-label  = black on cyan\n";

static const struct {
    const char *name;
    unsigned bit;
} attr_names[] = {
    {"bold", THEME_BOLD},           {"dim", THEME_DIM},
    {"underline", THEME_UNDERLINE}, {"reverse", THEME_REVERSE},
    {"italic", THEME_ITALIC},       {"blink", THEME_BLINK},
};

#define WORD_MAX  32 /* longer than any role, colour or attribute */
#define WORDS_MAX 12

struct word {
    char text[WORD_MAX];      /* "" when the word was too long to be anything */
    char shown[WORD_MAX + 4]; /* for messages: masked, maybe cut short */
};

struct parser {
    const char *file;
    int line;
    int first_line[ROLE_COUNT]; /* where each role was given, 0: not yet */
    char *err;
    size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%d: %s", p->file, p->line, msg);
    safe_text(p->err); /* the file's name too */
    return -1;
}

static void word_set(struct word *w, const char *s, size_t len)
{
    size_t n = len < WORD_MAX - 1 ? len : WORD_MAX - 1;
    for (size_t i = 0; i < n; i++)
        w->shown[i] = s[i] > ' ' && s[i] < 127 ? s[i] : '?';
    strcpy(w->shown + n, len > n ? "..." : "");
    if (len < WORD_MAX) {
        memcpy(w->text, s, len);
        w->text[len] = '\0';
    } else {
        w->text[0] = '\0';
    }
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits s[0..len) into words at blanks. -1 when there are too many. */
static int split(const char *s, size_t len, struct word *w, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_blank(s[i]))
            i++;
        size_t start = i;
        while (i < len && !is_blank(s[i]))
            i++;
        if (i == start)
            break;
        if (n == max)
            return -1;
        word_set(&w[n++], s + start, i - start);
    }
    return n;
}

static int find_role(const char *name)
{
    for (int r = 0; r < ROLE_COUNT; r++)
        if (strcmp(name, theme_role_names[r]) == 0)
            return r;
    return -1;
}

static unsigned find_attr(const char *name)
{
    for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
        if (strcmp(name, attr_names[i].name) == 0)
            return attr_names[i].bit;
    return 0;
}

/* "COLOUR [on COLOUR] [ATTRIBUTE...]" into st. */
static int parse_look(struct parser *p, const char *role, struct word *w, int n,
                      struct theme_style *st)
{
    int i = 0;
    if (n == 0)
        return fail(p, "role '%s' needs a colour (default: the terminal's)",
                    role);
    if (!theme_color_parse(w[0].text, &st->fg))
        return fail(p,
                    find_attr(w[0].text)
                        ? "give a colour before '%s' (default: the "
                          "terminal's)"
                        : "unknown colour '%s' (black..white, bright-black.."
                          "bright-white, colour0-255, #rrggbb, default)",
                    w[0].shown);
    i = 1;
    st->bg = THEME_DEFAULT;
    if (i < n && strcmp(w[i].text, "on") == 0) {
        if (i + 1 == n)
            return fail(p, "'on' needs a background colour");
        if (!theme_color_parse(w[i + 1].text, &st->bg))
            return fail(p, "unknown background colour '%s'", w[i + 1].shown);
        i += 2;
    }
    st->attrs = 0;
    for (; i < n; i++) {
        unsigned bit = find_attr(w[i].text);
        short c;
        if (!bit)
            return fail(p,
                        theme_color_parse(w[i].text, &c)
                            ? "colour '%s' after the colours (a background "
                              "is 'on COLOUR')"
                            : "unknown attribute '%s' (bold, dim, underline, "
                              "reverse, italic, blink)",
                        w[i].shown);
        st->attrs |= bit;
    }
    return 0;
}

/* One line without its newline and comment. */
static int parse_line(struct parser *p, const char *s, size_t len,
                      struct theme *t)
{
    struct word left[2], right[WORDS_MAX];
    const char *eq = memchr(s, '=', len);
    if (!eq)
        return fail(p, "expected 'role = colour [on colour] [attribute...]'");
    int nl = split(s, (size_t)(eq - s), left, 2);
    int nr = split(eq + 1, len - (size_t)(eq - s) - 1, right, WORDS_MAX);
    if (nl == 0)
        return fail(p, "a role name must come before '='");
    if (nl != 1)
        return fail(p, "unknown role '%s %s'", left[0].shown, left[1].shown);
    if (nr < 0)
        return fail(p, "more than %d words after '='", WORDS_MAX);
    int r = find_role(left[0].text);
    if (r < 0)
        return fail(p, "unknown role '%s'", left[0].shown);
    if (p->first_line[r])
        return fail(p, "role '%s' given twice (first on line %d)",
                    theme_role_names[r], p->first_line[r]);
    if (parse_look(p, theme_role_names[r], right, nr, &t->style[r]) < 0)
        return -1;
    p->first_line[r] = p->line;
    t->set |= 1u << r;
    return 0;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

/* The line's length without its comment: a '#' that starts the line, or
 * a word when no hex digit follows it ("#ff0000" is a colour, "#fff" a
 * bad one, "#note" a comment). */
static size_t strip_comment(const char *s, size_t len)
{
    size_t first = 0; /* the first non-blank */
    while (first < len && is_blank(s[first]))
        first++;
    for (size_t i = first; i < len; i++) {
        if (s[i] != '#')
            continue;
        if (i == first)
            return i;
        if (is_blank(s[i - 1]) && (i + 1 == len || !is_hex(s[i + 1])))
            return i;
    }
    return len;
}

static int parse_text(const char *text, size_t len, struct parser *p,
                      struct theme *t)
{
    size_t pos = 0;
    const char *nul = len ? memchr(text, '\0', len) : NULL;
    if (nul) {
        for (const char *c = text; c < nul; c++)
            p->line += *c == '\n';
        p->line++;
        return fail(p, "a NUL byte: not a text file");
    }
    while (pos < len) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + 1;
        p->line++;
        n = strip_comment(s, n);
        size_t k = 0;
        while (k < n && is_blank(s[k]))
            k++;
        if (k < n && parse_line(p, s, n, t) < 0)
            return -1;
    }
    if (!t->set) {
        snprintf(p->err, p->errlen,
                 "%s: no role is set; lines read 'role = colour [on "
                 "colour] [attribute...]'",
                 p->file);
        return -1;
    }
    return 0;
}

void theme_builtin(struct theme *t)
{
    struct parser p = {.file = "built-in"};
    char err[8];
    p.err = err;
    p.errlen = sizeof(err);
    memset(t, 0, sizeof(*t));
    for (int r = 0; r < ROLE_COUNT; r++)
        t->style[r] = (struct theme_style){THEME_DEFAULT, THEME_DEFAULT, 0};
    parse_text(builtin_text, sizeof(builtin_text) - 1, &p, t);
    snprintf(t->name, sizeof(t->name), "default");
    t->set = 0;
}

int theme_parse(const char *text, size_t len, const char *file, struct theme *t,
                char *err, size_t errlen)
{
    struct parser p = {.file = file, .err = err, .errlen = errlen};
    theme_builtin(t);
    t->name[0] = '\0';
    if (parse_text(text, len, &p, t) < 0) {
        theme_builtin(t);
        return -1;
    }
    return 0;
}

/* Reads at most max bytes of the regular file path into buf; -1 with
 * errno (ENOTSUP: not a regular file). */
static ssize_t read_all(const char *path, char *buf, size_t max)
{
    struct stat st;
    /* O_NONBLOCK: a FIFO given as a theme must not hang the start */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = ENOTSUP; /* said as "not a regular file" */
        return -1;
    }
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, buf + got, max - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = errno;
            close(fd);
            errno = e;
            return r < 0 ? -1 : (ssize_t)got;
        }
        got += (size_t)r;
        if (got == max) {
            close(fd);
            return (ssize_t)got;
        }
    }
}

int theme_parse_file(const char *path, struct theme *t, char *err,
                     size_t errlen)
{
    char *buf = malloc(THEME_FILE_MAX + 1);
    if (!buf) {
        theme_builtin(t);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    ssize_t n = read_all(path, buf, THEME_FILE_MAX + 1);
    int rc = -1;
    if (n < 0) {
        theme_builtin(t);
        snprintf(err, errlen, "%s: %s", path,
                 errno == ENOTSUP ? "not a regular file" : strerror(errno));
    } else if (n > THEME_FILE_MAX) {
        theme_builtin(t);
        snprintf(err, errlen, "%s: larger than %d KiB, not a theme", path,
                 THEME_FILE_MAX / 1024);
    } else {
        rc = theme_parse(buf, (size_t)n, path, t, err, errlen);
    }
    free(buf);
    if (rc == 0) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t len = strlen(base);
        if (len > 6 && strcmp(base + len - 6, ".theme") == 0)
            len -= 6;
        snprintf(t->name, sizeof(t->name), "%.*s", (int)len, base);
    }
    return rc;
}
