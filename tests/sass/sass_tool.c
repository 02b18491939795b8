/*
 * sass_tool.c - test-side driver of the SASS decoder (npu_runtime/kernel/sass_decode.c).
 * Not part of the library; the full cubin loader is npu_runtime/kernel/sass_elf.c. This
 * file only needs to find .text sections, so its ELF reader is minimal.
 *
 *   sass_tool dis [-sm N] FILE.cubin...   every .text.* section: "## <section> sm_<N>",
 *                                         then "<pc hex>\t<text>" per instruction, or
 *                                         "<pc hex>\t!! <status>: <message>"
 *   sass_tool raw SM FILE.bin [BASE]      the same for a raw instruction stream
 *   sass_tool blob SM OUT.bin FILE.cubin...  concatenates the .text sections of the cubins
 *                                         built for SM into one raw stream (for a single
 *                                         nvdisasm -b run) and lists "<offset> <section>"
 *   sass_tool extract LIB.so DIR ARCH...  writes the ELF (cubin) entries for the given
 *                                         archs of the .nv_fatbin section of LIB.so to DIR
 *                                         (zstd / LZ4 compressed entries are expanded)
 *   sass_tool robust N SEED [BLOB SM]     decodes N random and truncated buffers (with
 *                                         BLOB: half of them real instructions of BLOB with
 *                                         1-3 random bits flipped); checks that nothing
 *                                         crashes, that every accepted instruction formats
 *                                         within bounds, and that a rejected one comes with a
 *                                         message and no operands; prints counts
 */
#include "npu_runtime/kernel/sass.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = p ? (size_t)n : 0;
    return p;
}

/* ---------------------------------------------------------------- ELF ---- */
typedef struct sec {
    const char *name;
    const uint8_t *data;
    uint64_t size;
} sec_t;

/* sections of an ELF64 little-endian image; returns count (<= max), -1 if not ELF64 */
static int elf_sections(const uint8_t *d, size_t len, sec_t *out, int max, unsigned *sm)
{
    if (len < 64 || memcmp(d, "\177ELF", 4) || d[4] != 2 || d[5] != 1)
        return -1;
    uint64_t shoff = rd64(d + 0x28);
    uint16_t shes = rd16(d + 0x3a), shn = rd16(d + 0x3c), shstr = rd16(d + 0x3e);
    if (shes < 64 || shoff > len || (uint64_t)shn * shes > len - shoff || shstr >= shn)
        return -1;
    if (sm) {
        uint32_t flags = rd32(d + 0x30);
        *sm = d[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;   /* EI_ABIVERSION */
    }
    const uint8_t *ss = d + shoff + (size_t)shstr * shes;
    uint64_t stro = rd64(ss + 0x18), strsz = rd64(ss + 0x20);
    if (stro > len || strsz > len - stro)
        return -1;
    int n = 0;
    for (unsigned i = 0; i < shn && n < max; i++) {
        const uint8_t *s = d + shoff + (size_t)i * shes;
        uint32_t nm = rd32(s);
        uint32_t type = rd32(s + 4);
        uint64_t off = rd64(s + 0x18), sz = rd64(s + 0x20);
        if (nm >= strsz || memchr(d + stro + nm, 0, strsz - nm) == NULL)
            continue;
        if (type == 8 /* NOBITS */ || off > len || sz > len - off)
            continue;
        out[n].name = (const char *)d + stro + nm;
        out[n].data = d + off;
        out[n].size = sz;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------- decoding ---- */
static void dis_stream(const uint8_t *p, uint64_t size, unsigned sm, uint64_t base)
{
    char text[512], err[256];
    for (uint64_t off = 0; off < size; off += 16) {
        sass_insn_t in;
        sass_status_t st = sass_decode(p + off, size - off, base + off, sm, &in, err, sizeof err);
        if (st == SASS_OK) {
            sass_format(&in, text, sizeof text);
            printf("%llx\t%s\n", (unsigned long long)(base + off), text);
        } else {
            printf("%llx\t!! %s: %s\n", (unsigned long long)(base + off), sass_status_name(st), err);
        }
    }
}

static int cmd_dis(int argc, char **argv)
{
    unsigned force = 0;
    int i = 0;
    if (argc >= 2 && !strcmp(argv[0], "-sm")) {
        force = (unsigned)atoi(argv[1]);
        i = 2;
    }
    static sec_t secs[1 << 16];
    for (; i < argc; i++) {
        size_t len;
        uint8_t *d = slurp(argv[i], &len);
        unsigned sm = 0;
        int n = d ? elf_sections(d, len, secs, 1 << 16, &sm) : -1;
        if (n < 0) {
            fprintf(stderr, "%s: not an ELF64 file\n", argv[i]);
            free(d);
            return 1;
        }
        if (force)
            sm = force;
        for (int k = 0; k < n; k++) {
            if (strncmp(secs[k].name, ".text.", 6))
                continue;
            printf("## %s sm_%u\n", secs[k].name, sm);
            dis_stream(secs[k].data, secs[k].size, sm, 0);
        }
        free(d);
    }
    return 0;
}

static int cmd_raw(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    size_t len;
    uint8_t *d = slurp(argv[1], &len);
    if (!d && len)
        return 1;
    dis_stream(d, len, (unsigned)atoi(argv[0]), argc > 2 ? strtoull(argv[2], 0, 0) : 0);
    free(d);
    return 0;
}

static int cmd_blob(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    unsigned want = (unsigned)atoi(argv[0]);
    FILE *out = fopen(argv[1], "wb");
    if (!out)
        return 1;
    static sec_t secs[1 << 16];
    uint64_t pos = 0;
    for (int i = 2; i < argc; i++) {
        size_t len;
        uint8_t *d = slurp(argv[i], &len);
        unsigned sm = 0;
        int n = d ? elf_sections(d, len, secs, 1 << 16, &sm) : -1;
        if (n < 0 || sm != want) {
            free(d);
            continue;
        }
        for (int k = 0; k < n; k++) {
            if (strncmp(secs[k].name, ".text.", 6) || secs[k].size % 16)
                continue;
            printf("%llx %s %s\n", (unsigned long long)pos, argv[i], secs[k].name);
            fwrite(secs[k].data, 1, secs[k].size, out);
            pos += secs[k].size;
        }
        free(d);
    }
    fclose(out);
    return 0;
}

/* ---------------------------------------------------------- fatbin walk ---- */
static int cmd_extract(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    size_t len;
    uint8_t *d = slurp(argv[0], &len);
    static sec_t secs[4096];
    int n = d ? elf_sections(d, len, secs, 4096, NULL) : -1;
    const sec_t *fb = NULL;
    for (int k = 0; k < n; k++)
        if (!strcmp(secs[k].name, ".nv_fatbin"))
            fb = &secs[k];
    if (!fb) {
        fprintf(stderr, "%s: no .nv_fatbin section\n", argv[0]);
        return 1;
    }
    int count = 0, bad = 0;
    const uint8_t *p = fb->data, *end = fb->data + fb->size;
    while (p + 16 <= end) {
        if (rd32(p) != 0xBA55ED50u) {       /* fatbins are 8-aligned in the section */
            p += 8;
            continue;
        }
        uint16_t hs = rd16(p + 6);
        uint64_t fs = rd64(p + 8);
        if (hs < 16 || fs > (uint64_t)(end - p) - hs)
            break;
        const uint8_t *e = p + hs, *fend = p + hs + fs;
        while (e + 64 <= fend) {
            uint16_t kind = rd16(e);
            uint32_t ehs = rd32(e + 4), arch = rd32(e + 28), cs = rd32(e + 16);
            uint64_t ps = rd64(e + 8), flags = rd64(e + 40), us = rd64(e + 56);
            if (ehs < 64 || ehs > (uint64_t)(fend - e) || ps > (uint64_t)(fend - e) - ehs)
                break;
            int want = 0;
            for (int a = 2; a < argc; a++)
                if ((unsigned)atoi(argv[a]) == arch)
                    want = 1;
            if (kind == 2 && want) {
                const uint8_t *pl = e + ehs;
                uint8_t *buf = NULL;
                size_t bl = 0;
                if (flags & 0xa000) {
                    if (us == 0 || us > (1ull << 32) || cs > ps) {
                        bad++;
                        goto next;
                    }
                    buf = malloc(us);
                    if (flags & 0x8000) {
                        size_t r = ZSTD_decompress(buf, us, pl, cs);
                        bl = ZSTD_isError(r) ? 0 : r;
                    } else {
                        int r = LZ4_decompress_safe((const char *)pl, (char *)buf, (int)cs, (int)us);
                        bl = r > 0 ? (size_t)r : 0;
                    }
                } else {
                    buf = malloc(ps ? ps : 1);
                    memcpy(buf, pl, ps);
                    bl = ps;
                }
                if (bl) {
                    char path[4096];
                    snprintf(path, sizeof path, "%s/%05d_sm_%u.cubin", argv[1], count++, arch);
                    FILE *f = fopen(path, "wb");
                    if (!f || fwrite(buf, 1, bl, f) != bl) {
                        fprintf(stderr, "cannot write %s\n", path);
                        return 1;
                    }
                    fclose(f);
                } else {
                    bad++;
                }
                free(buf);
            }
        next:
            e += ehs + ps;
        }
        p = fend;
    }
    printf("%d cubins written, %d entries could not be expanded\n", count, bad);
    free(d);
    return bad ? 1 : 0;
}

/* --------------------------------------------------------- robustness ---- */
static uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmd_robust(int argc, char **argv)
{
    long n = argc > 0 ? atol(argv[0]) : 100000;
    rng = argc > 1 ? strtoull(argv[1], 0, 0) | 1 : 0x9e3779b97f4a7c15ull;
    size_t blen = 0;
    uint8_t *blob = argc > 3 ? slurp(argv[2], &blen) : NULL;
    unsigned bsm = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
    blen &= ~(size_t)15;
    static const unsigned sms[] = {75, 80, 86, 89, 70, 90, 0};
    long counts[5] = {0};
    char text[512], err[256];
    for (long i = 0; i < n; i++) {
        uint8_t buf[16];
        uint64_t a = next(), b = next();
        /* half of the inputs keep a known opcode in bits 0-11 to reach the handlers */
        if (i & 1)
            a = (a & ~0xfffull) | (next() & 0xfff);
        memcpy(buf, &a, 8);
        memcpy(buf + 8, &b, 8);
        size_t len = (i % 17 == 0) ? (size_t)(next() % 16) : 16;
        unsigned sm = sms[i % 7];
        if (blob && blen && (i % 4) >= 2) {         /* a real instruction, bits flipped */
            memcpy(buf, blob + (next() % (blen / 16)) * 16, 16);
            for (int k = 0, nb = 1 + (int)(next() % 3); k < nb; k++) {
                unsigned bit = (unsigned)(next() % 128);
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            memcpy(&a, buf, 8);
            memcpy(&b, buf + 8, 8);
            len = 16;
            sm = bsm;
        }
        sass_insn_t in;
        err[0] = 0;
        sass_status_t st = sass_decode(buf, len, (next() % 1024) * 16, sm, &in, err, sizeof err);
        if ((unsigned)st > SASS_EFIELD) {
            printf("FAIL bad status %d\n", st);
            return 1;
        }
        counts[st]++;
        if (st == SASS_OK) {
            int k = sass_format(&in, text, sizeof text);
            if (k <= 0 || (size_t)k >= sizeof text || (int)strlen(text) != k) {
                printf("FAIL format length %d for %016llx %016llx\n", k,
                       (unsigned long long)a, (unsigned long long)b);
                return 1;
            }
            /* a tiny buffer must truncate, never overflow */
            char small[8];
            memset(small, 'x', sizeof small);
            sass_format(&in, small, 5);
            if (memchr(small, 0, 5) == NULL || small[5] != 'x') {
                printf("FAIL format overflow\n");
                return 1;
            }
        } else if (!err[0] || in.nopnds || in.nmods || in.op != SASS_OP_NONE) {
            printf("FAIL rejection without a message or with leftovers (status %d)\n", st);
            return 1;
        }
    }
    printf("decoded %ld: ok %ld truncated %ld bad-arch %ld unknown-opcode %ld bad-field %ld\n",
           n, counts[0], counts[1], counts[2], counts[3], counts[4]);
    free(blob);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sass_tool dis|raw|blob|extract|robust ...\n");
        return 2;
    }
    if (!strcmp(argv[1], "dis"))
        return cmd_dis(argc - 2, argv + 2);
    if (!strcmp(argv[1], "raw"))
        return cmd_raw(argc - 2, argv + 2);
    if (!strcmp(argv[1], "blob"))
        return cmd_blob(argc - 2, argv + 2);
    if (!strcmp(argv[1], "extract"))
        return cmd_extract(argc - 2, argv + 2);
    if (!strcmp(argv[1], "robust"))
        return cmd_robust(argc - 2, argv + 2);
    fprintf(stderr, "unknown command %s\n", argv[1]);
    return 2;
}
