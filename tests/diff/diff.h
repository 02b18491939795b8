/*
 * diff.h - differential tests: results recorded on a real NVIDIA GPU are the reference.
 *
 * A diff program (tests/diff/*.cu) computes named sections of results on the device from inputs
 * it generates itself (fixed seeds, so every run sees the same inputs) and hands each section to
 * diff_section(). Two modes:
 *   prog --record FILE   writes every section to FILE (run on a real GPU by scripts/gpu_diff.sh;
 *                        the files are committed under tests/diff/ref/)
 *   prog FILE            compares every section with the one of the same name in FILE and
 *                        prints the first mismatches of each; exit 0 only if all sections match
 *   prog FILE --known K  as above, but the sections named in K (one per line: name, then why)
 *                        are known differences: they print "known" and do not fail the run; a
 *                        known section that matches fails it ("FIXED ... remove it from K"), so
 *                        the list only shrinks
 * Kinds: DK_U8..DK_U64 must match bit for bit; DK_F16/DK_BF16/DK_F32/DK_F64 match within `tol`
 * units in the last place (0 = bit for bit; any NaN matches any NaN, since NaN payloads are not
 * part of the result; +0 and -0 differ).
 * File: "TTNDIFF1", a 64-byte device name, then sections: 48-byte name, u32 kind, u32 tol,
 * u64 count, count*size bytes. Host byte order (x86-64 on both sides).
 */
#ifndef TTN_DIFF_H
#define TTN_DIFF_H
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

enum { DK_U8 = 1, DK_U16 = 2, DK_U32 = 4, DK_U64 = 8, DK_F16 = 16, DK_BF16 = 17, DK_F32 = 18, DK_F64 = 19 };

static inline size_t diff_kind_size(int k)
{
    switch (k) { case DK_U8: return 1; case DK_U16: case DK_F16: case DK_BF16: return 2;
    case DK_U32: case DK_F32: return 4; default: return 8; }
}

static struct {
    int record, failed_sections, sections, api_errors, known_differ;
    FILE *out;
    char *known;                 /* "\nname1\nname2\n": the known-difference names */
    unsigned char *ref; size_t ref_len;
} diff_;

#define DCK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { diff_.api_errors++; \
    fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); } } while (0)

/* deterministic generator shared by all diff programs (splitmix64) */
static inline uint64_t diff_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline float diff_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t diff_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double diff_u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t diff_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static int diff_begin(int argc, char **argv)
{
    const char *file = NULL;
    const char *known = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--record")) diff_.record = 1;
        else if (!strcmp(argv[i], "--known") && i + 1 < argc) known = argv[++i];
        else file = argv[i];
    }
    if (known) {
        FILE *k = fopen(known, "r");
        if (!k) { perror(known); exit(2); }
        size_t cap = 4096, len = 1;
        diff_.known = (char *)malloc(cap);
        diff_.known[0] = '\n';
        char line[512];
        while (fgets(line, sizeof line, k)) {
            char nm[64];
            if (line[0] == '#' || sscanf(line, "%63s", nm) != 1) continue;
            size_t n = strlen(nm);
            if (len + n + 2 >= cap) diff_.known = (char *)realloc(diff_.known, cap *= 2);
            memcpy(diff_.known + len, nm, n);
            len += n;
            diff_.known[len++] = '\n';
        }
        diff_.known[len] = 0;
        fclose(k);
    }
    if (!file) { fprintf(stderr, "usage: %s [--record] FILE\n", argv[0]); exit(2); }
    char dev[64] = {0};
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) == cudaSuccess) strncpy(dev, p.name, sizeof dev - 1);
    if (diff_.record) {
        diff_.out = fopen(file, "wb");
        if (!diff_.out) { perror(file); exit(2); }
        fwrite("TTNDIFF1", 1, 8, diff_.out);
        fwrite(dev, 1, 64, diff_.out);
        return 0;
    }
    FILE *f = fopen(file, "rb");
    if (!f) { fprintf(stderr, "no reference %s: record it on a GPU (scripts/gpu_diff.sh)\n", file); exit(1); }
    fseek(f, 0, SEEK_END);
    diff_.ref_len = (size_t)ftell(f);
    rewind(f);
    diff_.ref = (unsigned char *)malloc(diff_.ref_len + 1);
    if (fread(diff_.ref, 1, diff_.ref_len, f) != diff_.ref_len || diff_.ref_len < 72 ||
        memcmp(diff_.ref, "TTNDIFF1", 8)) { fprintf(stderr, "%s: not a diff reference\n", file); exit(1); }
    fclose(f);
    printf("reference recorded on: %.64s\n", (const char *)diff_.ref + 8);
    return 0;
}

/* signed distance of two values of a float kind in representable steps (NaN,NaN -> 0) */
static inline double diff_ulps(int kind, uint64_t a, uint64_t b)
{
    int bits = kind == DK_F64 ? 64 : kind == DK_F32 ? 32 : 16;
    int ebits = kind == DK_F64 ? 11 : kind == DK_F32 ? 8 : kind == DK_F16 ? 5 : 8;
    int mbits = bits - 1 - ebits;
    uint64_t sign = 1ull << (bits - 1), mag = sign - 1, expm = ((1ull << ebits) - 1) << mbits;
    int nana = (a & expm) == expm && (a & ((1ull << mbits) - 1));
    int nanb = (b & expm) == expm && (b & ((1ull << mbits) - 1));
    if (nana || nanb) return nana && nanb ? 0 : INFINITY;
    if (a == b) return 0;
    if ((a & mag) == 0 && (b & mag) == 0) return INFINITY;   /* +0 vs -0 */
    double oa = (a & sign) ? -(double)(a & mag) : (double)(a & mag);
    double ob = (b & sign) ? -(double)(b & mag) : (double)(b & mag);
    return fabs(oa - ob);
}

static inline uint64_t diff_get(const void *p, size_t i, size_t sz)
{
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * sz, sz);
    return v;
}

static inline double diff_as_double(int kind, uint64_t v)
{
    switch (kind) {
    case DK_F32: return diff_u2f((uint32_t)v);
    case DK_F64: return diff_u2d(v);
    case DK_BF16: return diff_u2f((uint32_t)v << 16);
    case DK_F16: { int e = (v >> 10) & 31, m = v & 1023; double s = (v & 0x8000) ? -1 : 1;
        if (e == 31) return m ? NAN : s * INFINITY;
        return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24)); }
    default: return (double)v;
    }
}

/* Records or compares one section. `inputs` (optional, same count, kind `ikind`) are printed
 * beside mismatches to make a failure readable. Returns the number of mismatches. */
static size_t diff_section_in(const char *name, int kind, unsigned tol, const void *data, size_t count,
                              int ikind, const void *inputs)
{
    size_t sz = diff_kind_size(kind);
    diff_.sections++;
    if (diff_.record) {
        char nm[48] = {0};
        strncpy(nm, name, 47);
        uint32_t k = (uint32_t)kind, t = tol;
        uint64_t c = count;
        fwrite(nm, 1, 48, diff_.out); fwrite(&k, 4, 1, diff_.out); fwrite(&t, 4, 1, diff_.out);
        fwrite(&c, 8, 1, diff_.out); fwrite(data, sz, count, diff_.out);
        return 0;
    }
    size_t off = 72;
    while (off + 64 <= diff_.ref_len) {
        const char *nm = (const char *)diff_.ref + off;
        uint32_t k, t; uint64_t c;
        memcpy(&k, diff_.ref + off + 48, 4); memcpy(&t, diff_.ref + off + 52, 4); memcpy(&c, diff_.ref + off + 56, 8);
        size_t bytes = (size_t)c * diff_kind_size((int)k);
        if (!strncmp(nm, name, 47) && strlen(name) <= 47) {
            if ((int)k != kind || c != count) {
                printf("FAIL %s: recorded as kind %u x %llu, now kind %d x %zu (re-record on a GPU)\n",
                       name, k, (unsigned long long)c, kind, count);
                diff_.failed_sections++;
                return count ? count : 1;
            }
            const unsigned char *ref = diff_.ref + off + 64;
            size_t bad = 0;
            double worst = 0;
            for (size_t i = 0; i < count; i++) {
                uint64_t a = diff_get(data, i, sz), b = diff_get(ref, i, sz);
                int ok;
                if (kind >= DK_F16) {
                    double u = diff_ulps(kind, a, b);
                    if (u > worst) worst = u;
                    ok = u <= tol;
                } else ok = a == b;
                if (!ok) {
                    if (bad < 8) {
                        printf("  %s[%zu]: npu 0x%llx (%.9g) gpu 0x%llx (%.9g)", name, i, (unsigned long long)a,
                               diff_as_double(kind, a), (unsigned long long)b, diff_as_double(kind, b));
                        if (inputs) {
                            uint64_t x = diff_get(inputs, i, diff_kind_size(ikind));
                            printf("  input 0x%llx (%.9g)", (unsigned long long)x, diff_as_double(ikind, x));
                        }
                        printf("\n");
                    }
                    bad++;
                }
            }
            char key[64];
            snprintf(key, sizeof key, "\n%s\n", name);
            int is_known = diff_.known && strstr(diff_.known, key);
            if (bad && is_known) {
                diff_.known_differ++;
                printf("known %s: %zu of %zu differ (a known difference)\n", name, bad, count);
            } else if (bad) {
                diff_.failed_sections++;
                printf("FAIL %s: %zu of %zu differ (tolerance %u ulp)\n", name, bad, count, tol);
            } else if (is_known) {
                diff_.failed_sections++;
                printf("FIXED %s: matches now; remove it from the known differences\n", name);
            } else if (kind >= DK_F16 && worst > 0) {
                printf("ok   %s: %zu values, worst %.0f ulp (tolerance %u)\n", name, count, worst, tol);
            } else printf("ok   %s: %zu values\n", name, count);
            return bad;
        }
        off += 64 + bytes;
    }
    printf("FAIL %s: not in the reference (re-record on a GPU)\n", name);
    diff_.failed_sections++;
    return 1;
}
static inline size_t diff_section(const char *name, int kind, unsigned tol, const void *data, size_t count)
{
    return diff_section_in(name, kind, tol, data, count, 0, NULL);
}

static int diff_end(void)
{
    if (diff_.record) { fclose(diff_.out); printf("recorded %d sections\n", diff_.sections); return diff_.api_errors ? 1 : 0; }
    printf("%d sections, %d fail, %d known differences, %d API errors\n", diff_.sections, diff_.failed_sections,
           diff_.known_differ, diff_.api_errors);
    return diff_.failed_sections || diff_.api_errors ? 1 : 0;
}
#endif
