/*
 * exec_printf.c - CUDA's device-side printf ABI: vprintf(fmt, args) where args points at a
 * packed buffer holding each argument aligned to its own size (int/unsigned/char/short: 4
 * bytes, long/long long/pointers/%s: 8, float and double: 8 as double). Each conversion is
 * re-formatted with the host snprintf, so flags, width and precision behave as in C.
 * The whole text of one call is written with one fwrite under flockfile(stdout), so lines
 * of different threads never interleave and device output stays ordered with the host's own
 * stdout writes (same FILE buffer; flushed when the host flushes, as CUDA's is at sync).
 * Thread-safety: reentrant.
 */
#include "exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf_t;

static void sb_reserve(sbuf_t *s, size_t more)
{
    if (s->oom || s->len + more + 1 <= s->cap)
        return;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + more + 1)
        cap *= 2;
    char *n = realloc(s->p, cap);
    if (!n) {
        s->oom = 1;
        return;
    }
    s->p = n;
    s->cap = cap;
}

static void sb_put(sbuf_t *s, const char *txt, size_t n)
{
    sb_reserve(s, n);
    if (s->oom)
        return;
    memcpy(s->p + s->len, txt, n);
    s->len += n;
    s->p[s->len] = 0;
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(sbuf_t *s, const char *fmt, ...)
{
    va_list ap;
    char small[128];
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sb_put(s, small, (size_t)n);
        return;
    }
    sb_reserve(s, (size_t)n);
    if (s->oom)
        return;
    va_start(ap, fmt);
    vsnprintf(s->p + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

/* Next argument of `size` bytes, aligned to its size relative to the buffer start. */
static const uint8_t *arg_next(const uint8_t *base, size_t *off, size_t size)
{
    *off = (*off + size - 1) & ~(size - 1);
    const uint8_t *p = base + *off;
    *off += size;
    return p;
}

int32_t npu_exec_format(const char *fmt, const void *args, char **out, size_t *outlen)
{
    *out = NULL;
    *outlen = 0;
    if (!fmt)
        return -1;
    sbuf_t s = { 0 };
    const uint8_t *base = args;
    size_t off = 0;
    int32_t nargs = 0;
    const char *p = fmt;
    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            sb_put(&s, p, strlen(p));
            break;
        }
        sb_put(&s, p, (size_t)(pct - p));
        const char *q = pct + 1;
        if (*q == '%') {
            sb_put(&s, "%", 1);
            p = q + 1;
            continue;
        }
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*q && strchr("-+ #0'", *q)) {
            if (sl < 16)
                spec[sl++] = *q;
            q++;
        }
        /* width */
        if (*q == '*') {
            int w = 0;
            if (base) { memcpy(&w, arg_next(base, &off, 4), 4); nargs++; }
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", w);
            q++;
        } else {
            while (*q >= '0' && *q <= '9') {
                if (sl < 30)
                    spec[sl++] = *q;
                q++;
            }
        }
        /* precision */
        if (*q == '.') {
            spec[sl++] = '.';
            q++;
            if (*q == '*') {
                int pr = 0;
                if (base) { memcpy(&pr, arg_next(base, &off, 4), 4); nargs++; }
                sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", pr);
                q++;
            } else {
                while (*q >= '0' && *q <= '9') {
                    if (sl < 50)
                        spec[sl++] = *q;
                    q++;
                }
            }
        }
        /* length */
        int wide = 0;           /* 8-byte integer argument */
        const char *hmod = "";
        for (;;) {
            if (*q == 'l' || *q == 'j' || *q == 'z' || *q == 't' || *q == 'q') wide = 1;
            else if (*q == 'h') hmod = (*hmod) ? "hh" : "h";
            else if (*q == 'L') { }
            else break;
            q++;
        }
        char conv = *q;
        if (!conv) {                        /* dangling '%': print as is */
            sb_put(&s, pct, strlen(pct));
            break;
        }
        q++;
        int have = base != NULL;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            char sp[80];
            if (conv == 'c') {
                int v = 0;
                if (have) memcpy(&v, arg_next(base, &off, 4), 4);    /* int or wint_t */
                snprintf(sp, sizeof sp, "%.*s%c", (int)sl, spec, conv);
                sb_printf(&s, sp, v);
            } else if (wide) {
                long long v = 0;
                if (have) memcpy(&v, arg_next(base, &off, 8), 8);
                snprintf(sp, sizeof sp, "%.*sll%c", (int)sl, spec, conv);
                sb_printf(&s, sp, v);
            } else {
                int v = 0;
                if (have) memcpy(&v, arg_next(base, &off, 4), 4);
                snprintf(sp, sizeof sp, "%.*s%s%c", (int)sl, spec, hmod, conv);
                sb_printf(&s, sp, v);
            }
            nargs += have;
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            double v = 0;
            if (have) memcpy(&v, arg_next(base, &off, 8), 8);
            char sp[80];
            snprintf(sp, sizeof sp, "%.*s%c", (int)sl, spec, conv);
            sb_printf(&s, sp, v);
            nargs += have;
            break;
        }
        case 's': {
            const char *v = NULL;
            if (have) memcpy(&v, arg_next(base, &off, 8), 8);
            char sp[80];
            snprintf(sp, sizeof sp, "%.*ss", (int)sl, spec);
            sb_printf(&s, sp, v ? v : "(null)");
            nargs += have;
            break;
        }
        case 'p': {
            void *v = NULL;
            if (have) memcpy(&v, arg_next(base, &off, 8), 8);
            char sp[80];
            snprintf(sp, sizeof sp, "%.*sp", (int)sl, spec);
            sb_printf(&s, sp, v);
            nargs += have;
            break;
        }
        case 'n':                           /* never written: device memory is not ours */
            if (have) { arg_next(base, &off, 8); nargs++; }
            break;
        default:                            /* unknown conversion: print it literally */
            sb_put(&s, pct, (size_t)(q - pct));
            break;
        }
        p = q;
    }
    if (s.oom) {
        free(s.p);
        return -2;
    }
    if (!s.p) {
        s.p = calloc(1, 1);
        if (!s.p)
            return -2;
    }
    *out = s.p;
    *outlen = s.len;
    return nargs;
}

int32_t npu_exec_vprintf(const char *fmt, const void *args)
{
    char *txt;
    size_t len;
    int32_t r = npu_exec_format(fmt, args, &txt, &len);
    if (r < 0)
        return r;
    flockfile(stdout);
    fwrite(txt, 1, len, stdout);
    funlockfile(stdout);
    free(txt);
    return r;
}
