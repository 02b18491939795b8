/*
 * fatbin.c - find and decompress the PTX or the cubins (ELF) in a CUDA fatbin (or a fatbin
 * wrapper).
 *
 * Layout, verified against nvcc 13.0 output (nvcc -fatbin, --compress-mode=..., -rdc=true):
 *   fatbin header (16 bytes): u32 magic 0xBA55ED50; u16 version (1); u16 header_size (16);
 *                             u64 fat_size (bytes of entries after the header)
 *   entry header (header_size bytes: 64 for ELF, 80 for PTX, 96 when it carries options such
 *   as "--compile-only" in -rdc objects; options_offset points inside the entry header):
 *     u16 kind (1 PTX, 2 ELF); u16 version (0x0101); u32 header_size; u64 payload_size
 *     (padded to 8); u32 compressed_size (exact; 0 = stored); u32 options_offset;
 *     u16 minor, major; u32 arch (sm_XX); u32 obj_name_offset, obj_name_len; u64 flags;
 *     u64 zero; u64 uncompressed_size
 *   The options, when present, are text inside the entry header at options_offset (nvcc
 *   13: u32 area size, u32 string length, then e.g. " -maxrregcount=20 "): the options
 *   nvcc wants the driver's JIT to apply to the PTX; -maxrregcount is read (max_regs).
 *   flags 0x8000: zstd frame (nvcc 13 default, --compress-mode=default|size|balance, and
 *   -Xfatbin -compress-all also for ELF); 0x2000: LZ4 block (--compress-mode=speed);
 *   --compress-mode=none stores PTX uncompressed with its terminating NUL.
 *   Wrapper {int magic 0x466243B1; int version; const u64 *data; void *filename_or_fatbins}:
 *   version 1 (whole-program) data is the fatbin; version 2 (-rdc=true, from crt/link.stub)
 *   data is the device-linked fatbin (ELF only) and filename_or_fatbins a NULL-terminated
 *   array of the per-object relocatable fatbins (raw fatbin data, each with its own PTX).
 *
 *   Entry flags seen on ELF entries (nvcc 13.0, measured with -gencode ... code=sm_90a / sm_100f
 *   / sm_120f next to plain sm_XX): 0x100000 arch-specific cubin ("a" suffix), 0x200000
 *   family-specific ("f"), 0x1000000 set on sm_100+ entries (which also carry options);
 *   0x11 on every entry. PyPI torch 2.15.0 (libtorch_cuda.so, 476 fatbins): ELF only, every
 *   entry zstd-compressed (flags 0x8000), sm_75/80/86/90/100/103/120 (+ one sm_89, sm_121).
 *
 * Choice of PTX: like the driver, prefer the highest arch we can claim (<= sm_90, the
 * compute capability the NPU reports); only when every PTX is newer take the highest one.
 * Ties go to the higher PTX ISA version recorded in the entry header.
 *
 * Choice of cubin (npu_fatbin_pick_cubin), CUDA's binary compatibility rule: "a cubin
 * generated for compute capability X.y will only execute on devices of compute capability
 * X.z where z >= y" (CUDA C++ Programming Guide, "Binary Compatibility"; the same test as
 * LLVM's libomptarget CUDA plugin: same major, image minor <= device minor). So: the exact
 * sm first, then the same major with the highest lower minor. Arch-specific cubins (sm_90a,
 * flag 0x100000) use features of exactly that CC and run only there (Programming Guide,
 * "Feature Availability"); family-specific ones (sm_100f) follow the X.y rule above.
 * Among equal candidates the plain cubin wins over an arch-specific one (it uses no
 * CC-specific instructions), then the first in the fatbin. No cubin of another major is
 * ever chosen: that needs PTX.
 *
 * Robustness: every read is bounded by the sizes the headers declare (a caller-supplied
 * pointer carries no length, so the fatbin header's fat_size is the bound); decompression is
 * told the exact output size; the PTX must contain a NUL within the declared size.
 * Thread-safety: pure functions, no shared state.
 */
#include "npu_kernel.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FATBIN_MAGIC     0xBA55ED50u
#define FATBINC_MAGIC    0x466243B1u
#define FB_KIND_PTX      1
#define FB_KIND_ELF      2
#define FB_FLAG_LZ4      0x2000ull
#define FB_FLAG_ZSTD     0x8000ull
#define FB_FLAG_ARCH_SPECIFIC   0x100000ull
#define FB_FLAG_FAMILY_SPECIFIC 0x200000ull
#define FB_ENTRY_MIN     64u
#define FB_MAX_PTX       (1ull << 31)      /* refuse absurd sizes from garbage headers */
#define FB_MAX_ELF       (1ull << 31)
#define FB_MAX_OBJECTS   65536

typedef struct fb_entry {
    uint16_t kind, version;
    uint32_t header_size;
    uint64_t payload_size;
    uint32_t compressed_size, options_offset;
    uint16_t minor, major;
    uint32_t arch;
    uint64_t flags;
    uint64_t uncompressed_size;
    const uint8_t *hdr;
    const uint8_t *payload;
} fb_entry_t;

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

size_t npu_fatbin_size(const void *data)
{
    if (!data)
        return 0;
    const uint8_t *p = data;
    if (rd32(p) != FATBIN_MAGIC)
        return 0;
    uint16_t hs = rd16(p + 6);
    uint64_t fs = rd64(p + 8);
    if (hs < 16 || fs > (1ull << 40))
        return 0;
    return (size_t)hs + (size_t)fs;
}

/* Walks the entries of one fatbin; calls fn for each. Returns NPU_EFATBIN when a header
 * points past the declared end. */
typedef int (*fb_visit_fn)(const fb_entry_t *e, void *ctx);

static npu_status_t fb_walk(const uint8_t *fb, fb_visit_fn fn, void *ctx)
{
    if (!fb || rd32(fb) != FATBIN_MAGIC)
        return NPU_EFATBIN;
    uint16_t hs = rd16(fb + 6);
    uint64_t fs = rd64(fb + 8);
    if (hs < 16 || fs > (1ull << 40))
        return NPU_EFATBIN;
    const uint8_t *p = fb + hs, *end = fb + hs + fs;
    while (p < end) {
        if ((uint64_t)(end - p) < FB_ENTRY_MIN)
            return NPU_EFATBIN;
        fb_entry_t e;
        e.kind = rd16(p);
        e.version = rd16(p + 2);
        e.header_size = rd32(p + 4);
        e.payload_size = rd64(p + 8);
        e.compressed_size = rd32(p + 16);
        e.options_offset = rd32(p + 20);
        e.minor = rd16(p + 24);
        e.major = rd16(p + 26);
        e.arch = rd32(p + 28);
        e.flags = rd64(p + 40);
        e.uncompressed_size = e.header_size >= 64 ? rd64(p + 56) : 0;
        if (e.header_size < FB_ENTRY_MIN || e.header_size > (uint64_t)(end - p))
            return NPU_EFATBIN;
        if (e.payload_size > (uint64_t)(end - p) - e.header_size)
            return NPU_EFATBIN;
        e.hdr = p;
        e.payload = p + e.header_size;
        if (fn && fn(&e, ctx))
            return NPU_OK;
        p += e.header_size + e.payload_size;
    }
    return NPU_OK;
}

typedef struct fb_pick {
    fb_entry_t best;
    int have_ptx, have_elf;
} fb_pick_t;

/* Better candidate? Prefer arch <= 90, then higher arch, then higher ISA version. */
static int fb_better(const fb_entry_t *a, const fb_entry_t *b)
{
    int a_ok = a->arch <= 90, b_ok = b->arch <= 90;
    if (a_ok != b_ok)
        return a_ok;
    if (a->arch != b->arch)
        return a->arch > b->arch;
    return ((uint32_t)a->major << 16 | a->minor) > ((uint32_t)b->major << 16 | b->minor);
}

static int fb_pick_visit(const fb_entry_t *e, void *ctx)
{
    fb_pick_t *pk = ctx;
    if (e->kind == FB_KIND_ELF)
        pk->have_elf = 1;
    if (e->kind != FB_KIND_PTX)
        return 0;
    if (!pk->have_ptx || fb_better(e, &pk->best))
        pk->best = *e;
    pk->have_ptx = 1;
    return 0;
}

static unsigned ptx_isa_version(const char *text, size_t len)
{
    const char *v = memmem(text, len < 4096 ? len : 4096, ".version", 8);
    if (!v)
        return 0;
    v += 8;
    while (*v == ' ' || *v == '\t')
        v++;
    unsigned major = 0, minor = 0;
    if (*v < '0' || *v > '9')
        return 0;
    while (*v >= '0' && *v <= '9')
        major = major * 10 + (unsigned)(*v++ - '0');
    if (*v == '.') {
        v++;
        if (*v >= '0' && *v <= '9')
            minor = (unsigned)(*v - '0');
    }
    return major * 10 + minor;
}

/* -maxrregcount N (or =N) in the entry's JIT options, 0 if absent; bounded by the header. */
static unsigned fb_max_regs(const fb_entry_t *e)
{
    if (!e->options_offset || e->options_offset >= e->header_size)
        return 0;
    const char *o = (const char *)e->hdr + e->options_offset;
    size_t n = e->header_size - e->options_offset;
    static const char key[] = "maxrregcount";
    for (size_t i = 0; i + sizeof key - 1 < n; i++) {
        if (memcmp(o + i, key, sizeof key - 1))
            continue;
        size_t j = i + sizeof key - 1;
        while (j < n && (o[j] == '=' || o[j] == ' '))
            j++;
        unsigned v = 0;
        while (j < n && o[j] >= '0' && o[j] <= '9' && v < 100000)
            v = v * 10 + (unsigned)(o[j++] - '0');
        return v;
    }
    return 0;
}

/* The payload of one entry, decompressed into a malloc'ed buffer with one spare byte
 * (*len bytes of content). what: "PTX" or "ELF" for log lines; max: size limit. */
static npu_status_t fb_inflate(const fb_entry_t *e, const char *what, uint64_t max,
                               char **out, size_t *len)
{
    char *buf = NULL;
    size_t cap;
    if (e->flags & (FB_FLAG_LZ4 | FB_FLAG_ZSTD)) {
        if (e->compressed_size == 0 || e->compressed_size > e->payload_size ||
            e->uncompressed_size == 0 || e->uncompressed_size > max)
            return NPU_EFATBIN;
        /* The declared size must be reachable from the payload before we allocate it: an LZ4
         * block expands at most ~255x; a zstd frame states its size (nvcc's do), else each
         * block of at most 128 KiB costs at least 4 bytes. */
        if (e->flags & FB_FLAG_ZSTD) {
            unsigned long long fcs = ZSTD_getFrameContentSize(e->payload, e->compressed_size);
            if (fcs == ZSTD_CONTENTSIZE_ERROR ||
                (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != e->uncompressed_size) ||
                (fcs == ZSTD_CONTENTSIZE_UNKNOWN && e->uncompressed_size / 32768 > e->compressed_size))
                return NPU_EFATBIN;
        } else if (e->uncompressed_size > 256ull * e->compressed_size) {
            return NPU_EFATBIN;
        }
        cap = (size_t)e->uncompressed_size;
        buf = malloc(cap + 1);
        if (!buf)
            return NPU_EHOSTMEM;
        if (e->flags & FB_FLAG_ZSTD) {
            size_t r = ZSTD_decompress(buf, cap, e->payload, e->compressed_size);
            if (ZSTD_isError(r) || r != cap) {
                NPU_WARN("fatbin: zstd decompression of %s (sm_%u) failed: %s", what, e->arch,
                         ZSTD_isError(r) ? ZSTD_getErrorName(r) : "size mismatch");
                free(buf);
                return NPU_EFATBIN;
            }
        } else {
            int r = LZ4_decompress_safe((const char *)e->payload, buf, (int)e->compressed_size,
                                        (int)cap);
            if (r < 0 || (size_t)r != cap) {
                NPU_WARN("fatbin: LZ4 decompression of %s (sm_%u) failed", what, e->arch);
                free(buf);
                return NPU_EFATBIN;
            }
        }
    } else {
        if (e->payload_size > max)
            return NPU_EFATBIN;
        cap = (size_t)e->payload_size;
        buf = malloc(cap + 1);
        if (!buf)
            return NPU_EHOSTMEM;
        memcpy(buf, e->payload, cap);
    }
    buf[cap] = 0;
    *out = buf;
    *len = cap;
    return NPU_OK;
}

/* Decodes one PTX entry into img. */
static npu_status_t fb_decode(const fb_entry_t *e, npu_ptx_image_t *img)
{
    char *buf;
    size_t cap;
    npu_status_t st = fb_inflate(e, "PTX", FB_MAX_PTX, &buf, &cap);
    if (st != NPU_OK)
        return st;
    char *nul = memchr(buf, 0, cap);
    if (!nul) {
        NPU_WARN("fatbin: PTX (sm_%u) is not NUL-terminated within its %zu bytes", e->arch, cap);
        free(buf);
        return NPU_EFATBIN;
    }
    img->text = buf;
    img->len = (size_t)(nul - buf);
    img->arch = e->arch;
    img->ptx_version = ptx_isa_version(buf, img->len);
    img->max_regs = fb_max_regs(e);
    return NPU_OK;
}

/* PTX of one fatbin (raw, magic 0xBA55ED50). */
static npu_status_t fb_extract_one(const uint8_t *fb, npu_ptx_image_t *out)
{
    fb_pick_t pk;
    memset(&pk, 0, sizeof pk);
    npu_status_t st = fb_walk(fb, fb_pick_visit, &pk);
    if (st != NPU_OK)
        return st;
    if (!pk.have_ptx)
        return NPU_ENOIMAGE;
    return fb_decode(&pk.best, out);
}

typedef struct fb_wrapper {
    int32_t magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fb_wrapper_t;

static npu_status_t fb_wrapper_read(const void *data, fb_wrapper_t *w)
{
    memcpy(w, data, sizeof *w);
    if (w->version != 1 && w->version != 2)
        return NPU_EFATBIN;
    if (!w->data)
        return NPU_EFATBIN;
    return NPU_OK;
}

npu_status_t npu_fatbin_extract_ptx(const void *data, npu_ptx_image_t *out)
{
    if (!data || !out)
        return NPU_EINVAL;
    memset(out, 0, sizeof *out);
    uint32_t magic = rd32(data);
    if (magic == FATBIN_MAGIC)
        return fb_extract_one(data, out);
    if (magic != FATBINC_MAGIC)
        return NPU_EFATBIN;
    fb_wrapper_t w;
    npu_status_t st = fb_wrapper_read(data, &w);
    if (st != NPU_OK)
        return st;
    st = fb_extract_one((const uint8_t *)w.data, out);
    if (st != NPU_ENOIMAGE || w.version != 2 || !w.filename_or_fatbins)
        return st;
    /* -rdc=true: the linked image is ELF only; a single object's PTX is the whole program. */
    void *const *objs = w.filename_or_fatbins;
    if (objs[0] && !objs[1])
        return fb_extract_one(objs[0], out);
    return NPU_ENOIMAGE;
}

npu_status_t npu_fatbin_extract_all(const void *data, npu_ptx_image_t **out, int *count)
{
    if (!data || !out || !count)
        return NPU_EINVAL;
    *out = NULL;
    *count = 0;
    uint32_t magic = rd32(data);
    fb_wrapper_t w;
    if (magic == FATBINC_MAGIC) {
        npu_status_t st = fb_wrapper_read(data, &w);
        if (st != NPU_OK)
            return st;
    } else if (magic != FATBIN_MAGIC) {
        return NPU_EFATBIN;
    }
    if (magic == FATBIN_MAGIC || w.version == 1 || !w.filename_or_fatbins) {
        npu_ptx_image_t *img = calloc(1, sizeof *img);
        if (!img)
            return NPU_EHOSTMEM;
        npu_status_t st = npu_fatbin_extract_ptx(data, img);
        if (st != NPU_OK) {
            free(img);
            return st;
        }
        *out = img;
        *count = 1;
        return NPU_OK;
    }
    void *const *objs = w.filename_or_fatbins;
    int n = 0;
    while (n < FB_MAX_OBJECTS && objs[n])
        n++;
    if (n == FB_MAX_OBJECTS)
        return NPU_EFATBIN;
    npu_ptx_image_t *imgs = calloc(n ? (size_t)n : 1, sizeof *imgs);
    if (!imgs)
        return NPU_EHOSTMEM;
    for (int i = 0; i < n; i++) {
        npu_status_t st = fb_extract_one(objs[i], &imgs[i]);
        if (st != NPU_OK) {
            if (st == NPU_ENOIMAGE)
                NPU_WARN("fatbin: object %d of a -rdc=true image has no PTX", i);
            for (int j = 0; j < i; j++)
                npu_ptx_image_free(&imgs[j]);
            free(imgs);
            return st;
        }
    }
    if (n == 0) {
        free(imgs);
        return NPU_ENOIMAGE;
    }
    *out = imgs;
    *count = n;
    return NPU_OK;
}

void npu_ptx_image_free(npu_ptx_image_t *img)
{
    if (!img)
        return;
    free(img->text);
    img->text = NULL;
    img->len = 0;
}

/* ------------------------------------------------------------------ cubins ---- */

typedef struct fb_list {
    npu_fatbin_cubin_t *v;
    int n, cap;
    unsigned obj;
    npu_status_t st;
} fb_list_t;

static int fb_list_visit(const fb_entry_t *e, void *ctx)
{
    fb_list_t *l = ctx;
    if (e->kind != FB_KIND_ELF)
        return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        npu_fatbin_cubin_t *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) {
            l->st = NPU_EHOSTMEM;
            return 1;
        }
        l->v = v;
        l->cap = cap;
    }
    npu_fatbin_cubin_t *c = &l->v[l->n++];
    memset(c, 0, sizeof *c);
    c->arch = e->arch;
    c->obj = l->obj;
    c->arch_specific = (e->flags & FB_FLAG_ARCH_SPECIFIC) != 0;
    c->family_specific = (e->flags & FB_FLAG_FAMILY_SPECIFIC) != 0;
    c->compressed = (e->flags & (FB_FLAG_LZ4 | FB_FLAG_ZSTD)) != 0;
    c->size = c->compressed ? e->uncompressed_size : e->payload_size;
    c->flags = e->flags;
    c->entry_ = (const uint8_t *)e->payload - e->header_size;
    return 0;
}

/* Re-reads the entry header at c->entry_ (already validated by fb_walk when listed). */
static void fb_entry_at(const uint8_t *p, fb_entry_t *e)
{
    e->kind = rd16(p);
    e->version = rd16(p + 2);
    e->header_size = rd32(p + 4);
    e->payload_size = rd64(p + 8);
    e->compressed_size = rd32(p + 16);
    e->options_offset = rd32(p + 20);
    e->minor = rd16(p + 24);
    e->major = rd16(p + 26);
    e->arch = rd32(p + 28);
    e->flags = rd64(p + 40);
    e->uncompressed_size = rd64(p + 56);
    e->payload = p + e->header_size;
}

npu_status_t npu_fatbin_list_cubins(const void *data, npu_fatbin_cubin_t **out, int *count)
{
    if (!data || !out || !count)
        return NPU_EINVAL;
    *out = NULL;
    *count = 0;
    fb_list_t l;
    memset(&l, 0, sizeof l);
    uint32_t magic = rd32(data);
    npu_status_t st;
    if (magic == FATBIN_MAGIC) {
        st = fb_walk(data, fb_list_visit, &l);
    } else if (magic == FATBINC_MAGIC) {
        fb_wrapper_t w;
        st = fb_wrapper_read(data, &w);
        if (st == NPU_OK)
            st = fb_walk((const uint8_t *)w.data, fb_list_visit, &l);
        if (st == NPU_OK && l.st == NPU_OK && w.version == 2 && w.filename_or_fatbins) {
            void *const *objs = w.filename_or_fatbins;
            for (int i = 0; st == NPU_OK && l.st == NPU_OK && i < FB_MAX_OBJECTS && objs[i]; i++) {
                l.obj = (unsigned)i + 1;
                st = fb_walk(objs[i], fb_list_visit, &l);
            }
        }
    } else {
        st = NPU_EFATBIN;
    }
    if (st == NPU_OK)
        st = l.st;
    if (st != NPU_OK) {
        free(l.v);
        return st;
    }
    *out = l.v;
    *count = l.n;
    return NPU_OK;
}

/* a better than b for a device of CC major.minor (both already compatible)? */
static int fb_cubin_better(const npu_fatbin_cubin_t *a, const npu_fatbin_cubin_t *b)
{
    if (a->arch != b->arch)
        return a->arch > b->arch;
    return !a->arch_specific && b->arch_specific;
}

int npu_fatbin_pick_cubin(const npu_fatbin_cubin_t *list, int n, unsigned cc)
{
    if (!list || n <= 0 || cc < 10)
        return -1;
    int best = -1;
    for (int i = 0; i < n; i++) {
        const npu_fatbin_cubin_t *c = &list[i];
        if (c->obj != 0 || c->arch < 10)
            continue;
        /* sm_XY: major X (one or more digits), minor Y (the last digit) */
        if (c->arch / 10 != cc / 10 || c->arch % 10 > cc % 10)
            continue;
        if (c->arch_specific && c->arch != cc)
            continue;
        if (best < 0 || fb_cubin_better(c, &list[best]))
            best = i;
    }
    return best;
}

npu_status_t npu_fatbin_cubin_load(const npu_fatbin_cubin_t *c, uint8_t **data, size_t *size)
{
    if (!c || !c->entry_ || !data || !size)
        return NPU_EINVAL;
    *data = NULL;
    *size = 0;
    fb_entry_t e;
    fb_entry_at(c->entry_, &e);
    char *buf;
    size_t len;
    npu_status_t st = fb_inflate(&e, "ELF", FB_MAX_ELF, &buf, &len);
    if (st != NPU_OK)
        return st;
    *data = (uint8_t *)buf;
    *size = len;
    return NPU_OK;
}
