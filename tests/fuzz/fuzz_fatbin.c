/*
 * fuzz_fatbin.c - libFuzzer harness for npu_fatbin_extract_ptx / npu_fatbin_extract_all /
 * npu_fatbin_size (npu_runtime/kernel/fatbin.c).
 *
 * The contract fatbin.c claims: a caller-supplied pointer carries no length, so the fatbin
 * header's fat_size is the bound, and every read stays inside header_size + fat_size. The
 * harness therefore makes fat_size truthful (header_size + fat_size == the bytes it owns,
 * in an exactly-sized malloc block) and lets ASan flag every read beyond it: any such read
 * is a bug the parser should have bounded. Everything else in the headers (entry sizes,
 * flags, compressed sizes, arch, options) is left as the fuzzer wrote it.
 *
 * Input layout: byte 0 selects the shape, the rest is payload.
 *   mode % 4 == 0: a raw fatbin (magic 0xBA55ED50)
 *   mode % 4 == 1: a wrapper {0x466243B1, version 1, data -> fatbin, NULL}
 *   mode % 4 == 2: a wrapper of version 2 (-rdc=true) whose data is the first fatbin and
 *                  filename_or_fatbins a NULL-terminated array of the others; the payload is
 *                  split into fatbins at each "FBSP" separator (at most 8)
 *   mode % 4 == 3: a wrapper with the version taken from byte 1 (bad versions must fail)
 */
#include "npu_runtime/kernel/npu_kernel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC  0xBA55ED50u
#define FATBINC_MAGIC 0x466243B1u

typedef struct {
    int32_t magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} wrapper_t;

/* An exactly-sized copy of [p, p+n) made into a fatbin whose header tells the truth about
 * its size. n < 16: the header is padded with zeros. */
static uint8_t *make_fatbin(const uint8_t *p, size_t n)
{
    size_t sz = n < 16 ? 16 : n;
    uint8_t *b = malloc(sz);
    if (!b)
        return NULL;
    memset(b, 0, sz);
    memcpy(b, p, n);
    uint32_t magic = FATBIN_MAGIC;
    memcpy(b, &magic, 4);
    uint16_t hs;
    memcpy(&hs, b + 6, 2);
    if (hs < 16 || hs > sz) {
        hs = 16;
        memcpy(b + 6, &hs, 2);
    }
    uint64_t fs = sz - hs;
    memcpy(b + 8, &fs, 8);
    return b;
}

static void consume(const npu_ptx_image_t *img)
{
    /* touch the result: the text must be NUL-terminated at len */
    if (img->text && img->text[img->len] != 0)
        abort();
    if (img->text && strlen(img->text) != img->len)
        abort();
}

static void run_one(const void *data)
{
    npu_ptx_image_t img;
    if (npu_fatbin_extract_ptx(data, &img) == NPU_OK) {
        consume(&img);
        npu_ptx_image_free(&img);
    }
    npu_ptx_image_t *all = NULL;
    int count = 0;
    if (npu_fatbin_extract_all(data, &all, &count) == NPU_OK) {
        if (count < 1 || !all)
            abort();
        for (int i = 0; i < count; i++) {
            consume(&all[i]);
            npu_ptx_image_free(&all[i]);
        }
        free(all);
    } else if (all || count) {
        abort();                        /* failure must leave *out NULL and *count 0 */
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    setenv("TRANSFER_TO_NPU_LOG", "off", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
    if (n < 1)
        return 0;
    int mode = in[0] % 4;
    const uint8_t *p = in + 1;
    size_t len = n - 1;
    if (mode == 0) {
        uint8_t *fb = make_fatbin(p, len);
        if (!fb)
            return 0;
        size_t sz = npu_fatbin_size(fb);
        if (sz != (len < 16 ? 16 : len))
            abort();
        run_one(fb);
        free(fb);
        return 0;
    }
    if (mode == 1 || mode == 3) {
        int version = 1;
        if (mode == 3) {
            if (len < 1)
                return 0;
            version = (int8_t)p[0];
            p++, len--;
        }
        uint8_t *fb = make_fatbin(p, len);
        if (!fb)
            return 0;
        wrapper_t *w = malloc(sizeof *w);
        if (!w) {
            free(fb);
            return 0;
        }
        w->magic = (int32_t)FATBINC_MAGIC;
        w->version = version;
        w->data = (const unsigned long long *)fb;
        w->filename_or_fatbins = NULL;
        run_one(w);
        free(w);
        free(fb);
        return 0;
    }
    /* mode 2: version-2 wrapper over up to 9 fatbins */
    uint8_t *fbs[9];
    int nfb = 0;
    size_t start = 0;
    while (nfb < 9) {
        const uint8_t *sep = nfb < 8 ? memmem(p + start, len - start, "FBSP", 4) : NULL;
        size_t end = sep ? (size_t)(sep - p) : len;
        fbs[nfb] = make_fatbin(p + start, end - start);
        if (!fbs[nfb])
            break;
        nfb++;
        if (!sep)
            break;
        start = end + 4;
    }
    if (nfb == 0)
        return 0;
    void **objs = calloc((size_t)nfb, sizeof(void *));    /* nfb - 1 objects + NULL */
    wrapper_t *w = malloc(sizeof *w);
    if (objs && w) {
        for (int i = 1; i < nfb; i++)
            objs[i - 1] = fbs[i];
        objs[nfb - 1] = NULL;
        w->magic = (int32_t)FATBINC_MAGIC;
        w->version = 2;
        w->data = (const unsigned long long *)fbs[0];
        w->filename_or_fatbins = objs;
        run_one(w);
    }
    free(w);
    free(objs);
    for (int i = 0; i < nfb; i++)
        free(fbs[i]);
    return 0;
}
