/* See safe_text.h. One decoder for the three: the length of the printable
 * UTF-8 character a byte starts, or 0 for a byte to mask. */
#include "base/safe_text.h"

#include <stdint.h>
#include <string.h>

/* How many bytes the printable character at p takes; 0 when p[0] is a
 * control, DEL, or not the start of a well-formed UTF-8 character (an
 * overlong form, a surrogate, above U+10FFFF, a C1 control U+0080-9F).
 * Reads no further than a NUL. */
static size_t printable_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c >= 0x20 && c < 0x7f)
        return 1;
    if (c < 0xc2 || c > 0xf4) /* controls, DEL, continuations, overlong */
        return 0;
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    uint32_t cp = c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
        cp < 0xa0)
        return 0;
    /* the bidirectional controls reorder what follows them on the line
     * (U+202E makes "gpj.exe" of "exe.jpg"), and the line and paragraph
     * separators end it in some terminals */
    if (cp == 0x061c || cp == 0x200e || cp == 0x200f ||
        (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
        return 0;
    return n;
}

/* Masks what is not printable, except the bytes in keep. */
static char *mask(char *s, const char *keep)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = printable_len(p);
        if (n == 0) {
            if (!strchr(keep, *p))
                *p = '?';
            n = 1;
        }
        p += n;
    }
    return s;
}

char *safe_text(char *s)
{
    return mask(s, "");
}

char *safe_text_lines(char *s)
{
    return mask(s, "\t\n");
}

char *safe_text_copy(char *dst, size_t n, const char *src, size_t max)
{
    const unsigned char *p = (const unsigned char *)(src ? src : "");
    size_t used = 0, chars = 0;
    while (*p && (max == 0 || chars < max)) {
        size_t k = printable_len(p);
        if (used + (k ? k : 1) >= n)
            break;
        if (k)
            memcpy(dst + used, p, k);
        else
            dst[used] = '?';
        used += k ? k : 1;
        p += k ? k : 1;
        chars++;
    }
    if (*p && max && chars == max && used + 3 < n) {
        memcpy(dst + used, "...", 3);
        used += 3;
    }
    dst[used] = '\0';
    return dst;
}

bool safe_text_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = printable_len(p);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}
