/*
 * test_fatbin.c - fatbin reader against real nvcc output (built at test time in a temp dir):
 * zstd (default), LZ4 (--compress-mode=speed), stored (--compress-mode=none), ELF-only
 * (code=sm_80 -> NPU_ENOIMAGE), several PTX archs (the best one wins), wrappers of version 1
 * and 2 (-rdc=true objects), and corrupted copies (NPU_EFATBIN, never a crash). The reference
 * PTX text is `nvcc -ptx` of the same source.
 */
#include "npu_runtime/kernel/npu_kernel.h"
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static const char *nvcc;

static int run(const char *fmt, const char *a, const char *b)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && ", dir);
    size_t n = strlen(cmd);
    snprintf(cmd + n, sizeof cmd - n, fmt, nvcc, a, b);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "command failed: %s\n", cmd);
    return rc;
}

static uint8_t *slurp(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* 8-byte aligned copy with slack, as a fatbin sits in .nv_fatbin */
    uint8_t *p = aligned_alloc(8, ((size_t)n + 64) & ~(size_t)7);
    if (fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); fclose(f); return NULL; }
    fclose(f);
    *len = (size_t)n;
    return p;
}

static const char *src =
    "__global__ void scale(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
    " if (i < n) a[i] *= 2.0f; }\n";

/* PTX with // comments and all white space removed: the fatbin copy drops comments and
 * indentation that `nvcc -ptx` keeps. */
static char *norm(const char *t)
{
    char *o = malloc(strlen(t) + 1), *q = o;
    while (*t) {
        if (t[0] == '/' && t[1] == '/') { while (*t && *t != '\n') t++; continue; }
        if (*t != ' ' && *t != '\t' && *t != '\n' && *t != '\r') *q++ = *t;
        t++;
    }
    *q = 0;
    return o;
}

static int same_ptx(const char *a, const char *b)
{
    char *na = norm(a), *nb = norm(b);
    int r = strcmp(na, nb) == 0 && strlen(na) > 100;
    free(na); free(nb);
    return r;
}

/* offset of the first PTX entry header in a fatbin, or 0 */
static size_t first_ptx(const uint8_t *fb)
{
    uint16_t hs; uint64_t fs;
    memcpy(&hs, fb + 6, 2); memcpy(&fs, fb + 8, 8);
    size_t off = hs;
    while (off < hs + fs) {
        uint16_t kind; uint32_t ehs; uint64_t ps;
        memcpy(&kind, fb + off, 2); memcpy(&ehs, fb + off + 4, 4); memcpy(&ps, fb + off + 8, 8);
        if (kind == 1)
            return off;
        off += ehs + ps;
    }
    return 0;
}

static void check_image(const char *what, const uint8_t *fb, const char *ref, unsigned arch)
{
    npu_ptx_image_t img;
    npu_status_t st = npu_fatbin_extract_ptx(fb, &img);
    CHECK_MSG(st == NPU_OK, "%s: %s", what, npu_status_name(st));
    if (st != NPU_OK)
        return;
    CHECK_MSG(img.len == strlen(img.text), "%s", what);
    CHECK_MSG(same_ptx(img.text, ref), "%s: PTX differs from nvcc -ptx", what);
    CHECK_EQ(img.arch, arch);
    CHECK_MSG(img.ptx_version >= 80 && img.ptx_version < 200, "%s: ptx_version %u", what,
              img.ptx_version);
    npu_ptx_image_free(&img);
}

int main(void)
{
    nvcc = getenv("NVCC") ? getenv("NVCC") : "/usr/local/cuda/bin/nvcc";
    if (access(nvcc, X_OK) != 0) {
        printf("test_fatbin: no nvcc at %s, skipped\n", nvcc);
        return 0;
    }
    strcpy(dir, "/tmp/test_fatbin_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char path[256];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    fputs(src, f);
    fclose(f);

    int rc = 0;
    rc |= run("%s -ptx -arch=sm_80 k.cu -o k80.ptx", "", "");
    rc |= run("%s -ptx -arch=sm_90 k.cu -o k90.ptx", "", "");
    rc |= run("%s -fatbin -arch=sm_80 k.cu -o zstd.fatbin", "", "");
    rc |= run("%s -fatbin -arch=sm_80 --compress-mode=speed k.cu -o lz4.fatbin", "", "");
    rc |= run("%s -fatbin -arch=sm_80 --compress-mode=none k.cu -o none.fatbin", "", "");
    rc |= run("%s -fatbin -gencode arch=compute_80,code=sm_80 k.cu -o elf.fatbin", "", "");
    rc |= run("%s -fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,"
              "code=compute_90 -gencode arch=compute_80,code=compute_80 k.cu -o multi.fatbin", "", "");
    rc |= run("%s -fatbin -gencode arch=compute_90,code=compute_90 -gencode arch=compute_100,"
              "code=compute_100 k.cu -o newer.fatbin", "", "");
    rc |= run("%s -fatbin -rdc=true -arch=sm_80 k.cu -o rdc.fatbin", "", "");
    CHECK_EQ(rc, 0);
    if (rc) {
        return CHECK_DONE();
    }
    size_t n80, n90, nz, nl, nn, ne, nm, nw, nr;
    char *ref80 = (char *)slurp("k80.ptx", &n80), *ref90 = (char *)slurp("k90.ptx", &n90);
    ref80[n80] = 0;
    ref90[n90] = 0;
    uint8_t *zstd = slurp("zstd.fatbin", &nz), *lz4 = slurp("lz4.fatbin", &nl);
    uint8_t *none = slurp("none.fatbin", &nn), *elf = slurp("elf.fatbin", &ne);
    uint8_t *multi = slurp("multi.fatbin", &nm), *newer = slurp("newer.fatbin", &nw);
    uint8_t *rdc = slurp("rdc.fatbin", &nr);

    /* sizes */
    CHECK_EQ(npu_fatbin_size(zstd), nz);
    CHECK_EQ(npu_fatbin_size(none), nn);
    CHECK_EQ(npu_fatbin_size(ref80), 0);
    CHECK_EQ(npu_fatbin_size(NULL), 0);

    /* the three encodings; the flags say which one nvcc used */
    size_t pz = first_ptx(zstd), pl = first_ptx(lz4), pn = first_ptx(none);
    uint64_t flz, fll, fln;
    memcpy(&flz, zstd + pz + 40, 8); memcpy(&fll, lz4 + pl + 40, 8); memcpy(&fln, none + pn + 40, 8);
    CHECK(flz & 0x8000);
    CHECK(fll & 0x2000);
    CHECK(!(fln & 0xa000));
    check_image("zstd", zstd, ref80, 80);
    check_image("lz4", lz4, ref80, 80);
    check_image("none", none, ref80, 80);
    check_image("multi (75, 90, 80 -> 90)", multi, ref90, 90);

    npu_ptx_image_t img;
    CHECK_EQ(npu_fatbin_extract_ptx(newer, &img), NPU_OK);   /* 90 preferred over 100 */
    CHECK_EQ(img.arch, 90);
    npu_ptx_image_free(&img);
    CHECK_EQ(npu_fatbin_extract_ptx(elf, &img), NPU_ENOIMAGE);

    /* version-1 wrapper, and extract_all on it */
    struct { int magic, version; const void *data; void *fof; } w1 = { 0x466243B1, 1, zstd, NULL };
    check_image("wrapper v1", (const uint8_t *)&w1, ref80, 80);
    npu_ptx_image_t *all = NULL;
    int count = 0;
    CHECK_EQ(npu_fatbin_extract_all(&w1, &all, &count), NPU_OK);
    CHECK_EQ(count, 1);
    if (count == 1) {
        CHECK(same_ptx(all[0].text, ref80));
        npu_ptx_image_free(&all[0]);
    }
    free(all);

    /* version-2 wrapper (-rdc=true): data = the linked ELF-only image, then objects */
    void *objs[3] = { rdc, lz4, NULL };
    struct { int magic, version; const void *data; void *fof; } w2 = { 0x466243B1, 2, elf, objs };
    CHECK_EQ(npu_fatbin_extract_all(&w2, &all, &count), NPU_OK);
    CHECK_EQ(count, 2);
    if (count == 2) {
        CHECK(strstr(all[0].text, ".entry _Z5scalePfi") != NULL);
        CHECK(same_ptx(all[1].text, ref80));
        npu_ptx_image_free(&all[0]);
        npu_ptx_image_free(&all[1]);
    }
    free(all);
    CHECK_EQ(npu_fatbin_extract_ptx(&w2, &img), NPU_ENOIMAGE);  /* two objects: need extract_all */
    void *objs1[2] = { rdc, NULL };
    w2.fof = objs1;
    CHECK_EQ(npu_fatbin_extract_ptx(&w2, &img), NPU_OK);
    npu_ptx_image_free(&img);
    void *objs_elf[3] = { rdc, elf, NULL };
    w2.fof = objs_elf;
    CHECK_EQ(npu_fatbin_extract_all(&w2, &all, &count), NPU_ENOIMAGE);
    CHECK(all == NULL);

    /* bad inputs */
    CHECK_EQ(npu_fatbin_extract_ptx(NULL, &img), NPU_EINVAL);
    CHECK_EQ(npu_fatbin_extract_ptx(zstd, NULL), NPU_EINVAL);
    CHECK_EQ(npu_fatbin_extract_all(zstd, NULL, &count), NPU_EINVAL);
    struct { int magic, version; const void *data; void *fof; } w3 = { 0x466243B1, 7, zstd, NULL };
    CHECK_EQ(npu_fatbin_extract_ptx(&w3, &img), NPU_EFATBIN);   /* unknown wrapper version */
    w3.version = 1; w3.data = NULL;
    CHECK_EQ(npu_fatbin_extract_ptx(&w3, &img), NPU_EFATBIN);

    uint8_t *c = malloc(nz + 64);
    /* flipped magic */
    memcpy(c, zstd, nz); c[0] ^= 0xff;
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* fat_size too small: the entries run past the declared end */
    memcpy(c, zstd, nz); { uint64_t fs = 100; memcpy(c + 8, &fs, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* fat_size cut in the middle of the PTX entry's payload */
    memcpy(c, zstd, nz); { uint64_t fs = pz - 16 + 80 + 10; memcpy(c + 8, &fs, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* payload size absurd */
    memcpy(c, zstd, nz); { uint64_t ps = 1ull << 60; memcpy(c + pz + 8, &ps, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* entry header size absurd and too small */
    memcpy(c, zstd, nz); { uint32_t hs = 0xfffffff0u; memcpy(c + pz + 4, &hs, 4); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    memcpy(c, zstd, nz); { uint32_t hs = 8; memcpy(c + pz + 4, &hs, 4); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* compressed size larger than the payload */
    memcpy(c, zstd, nz); { uint32_t cs = 1u << 30; memcpy(c + pz + 16, &cs, 4); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    /* garbage compressed payloads */
    memcpy(c, zstd, nz); memset(c + pz + 80 + 8, 0x5a, 64);
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    memcpy(c, zstd, nz); { uint64_t us = 1ull << 40; memcpy(c + pz + 56, &us, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);
    memcpy(c, zstd, nz); { uint64_t us = 100; memcpy(c + pz + 56, &us, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(c, &img), NPU_EFATBIN);   /* wrong uncompressed size */
    uint8_t *cl = malloc(nl + 64);
    memcpy(cl, lz4, nl); memset(cl + pl + 80, 0xff, 48);
    CHECK_EQ(npu_fatbin_extract_ptx(cl, &img), NPU_EFATBIN);
    memcpy(cl, lz4, nl); { uint64_t us = 3; memcpy(cl + pl + 56, &us, 8); }
    CHECK_EQ(npu_fatbin_extract_ptx(cl, &img), NPU_EFATBIN);
    /* stored PTX without a NUL */
    uint8_t *cn = malloc(nn + 64);
    memcpy(cn, none, nn);
    { uint64_t ps; uint32_t ehs; memcpy(&ps, cn + pn + 8, 8); memcpy(&ehs, cn + pn + 4, 4);
      for (uint64_t i = 0; i < ps; i++) if (cn[pn + ehs + i] == 0) cn[pn + ehs + i] = ' '; }
    CHECK_EQ(npu_fatbin_extract_ptx(cn, &img), NPU_EFATBIN);
    /* random byte flips in headers never crash (statuses vary) */
    srand(1234);
    for (int i = 0; i < 2000; i++) {
        memcpy(c, zstd, nz);
        size_t at = (size_t)rand() % (pz + 80);
        c[at] ^= (uint8_t)(1u << (rand() % 8));
        npu_status_t st = npu_fatbin_extract_ptx(c, &img);
        if (st == NPU_OK)
            npu_ptx_image_free(&img);
        else
            CHECK_MSG(st == NPU_EFATBIN || st == NPU_ENOIMAGE, "flip at %zu: %s", at,
                      npu_status_name(st));
    }
    free(c); free(cl); free(cn);
    free(zstd); free(lz4); free(none); free(elf); free(multi); free(newer); free(rdc);
    free(ref80); free(ref90);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
