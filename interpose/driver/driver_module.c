/*
 * driver_module.c - CUDA driver API modules, libraries, the JIT linker, functions and
 * kernels, launches and the occupancy calculator.
 *
 * DESIGN
 *  Images: cuModuleLoad*, cuLibraryLoad* and cuLinkAdd* accept PTX text, a fatbin
 *  (0xBA55ED50), a fatbin wrapper (0x466243B1), or the blob cuLinkComplete hands back
 *  ("NPULINK1", the count of texts, the link's CU_JIT_MAX_REGISTERS, then the linked PTX
 *  texts). Everything becomes a list of PTX texts; one text is
 *  loaded with npu_kmodule_load_ptx, several are linked with npu_kmodule_link_ptx. A cubin
 *  (ELF: NVRTC's nvrtcGetCUBIN, nvJitLink, cuobjdump -xelf, a cubin file) and a fatbin that
 *  holds machine code only are kept as that image (ptx_set_t.mc) and loaded through the SASS
 *  front end (npu_kmodule_load_cubin / npu_kmodule_load_fatbin_cubin), as a GPU driver loads
 *  them. cuModuleLoadData gives no size: a raw ELF's extent is read from its headers
 *  (elf_extent). The JIT linker still needs PTX (it links PTX texts): a cubin handed to
 *  cuLinkAdd* is refused with CUDA_ERROR_NO_BINARY_FOR_GPU and a log line.
 *
 *  Handles: CUmodule, CUfunction, CUlibrary, CUkernel and CUlinkState are records of this
 *  file. Every live record is in one registry (pointer -> kind) guarded by reg_lock, a
 *  rwlock: lookups and launches hold it shared, loads/unloads exclusive; so a handle of an
 *  unloaded module, or any garbage pointer, is rejected with CUDA_ERROR_INVALID_HANDLE
 *  before it is dereferenced, and a module cannot disappear under a launch in progress.
 *  A module's functions are created once per name (the same CUfunction for repeated
 *  cuModuleGetFunction calls) and compiled lazily, on first launch or attribute query
 *  (cuModuleGetLoadingMode reports lazy loading, as CUDA 12.2+ does by default); the engine
 *  compiles each (module, entry) once even when threads race, so recording the result is a
 *  plain atomic store.
 *
 *  Measured on the 2-vCPU VM with an empty kernel (median of 3 runs of 20000 launches):
 *  cuLaunchKernel + cuCtxSynchronize 0.30 us against <<<>>> + cudaDeviceSynchronize 0.28 us,
 *  and async launches within the 0.5-1.5 us noise of the runtime path: the shared rwlock and
 *  the registry lookup on every launch cost nothing visible, so handles stay fully checked.
 *
 *  A CUlibrary is context-independent: it keeps its PTX and loads one module per device on
 *  first use; a CUkernel names an entry of a library and resolves to that module's function
 *  for the current context's device (cuKernelGetFunction, or a CUkernel passed to
 *  cuLaunchKernel as CUDA allows).
 */
#include "interpose/driver/driver_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* ------------------------------------------------------------------ records ---- */
enum { H_MODULE = 1, H_FUNC, H_LIBRARY, H_KERNEL, H_LINK };

typedef struct drv_func drv_func_t;
typedef struct drv_library drv_library_t;

typedef struct drv_module {
    npu_kmodule_t *km;
    int device;
    drv_library_t *lib;          /* owning library (its modules are unloaded with it) */
    drv_func_t *funcs;           /* by name; reg_lock exclusive to add */
} drv_module_t;

struct drv_func {
    int kind;                    /* H_FUNC or H_KERNEL */
    drv_module_t *mod;           /* H_FUNC */
    drv_library_t *lib;          /* H_KERNEL */
    _Atomic(npu_kfunc_t *) kf;   /* H_FUNC: compiled on first use */
    UT_hash_handle hh;
    char name[];
};

struct drv_library {
    int n;
    char **ptx;
    size_t *len;
    unsigned max_regs;                    /* JIT register limit of its modules, 0: none */
    void *mc;                             /* or its machine code (ptx_set_t.mc) */
    size_t mc_size;
    int mc_fatbin;
    drv_module_t *mod[DRV_MAX_DEVICES];   /* loaded on first use per device */
    drv_func_t *kernels;                  /* by name */
};

typedef struct reg_entry {
    const void *p;
    int kind;
    UT_hash_handle hh;
} reg_entry_t;

static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static reg_entry_t *registry;            /* reg_lock */

static int reg_add_locked(const void *p, int kind)
{
    reg_entry_t *e = malloc(sizeof *e);
    if (!e)
        return 0;
    e->p = p;
    e->kind = kind;
    HASH_ADD_PTR(registry, p, e);
    return 1;
}

static void reg_del_locked(const void *p)
{
    reg_entry_t *e;
    HASH_FIND_PTR(registry, &p, e);
    if (e) {
        HASH_DEL(registry, e);
        free(e);
    }
}

static int reg_kind_locked(const void *p)
{
    if (!p)
        return 0;
    reg_entry_t *e;
    HASH_FIND_PTR(registry, &p, e);
    return e ? e->kind : 0;
}

/* -------------------------------------------------------------- PTX sets ---- */
typedef struct ptx_set {
    int n, cap;
    char **text;
    size_t *len;
    unsigned max_regs;           /* smallest -maxrregcount a fatbin entry carried, 0: none */
    void *mc;                    /* or machine code: a copy of an ELF cubin (mc_fatbin 0) or of */
    size_t mc_size;              /* ... a fatbin without PTX (mc_fatbin 1) */
    int mc_fatbin;
} ptx_set_t;

static void set_free(ptx_set_t *s)
{
    free(s->mc);
    s->mc = NULL;
    for (int i = 0; i < s->n; i++)
        free(s->text[i]);
    free(s->text);
    free(s->len);
    memset(s, 0, sizeof *s);
}

/* Takes ownership of text (malloc'ed, NUL-terminated). */
static npu_status_t set_add(ptx_set_t *s, char *text, size_t len)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 4;
        char **t = realloc(s->text, (size_t)cap * sizeof *t);
        if (!t) {
            free(text);
            return NPU_EHOSTMEM;
        }
        s->text = t;
        size_t *l = realloc(s->len, (size_t)cap * sizeof *l);
        if (!l) {
            free(text);
            return NPU_EHOSTMEM;
        }
        s->len = l;
        s->cap = cap;
    }
    s->text[s->n] = text;
    s->len[s->n] = len;
    s->n++;
    return NPU_OK;
}

static npu_status_t set_add_copy(ptx_set_t *s, const char *text, size_t len)
{
    char *t = malloc(len + 1);
    if (!t)
        return NPU_EHOSTMEM;
    memcpy(t, text, len);
    t[len] = '\0';
    return set_add(s, t, len);
}

#define FATBIN_MAGIC 0xBA55ED50u
#define WRAPPER_MAGIC 0x466243B1u
static const char link_magic[8] = { 'N', 'P', 'U', 'L', 'I', 'N', 'K', '1' };

static npu_status_t add_fatbin(ptx_set_t *s, const void *image)
{
    npu_ptx_image_t *imgs = NULL;
    int count = 0;
    npu_status_t st = npu_fatbin_extract_all(image, &imgs, &count);
    if (st != NPU_OK)
        return st;
    for (int i = 0; i < count && st == NPU_OK; i++) {
        if (imgs[i].max_regs && (!s->max_regs || imgs[i].max_regs < s->max_regs))
            s->max_regs = imgs[i].max_regs;
        st = set_add(s, imgs[i].text, imgs[i].len);
        imgs[i].text = NULL;
    }
    for (int i = 0; i < count; i++)
        npu_ptx_image_free(&imgs[i]);
    free(imgs);
    return st;
}

static int has_prefix(const void *image, const void *magic, size_t n)
{
    const unsigned char *a = image, *b = magic;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static const char cubin_hint[] =
    "the image is a cubin (GPU machine code) without PTX, and the JIT linker links PTX: add PTX "
    "(nvrtcGetPTX, nvcc -ptx, a fatbin with compute_XX PTX), or load a linked cubin with "
    "cuModuleLoadData, which runs machine code";

/* The bytes an ELF64 image spans: the furthest of its section and program header tables and
 * of its sections' contents. 0 when it is not a little-endian ELF64 for EM_CUDA (190) or its
 * tables are implausible. The identification bytes are tested one at a time in order and the
 * test stops at the first mismatch, so a short string starting "\177ELF" is not read past
 * its end (as image_to_ptx's prefix tests). */
static size_t elf_extent(const void *image)
{
    const unsigned char *e = image;
    static const struct { unsigned char at, lo, hi; } id[] = {
        { 4, 2, 2 }, { 5, 1, 1 }, { 6, 1, 1 }, { 7, 0x33, 0x41 }, { 8, 1, 255 }, { 16, 1, 2 }, { 17, 0, 0 }, { 18, 190, 190 }, { 19, 0, 0 },
    };
    for (size_t i = 0; i < sizeof id / sizeof id[0]; i++)
        if (e[id[i].at] < id[i].lo || e[id[i].at] > id[i].hi)
            return 0;
    uint64_t phoff, shoff;
    uint16_t phes, phn, shes, shn;
    memcpy(&phoff, e + 0x20, 8);
    memcpy(&shoff, e + 0x28, 8);
    memcpy(&phes, e + 0x36, 2);
    memcpy(&phn, e + 0x38, 2);
    memcpy(&shes, e + 0x3A, 2);
    memcpy(&shn, e + 0x3C, 2);
    const uint64_t lim = 1ull << 32;
    if (shoff >= lim || phoff >= lim || (shn && shes < 64) || (phn && phes < 56))
        return 0;
    uint64_t end = 64;
    if (phn && phoff + (uint64_t)phn * phes > end) end = phoff + (uint64_t)phn * phes;
    if (shn && shoff + (uint64_t)shn * shes > end) end = shoff + (uint64_t)shn * shes;
    for (unsigned i = 0; i < shn; i++) {
        const unsigned char *sh = e + shoff + (uint64_t)i * shes;
        uint32_t type;
        uint64_t off, sz;
        memcpy(&type, sh + 4, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&sz, sh + 0x20, 8);
        if (type == 8 /* SHT_NOBITS */ || type == 0)
            continue;
        if (off >= lim || sz >= lim)
            return 0;
        if (off + sz > end) end = off + sz;
    }
    return end < lim ? (size_t)end : 0;
}

static npu_status_t set_machine_code(ptx_set_t *s, const void *image, size_t size, int fatbin)
{
    if (!size)
        return NPU_EINVAL;
    s->mc = malloc(size);
    if (!s->mc)
        return NPU_EHOSTMEM;
    memcpy(s->mc, image, size);
    s->mc_size = size;
    s->mc_fatbin = fatbin;
    return NPU_OK;
}

/* Any image -> PTX texts, or (allow_mc) the machine code of a cubin or of a fatbin without PTX.
 * size: bytes when known (0: unknown, text is NUL-terminated). */
static npu_status_t image_to_ptx(const void *image, size_t size, ptx_set_t *out, const char *api,
                                 int allow_mc)
{
    if (!image)
        return NPU_EINVAL;
    /* Byte-wise prefix tests stop at the first mismatch, so a short PTX string is never
     * read past its NUL (none of the magics contains a zero byte). */
    static const unsigned char fat_m[4] = { 0x50, 0xED, 0x55, 0xBA }, wrap_m[4] = { 0xB1, 0x43, 0x62, 0x46 };
    if (*(const char *)image == '\0')
        return NPU_EFATBIN;
    if (has_prefix(image, fat_m, 4) || has_prefix(image, wrap_m, 4)) {
        /* A fatbin read from a file or handed with its size must fit in it (a truncated
         * file is refused instead of read past its end). */
        if (size && has_prefix(image, fat_m, 4)) {
            size_t fs = size >= 16 ? npu_fatbin_size(image) : 0;
            if (fs == 0 || fs > size)
                return NPU_EFATBIN;
        }
        npu_status_t st = add_fatbin(out, image);
        if (st == NPU_ENOIMAGE && allow_mc) {
            size_t fs = has_prefix(image, fat_m, 4) ? npu_fatbin_size(image) : 0;
            const void *fb = image;
            if (!fs) {                      /* a wrapper: {magic, version, data, filename} */
                memcpy(&fb, (const char *)image + 8, sizeof fb);
                fs = fb ? npu_fatbin_size(fb) : 0;
            }
            return fs ? set_machine_code(out, fb, fs, 1) : NPU_EFATBIN;
        }
        if (st == NPU_ENOIMAGE)
            NPU_ERR("%s: the fatbin holds no PTX, only cubins for specific GPUs; rebuild with "
                    "PTX embedded (nvcc -gencode arch=compute_XX,code=compute_XX)", api);
        return st;
    }
    if (has_prefix(image, "\177ELF", 4)) {
        if (allow_mc) {
            size_t es = elf_extent(image);
            if (!es || (size && es > size))
                return NPU_EINVAL;          /* CUDA_ERROR_INVALID_IMAGE */
            return set_machine_code(out, image, es, 0);
        }
        NPU_ERR("%s: %s", api, cubin_hint);
        return NPU_ENOIMAGE;
    }
    if (has_prefix(image, link_magic, sizeof link_magic)) {
        const char *p = (const char *)image + 8;
        uint32_t n;
        memcpy(&n, p, 4);
        p += 8;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t len;
            memcpy(&len, p, 8);
            p += 8;
            npu_status_t st = set_add_copy(out, p, (size_t)len);
            if (st != NPU_OK)
                return st;
            p += len + 1;
        }
        return n ? NPU_OK : NPU_EFATBIN;
    }
    const char *t = image;
    size_t len = size ? strnlen(t, size) : strlen(t);
    return set_add_copy(out, t, len);
}

static npu_status_t read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NPU_ENOTFOUND;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
        } else {
            buf = nb;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (!buf)
        return NPU_EHOSTMEM;
    if (err) {
        free(buf);
        return NPU_EINVAL;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return NPU_OK;
}

/* ----------------------------------------------------------- JIT options ---- */
/* The options every JIT entry point honours: log buffers (filled, sizes written back), the
 * wall time and the register limit (CU_JIT_MAX_REGISTERS, jit_max_regs). The rest are
 * optimisation hints with no meaning for the NPU translator. */
typedef struct jit_opts {
    unsigned n;
    CUjit_option *opt;
    void **val;
} jit_opts_t;

static CUresult jit_check(unsigned n, CUjit_option *opt, void **val)
{
    if (n > 0 && (!opt || !val))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++)
        if ((int)opt[i] < 0 || opt[i] >= CU_JIT_NUM_OPTIONS)
            return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static void jit_report(const jit_opts_t *o, const char *info, const char *error, float ms)
{
    char *info_buf = NULL, *err_buf = NULL;
    size_t info_sz = 0, err_sz = 0;
    for (unsigned i = 0; i < o->n; i++) {
        switch (o->opt[i]) {
        case CU_JIT_INFO_LOG_BUFFER: info_buf = o->val[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: info_sz = (size_t)(uintptr_t)o->val[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: err_buf = o->val[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: err_sz = (size_t)(uintptr_t)o->val[i]; break;
        default: break;
        }
    }
    size_t info_n = 0, err_n = 0;
    if (info_buf && info_sz) {
        snprintf(info_buf, info_sz, "%s", info ? info : "");
        info_n = strlen(info_buf) + 1;
    }
    if (err_buf && err_sz) {
        snprintf(err_buf, err_sz, "%s", error ? error : "");
        err_n = strlen(err_buf) + 1;
    }
    for (unsigned i = 0; i < o->n; i++) {
        if (o->opt[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES && info_buf)
            o->val[i] = (void *)(uintptr_t)info_n;
        else if (o->opt[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES && err_buf)
            o->val[i] = (void *)(uintptr_t)err_n;
        else if (o->opt[i] == CU_JIT_WALL_TIME)
            memcpy(&o->val[i], &ms, sizeof ms);
    }
}

static void jit_finish(const jit_opts_t *o, npu_status_t st, uint64_t t0, const char *what)
{
    if (!o || o->n == 0)
        return;
    char msg[256];
    if (st == NPU_OK)
        snprintf(msg, sizeof msg, "transfer_to_npu: %s loaded for the NPU", what);
    else
        snprintf(msg, sizeof msg, "transfer_to_npu: %s: %s (%s)", what, npu_status_message(st),
                 npu_status_name(st));
    jit_report(o, st == NPU_OK ? msg : "", st == NPU_OK ? "" : msg,
               (float)((npu_now_ns() - t0) / 1e6));
}

/* CU_JIT_MAX_REGISTERS (-maxrregcount), 0 when not given: the registers a kernel is reported
 * to use never exceed it (ptx_regs.c), as ptxas never exceeds it. */
static unsigned jit_max_regs(const jit_opts_t *o)
{
    for (unsigned i = 0; o && i < o->n; i++)
        if (o->opt[i] == CU_JIT_MAX_REGISTERS)
            return (unsigned)(uintptr_t)o->val[i];
    return 0;
}

/* The blob of cuLinkComplete keeps the link's register limit in its header (bytes 12-15),
 * so the module loaded from it obeys it, as a cubin linked with -maxrregcount would. */
static unsigned blob_max_regs(const void *image)
{
    if (!image || !has_prefix(image, link_magic, sizeof link_magic))
        return 0;
    uint32_t r;
    memcpy(&r, (const char *)image + 12, 4);
    return r;
}

/* --------------------------------------------------------------- modules ---- */
static npu_status_t load_set(int dev, const ptx_set_t *s, npu_kmodule_t **out)
{
    if (s->mc)
        return s->mc_fatbin ? npu_kmodule_load_fatbin_cubin(dev, s->mc, out)
                            : npu_kmodule_load_cubin(dev, s->mc, s->mc_size, out);
    if (s->n == 0)
        return NPU_ENOIMAGE;
    if (s->n == 1)
        return npu_kmodule_load_ptx(dev, s->text[0], s->len[0], out);
    return npu_kmodule_link_ptx(dev, (const char *const *)s->text, s->len, s->n, out);
}

/* New module record registered under reg_lock (exclusive held by the caller). */
static drv_module_t *module_new_locked(npu_kmodule_t *km, int dev, drv_library_t *lib)
{
    drv_module_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->km = km;
    m->device = dev;
    m->lib = lib;
    if (!reg_add_locked(m, H_MODULE)) {
        free(m);
        return NULL;
    }
    return m;
}

/* Unregisters a module and its functions, unloads it. reg_lock exclusive. */
static void module_drop_locked(drv_module_t *m)
{
    drv_func_t *f, *tmp;
    HASH_ITER(hh, m->funcs, f, tmp) {
        HASH_DEL(m->funcs, f);
        reg_del_locked(f);
        free(f);
    }
    reg_del_locked(m);
    npu_device_sync(m->device);      /* grids of this module may still be queued */
    npu_kmodule_unload(m->km);
    free(m);
}

static int is_ptx_text(const void *image)
{
    static const unsigned char fat_m[4] = { 0x50, 0xED, 0x55, 0xBA }, wrap_m[4] = { 0xB1, 0x43, 0x62, 0x46 };
    return !has_prefix(image, fat_m, 4) && !has_prefix(image, wrap_m, 4) &&
           !has_prefix(image, "\177ELF", 4) && !has_prefix(image, link_magic, sizeof link_magic);
}

/* PTX text handed to cuModuleLoadData* (NVRTC, numba, Triton output) is compiled at load, as
 * a GPU driver JIT-compiles PTX at load: a bad kernel fails there with INVALID_PTX, not at
 * its first launch. Such modules hold a few entries; beyond EAGER_MAX entries (large
 * generated modules of which a program launches a few) compilation stays lazy. Compiled
 * entries are cached on disk by the engine, so a second run pays nothing here. */
#define EAGER_MAX 16
static npu_status_t compile_entries(npu_kmodule_t *km)
{
    int n = npu_kmodule_entry_count(km);
    if (n > EAGER_MAX)
        return NPU_OK;
    for (int i = 0; i < n; i++) {
        npu_kfunc_t *kf;
        npu_status_t st = npu_kmodule_get_function(km, npu_kmodule_entry_name(km, i), &kf);
        if (st != NPU_OK)
            return st;
    }
    return NPU_OK;
}

static CUresult module_from_image(CUmodule *module, const void *image, size_t size,
                                  const jit_opts_t *o, const char *api)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t t0 = npu_now_ns();
    ptx_set_t s = { 0 };
    npu_kmodule_t *km = NULL;
    npu_status_t st = image_to_ptx(image, size, &s, api, 1);
    if (st == NPU_OK)
        st = load_set(c->device, &s, &km);
    if (st == NPU_OK) {
        unsigned mr = jit_max_regs(o);
        npu_kmodule_set_max_registers(km, mr ? mr : s.max_regs ? s.max_regs : blob_max_regs(image));
    }
    if (st == NPU_OK && is_ptx_text(image)) {
        st = compile_entries(km);
        if (st != NPU_OK) {
            npu_kmodule_unload(km);
            km = NULL;
        }
    }
    set_free(&s);
    jit_finish(o, st, t0, api);
    if (st != NPU_OK)
        return st == NPU_EINVAL ? CUDA_ERROR_INVALID_IMAGE : drv_map(st);
    pthread_rwlock_wrlock(&reg_lock);
    drv_module_t *m = module_new_locked(km, c->device, NULL);
    pthread_rwlock_unlock(&reg_lock);
    if (!m) {
        npu_kmodule_unload(km);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *module = (CUmodule)m;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    NPU_API_SCOPE(__func__);
    return module_from_image(module, image, 0, NULL, "cuModuleLoadData");
}

NPU_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                       CUjit_option *options, void **optionValues)
{
    NPU_API_SCOPE(__func__);
    CUresult r = jit_check(numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    jit_opts_t o = { numOptions, options, optionValues };
    return module_from_image(module, image, 0, &o, "cuModuleLoadDataEx");
}

NPU_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    NPU_API_SCOPE(__func__);
    return module_from_image(module, fatCubin, 0, NULL, "cuModuleLoadFatBinary");
}

NPU_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!module || !fname)
        return CUDA_ERROR_INVALID_VALUE;
    char *buf;
    size_t len;
    npu_status_t st = read_file(fname, &buf, &len);
    if (st != NPU_OK)
        return st == NPU_ENOTFOUND ? CUDA_ERROR_FILE_NOT_FOUND : drv_map(st);
    CUresult r = module_from_image(module, buf, len, NULL, "cuModuleLoad");
    free(buf);
    return r;
}

static drv_module_t *module_get_locked(CUmodule h)
{
    return reg_kind_locked(h) == H_MODULE ? (drv_module_t *)h : NULL;
}

NPU_EXPORT CUresult cuModuleUnload(CUmodule hmod)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    pthread_rwlock_wrlock(&reg_lock);
    drv_module_t *m = module_get_locked(hmod);
    CUresult r = CUDA_ERROR_INVALID_HANDLE;
    if (m && !m->lib) {          /* a library's modules go with cuLibraryUnload */
        module_drop_locked(m);
        r = CUDA_SUCCESS;
    }
    pthread_rwlock_unlock(&reg_lock);
    return r;
}

static int module_has_entry(drv_module_t *m, const char *name)
{
    int n = npu_kmodule_entry_count(m->km);
    for (int i = 0; i < n; i++) {
        const char *e = npu_kmodule_entry_name(m->km, i);
        if (e && strcmp(e, name) == 0)
            return 1;
    }
    return 0;
}

/* The CUfunction of entry `name` of m, created on first request. reg_lock exclusive. */
static CUresult module_function_locked(drv_module_t *m, const char *name, drv_func_t **out)
{
    drv_func_t *f;
    HASH_FIND_STR(m->funcs, name, f);
    if (!f) {
        if (!module_has_entry(m, name))
            return CUDA_ERROR_NOT_FOUND;
        size_t n = strlen(name) + 1;
        f = calloc(1, sizeof *f + n);
        if (!f)
            return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(f->name, name, n);
        f->kind = H_FUNC;
        f->mod = m;
        if (!reg_add_locked(f, H_FUNC)) {
            free(f);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        HASH_ADD_STR(m->funcs, name, f);
    }
    *out = f;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_module_t *m = module_get_locked(hmod);
    drv_func_t *f = NULL;
    CUresult r = m ? module_function_locked(m, name, &f) : CUDA_ERROR_INVALID_HANDLE;
    pthread_rwlock_unlock(&reg_lock);
    if (r == CUDA_SUCCESS)
        *hfunc = (CUfunction)f;
    return r;
}

NPU_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule hmod)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    drv_module_t *m = module_get_locked(hmod);
    if (m)
        *count = (unsigned)npu_kmodule_entry_count(m->km);
    pthread_rwlock_unlock(&reg_lock);
    return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

NPU_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions,
                                               CUmodule hmod)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!functions)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_module_t *m = module_get_locked(hmod);
    CUresult r = m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (m) {
        unsigned n = (unsigned)npu_kmodule_entry_count(m->km);
        if (numFunctions < n)
            n = numFunctions;
        for (unsigned i = 0; i < n && r == CUDA_SUCCESS; i++) {
            drv_func_t *f;
            r = module_function_locked(m, npu_kmodule_entry_name(m->km, (int)i), &f);
            if (r == CUDA_SUCCESS)
                functions[i] = (CUfunction)f;
        }
    }
    pthread_rwlock_unlock(&reg_lock);
    return r;
}

NPU_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    drv_module_t *m = module_get_locked(hmod);
    void *p = NULL;
    size_t sz = 0;
    npu_status_t st = m ? npu_kmodule_get_global(m->km, name, &p, &sz) : NPU_EHANDLE;
    pthread_rwlock_unlock(&reg_lock);
    if (st == NPU_OK) {
        if (dptr)
            *dptr = (CUdeviceptr)(uintptr_t)p;
        if (bytes)
            *bytes = sz;
    }
    return drv_map(st);
}

NPU_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------- libraries ---- */
static void library_free(drv_library_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->ptx[i]);
    free(l->ptx);
    free(l->len);
    free(l->mc);
    free(l);
}

static CUresult library_from_image(CUlibrary *library, const void *code, size_t size,
                                   const jit_opts_t *o, const char *api)
{
    DRV_ENTER();
    if (!library || !code)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t t0 = npu_now_ns();
    ptx_set_t s = { 0 };
    npu_status_t st = image_to_ptx(code, size, &s, api, 1);
    drv_library_t *l = NULL;
    if (st == NPU_OK && !(l = calloc(1, sizeof *l)))
        st = NPU_EHOSTMEM;
    if (st == NPU_OK) {
        l->n = s.n;
        l->ptx = s.text;
        l->len = s.len;
        l->max_regs = jit_max_regs(o) ? jit_max_regs(o) : s.max_regs ? s.max_regs : blob_max_regs(code);
        l->mc = s.mc;
        l->mc_size = s.mc_size;
        l->mc_fatbin = s.mc_fatbin;
        s = (ptx_set_t){ 0 };
        /* Load on the current device now, so a bad image fails here, as on a GPU. */
        int dev = npu_device_current();
        npu_kmodule_t *km = NULL;
        st = load_set(dev, &(ptx_set_t){ l->n, l->n, l->ptx, l->len, l->max_regs, l->mc, l->mc_size, l->mc_fatbin }, &km);
        if (st == NPU_OK)
            npu_kmodule_set_max_registers(km, l->max_regs);
        if (st == NPU_OK && is_ptx_text(code) && (st = compile_entries(km)) != NPU_OK)
            npu_kmodule_unload(km);
        if (st == NPU_OK) {
            pthread_rwlock_wrlock(&reg_lock);
            l->mod[dev] = module_new_locked(km, dev, l);
            int ok = l->mod[dev] && reg_add_locked(l, H_LIBRARY);
            if (!ok && l->mod[dev])
                module_drop_locked(l->mod[dev]);
            pthread_rwlock_unlock(&reg_lock);
            if (!ok) {
                if (!l->mod[dev])
                    npu_kmodule_unload(km);
                st = NPU_EHOSTMEM;
            }
        }
        if (st != NPU_OK) {
            library_free(l);
            l = NULL;
        }
    }
    set_free(&s);
    jit_finish(o, st, t0, api);
    if (st != NPU_OK)
        return st == NPU_EINVAL ? CUDA_ERROR_INVALID_IMAGE : drv_map(st);
    *library = (CUlibrary)l;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                      void **jitOptionsValues, unsigned int numJitOptions,
                                      CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                      unsigned int numLibraryOptions)
{
    NPU_API_SCOPE(__func__);
    CUresult r = jit_check(numJitOptions, jitOptions, jitOptionsValues);
    if (r != CUDA_SUCCESS)
        return r;
    if (numLibraryOptions > 0 && (!libraryOptions || !libraryOptionValues))
        return CUDA_ERROR_INVALID_VALUE;
    jit_opts_t o = { numJitOptions, jitOptions, jitOptionsValues };
    return library_from_image(library, code, 0, &o, "cuLibraryLoadData");
}

NPU_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                          CUjit_option *jitOptions, void **jitOptionsValues,
                                          unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                                          void **libraryOptionValues, unsigned int numLibraryOptions)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!library || !fileName)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = jit_check(numJitOptions, jitOptions, jitOptionsValues);
    if (r != CUDA_SUCCESS)
        return r;
    for (unsigned i = 0; i < numLibraryOptions; i++)
        if (libraryOptions && libraryOptions[i] == CU_LIBRARY_BINARY_IS_PRESERVED)
            return CUDA_ERROR_INVALID_VALUE;   /* invalid with a file, as documented */
    char *buf;
    size_t len;
    npu_status_t st = read_file(fileName, &buf, &len);
    if (st != NPU_OK)
        return st == NPU_ENOTFOUND ? CUDA_ERROR_FILE_NOT_FOUND : drv_map(st);
    jit_opts_t o = { numJitOptions, jitOptions, jitOptionsValues };
    r = library_from_image(library, buf, len, &o, "cuLibraryLoadFromFile");
    free(buf);
    return r;
}

static drv_library_t *library_get_locked(CUlibrary h)
{
    return reg_kind_locked(h) == H_LIBRARY ? (drv_library_t *)h : NULL;
}

NPU_EXPORT CUresult cuLibraryUnload(CUlibrary library)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    pthread_rwlock_wrlock(&reg_lock);
    drv_library_t *l = library_get_locked(library);
    if (l) {
        for (int d = 0; d < DRV_MAX_DEVICES; d++)
            if (l->mod[d])
                module_drop_locked(l->mod[d]);
        drv_func_t *k, *tmp;
        HASH_ITER(hh, l->kernels, k, tmp) {
            HASH_DEL(l->kernels, k);
            reg_del_locked(k);
            free(k);
        }
        reg_del_locked(l);
    }
    pthread_rwlock_unlock(&reg_lock);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    library_free(l);
    return CUDA_SUCCESS;
}

/* The library's module on dev, loading it on first use. reg_lock exclusive. */
static npu_status_t library_module_locked(drv_library_t *l, int dev, drv_module_t **out)
{
    if (dev < 0 || dev >= DRV_MAX_DEVICES)
        return NPU_EDEVICE;
    if (!l->mod[dev]) {
        npu_kmodule_t *km = NULL;
        npu_status_t st = load_set(dev, &(ptx_set_t){ l->n, l->n, l->ptx, l->len, l->max_regs, l->mc, l->mc_size, l->mc_fatbin }, &km);
        if (st != NPU_OK)
            return st;
        npu_kmodule_set_max_registers(km, l->max_regs);
        l->mod[dev] = module_new_locked(km, dev, l);
        if (!l->mod[dev]) {
            npu_kmodule_unload(km);
            return NPU_EHOSTMEM;
        }
    }
    *out = l->mod[dev];
    return NPU_OK;
}

NPU_EXPORT CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!pMod)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_library_t *l = library_get_locked(library);
    drv_module_t *m = NULL;
    npu_status_t st = l ? library_module_locked(l, c->device, &m) : NPU_EHANDLE;
    pthread_rwlock_unlock(&reg_lock);
    if (st == NPU_OK)
        *pMod = (CUmodule)m;
    return drv_map(st);
}

NPU_EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pKernel || !name)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_library_t *l = library_get_locked(library);
    CUresult r = l ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    drv_func_t *k = NULL;
    if (l) {
        HASH_FIND_STR(l->kernels, name, k);
        if (!k) {
            drv_module_t *m = NULL;
            npu_status_t st = library_module_locked(l, npu_device_current(), &m);
            if (st != NPU_OK)
                r = drv_map(st);
            else if (!module_has_entry(m, name))
                r = CUDA_ERROR_NOT_FOUND;
            else {
                size_t n = strlen(name) + 1;
                k = calloc(1, sizeof *k + n);
                if (k && reg_add_locked(k, H_KERNEL)) {
                    memcpy(k->name, name, n);
                    k->kind = H_KERNEL;
                    k->lib = l;
                    HASH_ADD_STR(l->kernels, name, k);
                } else {
                    free(k);
                    k = NULL;
                    r = CUDA_ERROR_OUT_OF_MEMORY;
                }
            }
        }
    }
    pthread_rwlock_unlock(&reg_lock);
    if (r == CUDA_SUCCESS)
        *pKernel = (CUkernel)k;
    return r;
}

NPU_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_library_t *l = library_get_locked(lib);
    drv_module_t *m = NULL;
    npu_status_t st = l ? library_module_locked(l, npu_device_current(), &m) : NPU_EHANDLE;
    if (st == NPU_OK)
        *count = (unsigned)npu_kmodule_entry_count(m->km);
    pthread_rwlock_unlock(&reg_lock);
    return drv_map(st);
}

NPU_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!kernels)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    drv_library_t *l = library_get_locked(lib);
    int dev = npu_device_current();
    drv_module_t *m = l && dev >= 0 && dev < DRV_MAX_DEVICES ? l->mod[dev] : NULL;
    int n = m ? npu_kmodule_entry_count(m->km) : 0;
    char **names = n > 0 ? calloc((size_t)n, sizeof *names) : NULL;
    for (int i = 0; names && i < n; i++)
        names[i] = strdup(npu_kmodule_entry_name(m->km, i));
    pthread_rwlock_unlock(&reg_lock);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; i < n && (unsigned)i < numKernels; i++)
        if (r == CUDA_SUCCESS)
            r = names && names[i] ? cuLibraryGetKernel(&kernels[i], lib, names[i]) : CUDA_ERROR_OUT_OF_MEMORY;
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    return r;
}

NPU_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    NPU_API_SCOPE(__func__);
    CUmodule m;
    CUresult r = cuLibraryGetModule(&m, library);
    return r != CUDA_SUCCESS ? r : cuModuleGetGlobal_v2(dptr, bytes, m, name);
}

NPU_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    NPU_API_SCOPE(__func__);
    /* __managed__ variables are ordinary .global variables in PTX; their memory is reachable
     * from the host (one address space), which is what managed memory promises. */
    return cuLibraryGetGlobal(dptr, bytes, library, name);
}

/* ---------------------------------------------------- functions and kernels ---- */
/* f (H_FUNC, or H_KERNEL for the current device) -> its function record. reg_lock held
 * (exclusive when a kernel may need its module loaded). */
static npu_status_t func_record_locked(const void *h, drv_func_t **out)
{
    int kind = reg_kind_locked(h);
    drv_func_t *f = (drv_func_t *)h;
    if (kind == H_FUNC) {
        *out = f;
        return NPU_OK;
    }
    if (kind != H_KERNEL)
        return NPU_EHANDLE;
    drv_module_t *m = NULL;
    npu_status_t st = library_module_locked(f->lib, npu_device_current(), &m);
    if (st != NPU_OK)
        return st;
    drv_func_t *mf = NULL;
    CUresult r = module_function_locked(m, f->name, &mf);
    if (r != CUDA_SUCCESS)
        return r == CUDA_ERROR_NOT_FOUND ? NPU_ENOTFOUND : NPU_EHOSTMEM;
    *out = mf;
    return NPU_OK;
}

static npu_status_t func_compile(drv_func_t *f, npu_kfunc_t **out)
{
    npu_kfunc_t *kf = atomic_load_explicit(&f->kf, memory_order_acquire);
    if (!kf) {
        npu_status_t st = npu_kmodule_get_function(f->mod->km, f->name, &kf);
        if (st != NPU_OK)
            return st;
        atomic_store_explicit(&f->kf, kf, memory_order_release);
    }
    *out = kf;
    return NPU_OK;
}

/* Resolves and compiles f, returning with reg_lock held shared (so its module stays loaded)
 * when CUDA_SUCCESS; released otherwise. A CUkernel's first use on a device takes the lock
 * exclusively once to load the library's module there. */
static CUresult func_enter(CUfunction h, drv_func_t **rec, npu_kfunc_t **kf)
{
    pthread_rwlock_rdlock(&reg_lock);
    int kind = reg_kind_locked(h);
    if (kind == H_KERNEL) {
        pthread_rwlock_unlock(&reg_lock);
        pthread_rwlock_wrlock(&reg_lock);
        drv_func_t *f;
        npu_status_t st = func_record_locked(h, &f);
        pthread_rwlock_unlock(&reg_lock);
        if (st != NPU_OK)
            return st == NPU_EHANDLE ? CUDA_ERROR_INVALID_HANDLE : drv_map(st);
        pthread_rwlock_rdlock(&reg_lock);
        st = func_record_locked(h, &f);     /* still live? (shared lock: no loading now) */
        h = st == NPU_OK ? (CUfunction)f : NULL;
        kind = reg_kind_locked(h);
    }
    if (kind != H_FUNC) {
        pthread_rwlock_unlock(&reg_lock);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    drv_func_t *f = (drv_func_t *)h;
    npu_status_t st = func_compile(f, kf);
    if (st != NPU_OK) {
        pthread_rwlock_unlock(&reg_lock);
        return drv_map(st);
    }
    *rec = f;
    return CUDA_SUCCESS;
}

static void func_leave(void)
{
    pthread_rwlock_unlock(&reg_lock);
}

/* The pointer stays valid while the module is loaded; callers outside this file must not race
 * it with cuModuleUnload (CUDA makes that the program's responsibility too). */
npu_status_t drv_func_resolve(CUfunction h, npu_kfunc_t **out)
{
    drv_func_t *f;
    CUresult r = func_enter(h, &f, out);
    if (r != CUDA_SUCCESS)
        return r == CUDA_ERROR_INVALID_HANDLE ? NPU_EHANDLE : NPU_EINVAL;
    func_leave();
    return NPU_OK;
}

static CUresult func_attr(int *pi, CUfunction_attribute a, const npu_kfunc_info_t *in)
{
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = npu_kfunc_max_threads(in); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)in->static_shared; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)in->const_size; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)in->local_size; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)in->num_regs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = (int)in->ptx_version; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)in->target_sm; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = npu_kfunc_max_dynamic_shared(in); break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = in->preferred_carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = 0;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult func_set_attr(CUfunction_attribute a, int value, npu_kfunc_info_t *in)
{
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        return npu_kfunc_set_max_dynamic_shared(in, value) == NPU_OK ? CUDA_SUCCESS
                                                                   : CUDA_ERROR_INVALID_VALUE;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (value < -1 || value > 100)
            return CUDA_ERROR_INVALID_VALUE;
        in->preferred_carveout = value;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        shim_unsupported_once("cuFuncSetAttribute(cluster attribute)");
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

NPU_EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(hfunc, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    r = func_attr(pi, attrib, npu_kfunc_info(kf));
    func_leave();
    return r;
}

NPU_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(hfunc, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    r = func_set_attr(attrib, value, npu_kfunc_info(kf));
    func_leave();
    return r;
}

/* Cache and bank preferences are hints on a GPU too: validated, then nothing to change. */
NPU_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(hfunc, &f, &kf);
    if (r == CUDA_SUCCESS)
        func_leave();
    return r;
}

NPU_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(hfunc, &f, &kf);
    if (r == CUDA_SUCCESS)
        func_leave();
    return r;
}

NPU_EXPORT CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    int kind = reg_kind_locked(hfunc);
    if (kind == H_FUNC || kind == H_KERNEL)
        *name = ((drv_func_t *)hfunc)->name;
    pthread_rwlock_unlock(&reg_lock);
    return kind == H_FUNC || kind == H_KERNEL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

NPU_EXPORT CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!hmod)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    int kind = reg_kind_locked(hfunc);
    if (kind == H_FUNC)
        *hmod = (CUmodule)((drv_func_t *)hfunc)->mod;
    pthread_rwlock_unlock(&reg_lock);
    return kind == H_FUNC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

NPU_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                       size_t *paramSize)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(func, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    const npu_kfunc_info_t *in = npu_kfunc_info(kf);
    if (paramIndex >= in->nparams) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else {
        if (paramOffset)
            *paramOffset = in->params[paramIndex].offset;
        if (paramSize)
            *paramSize = in->params[paramIndex].size;
    }
    func_leave();
    return r;
}

NPU_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    int kind = reg_kind_locked(function);
    if (kind == H_FUNC)
        *state = atomic_load(&((drv_func_t *)function)->kf) ? CU_FUNCTION_LOADING_STATE_LOADED
                                                            : CU_FUNCTION_LOADING_STATE_UNLOADED;
    pthread_rwlock_unlock(&reg_lock);
    return kind == H_FUNC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

NPU_EXPORT CUresult cuFuncLoad(CUfunction function)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(function, &f, &kf);
    if (r == CUDA_SUCCESS)
        func_leave();
    return r;
}

NPU_EXPORT CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!pFunc)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_wrlock(&reg_lock);
    drv_func_t *f = NULL;
    npu_status_t st = reg_kind_locked(kernel) == H_KERNEL ? func_record_locked(kernel, &f) : NPU_EHANDLE;
    pthread_rwlock_unlock(&reg_lock);
    if (st == NPU_OK)
        *pFunc = (CUfunction)f;
    return drv_map(st);
}

NPU_EXPORT CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    int ok = reg_kind_locked(hfunc) == H_KERNEL;
    if (ok)
        *name = ((drv_func_t *)hfunc)->name;
    pthread_rwlock_unlock(&reg_lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

NPU_EXPORT CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pLib)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&reg_lock);
    int ok = reg_kind_locked(kernel) == H_KERNEL;
    if (ok)
        *pLib = (CUlibrary)((drv_func_t *)kernel)->lib;
    pthread_rwlock_unlock(&reg_lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* cuKernel{Get,Set}Attribute name a device: the kernel's function on that device. */
static CUresult kernel_on_device(CUkernel kernel, CUdevice dev, drv_func_t **rec, npu_kfunc_t **kf)
{
    DRV_ENTER();
    if (dev < 0 || dev >= npu_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    pthread_rwlock_rdlock(&reg_lock);
    int ok = reg_kind_locked(kernel) == H_KERNEL;
    pthread_rwlock_unlock(&reg_lock);
    if (!ok)
        return CUDA_ERROR_INVALID_HANDLE;
    int saved = npu_device_current();
    npu_device_set_current(dev);
    CUresult r = func_enter((CUfunction)kernel, rec, kf);
    npu_device_set_current(saved);
    return r;
}

NPU_EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = kernel_on_device(kernel, dev, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    r = func_attr(pi, attrib, npu_kfunc_info(kf));
    func_leave();
    return r;
}

NPU_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = kernel_on_device(kernel, dev, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    r = func_set_attr(attrib, val, npu_kfunc_info(kf));
    func_leave();
    return r;
}

NPU_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = kernel_on_device(kernel, dev, &f, &kf);
    if (r == CUDA_SUCCESS)
        func_leave();
    return r;
}

NPU_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                         size_t *paramSize)
{
    NPU_API_SCOPE(__func__);
    return cuFuncGetParamInfo((CUfunction)kernel, paramIndex, paramOffset, paramSize);
}

/* -------------------------------------------------------------------- link ---- */
typedef struct drv_link {
    ptx_set_t ptx;
    jit_opts_t opts;
    char *blob;
    size_t blob_size;
} drv_link_t;

static drv_link_t *link_get(CUlinkState h)
{
    pthread_rwlock_rdlock(&reg_lock);
    int ok = reg_kind_locked(h) == H_LINK;
    pthread_rwlock_unlock(&reg_lock);
    return ok ? (drv_link_t *)h : NULL;
}

static CUresult link_create(unsigned int numOptions, CUjit_option *options, void **optionValues,
                            CUlinkState *stateOut)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!stateOut)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = jit_check(numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    drv_link_t *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    l->opts = (jit_opts_t){ numOptions, options, optionValues };  /* valid for the state's life */
    pthread_rwlock_wrlock(&reg_lock);
    int ok = reg_add_locked(l, H_LINK);
    pthread_rwlock_unlock(&reg_lock);
    if (!ok) {
        free(l);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *stateOut = (CUlinkState)l;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                 CUlinkState *stateOut)
{
    NPU_API_SCOPE(__func__);
    return link_create(numOptions, options, optionValues, stateOut);
}

NPU_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                    CUlinkState *stateOut)
{
    NPU_API_SCOPE(__func__);
    return link_create(numOptions, options, optionValues, stateOut);
}

/* Every fatbin embedded in a host object or archive (nvcc -rdc=true output). */
static npu_status_t add_embedded_fatbins(ptx_set_t *s, const char *data, size_t size)
{
    int found = 0;
    for (size_t off = 0; off + 16 <= size; off += 8) {
        uint32_t magic;
        memcpy(&magic, data + off, 4);
        if (magic != FATBIN_MAGIC)
            continue;
        size_t fs = npu_fatbin_size(data + off);
        if (fs == 0 || fs > size - off)
            continue;
        npu_status_t st = add_fatbin(s, data + off);
        if (st == NPU_OK)
            found++;
        else if (st != NPU_ENOIMAGE)
            return st;
        off += ((fs + 7) & ~(size_t)7) - 8;
    }
    return found ? NPU_OK : NPU_ENOIMAGE;
}

static CUresult link_add(CUlinkState state, CUjitInputType type, const void *data, size_t size,
                         const char *name)
{
    drv_link_t *l = link_get(state);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!data || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    const char *what = name ? name : "(unnamed input)";
    npu_status_t st;
    switch (type) {
    case CU_JIT_INPUT_PTX:
        st = set_add_copy(&l->ptx, data, strnlen(data, size));
        break;
    case CU_JIT_INPUT_FATBINARY:
        st = image_to_ptx(data, size, &l->ptx, "cuLinkAddData", 0);
        break;
    case CU_JIT_INPUT_OBJECT:
    case CU_JIT_INPUT_LIBRARY:
        st = add_embedded_fatbins(&l->ptx, data, size);
        if (st == NPU_ENOIMAGE && type == CU_JIT_INPUT_LIBRARY) {
            /* An archive only supplies symbols the other inputs lack (numba adds
             * libcudadevrt.a, which holds cubins only): go on without it; an unresolved
             * symbol still fails at cuLinkComplete. */
            NPU_WARN("cuLinkAddData: library %s has no PTX for the NPU; linking without it", what);
            st = NPU_OK;
        } else if (st == NPU_ENOIMAGE) {
            NPU_ERR("cuLinkAddData: %s has no embedded PTX; rebuild it with PTX "
                    "(nvcc -rdc=true -gencode arch=compute_XX,code=compute_XX)", what);
        }
        break;
    case CU_JIT_INPUT_CUBIN:
        NPU_ERR("cuLinkAddData: %s: %s", what, cubin_hint);
        st = NPU_ENOIMAGE;
        break;
    case CU_JIT_INPUT_NVVM:
        shim_unsupported_once("cuLinkAddData(CU_JIT_INPUT_NVVM: LTO IR)");
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return st == NPU_EINVAL ? CUDA_ERROR_INVALID_IMAGE : drv_map(st);
}

static CUresult link_add_data(CUlinkState state, CUjitInputType type, void *data, size_t size,
                              const char *name, unsigned int numOptions, CUjit_option *options,
                              void **optionValues)
{
    DRV_ENTER();
    CUresult r = jit_check(numOptions, options, optionValues);
    return r != CUDA_SUCCESS ? r : link_add(state, type, data, size, name);
}

NPU_EXPORT CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                  const char *name, unsigned int numOptions, CUjit_option *options,
                                  void **optionValues)
{
    NPU_API_SCOPE(__func__);
    return link_add_data(state, type, data, size, name, numOptions, options, optionValues);
}

NPU_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                     const char *name, unsigned int numOptions, CUjit_option *options,
                                     void **optionValues)
{
    NPU_API_SCOPE(__func__);
    return link_add_data(state, type, data, size, name, numOptions, options, optionValues);
}

static CUresult link_add_file(CUlinkState state, CUjitInputType type, const char *path,
                              unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    DRV_ENTER();
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = jit_check(numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    if (!link_get(state))
        return CUDA_ERROR_INVALID_HANDLE;
    char *buf;
    size_t len;
    npu_status_t st = read_file(path, &buf, &len);
    if (st != NPU_OK)
        return st == NPU_ENOTFOUND ? CUDA_ERROR_FILE_NOT_FOUND : drv_map(st);
    r = len ? link_add(state, type, buf, len, path) : CUDA_ERROR_INVALID_IMAGE;
    free(buf);
    return r;
}

NPU_EXPORT CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                                  unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    NPU_API_SCOPE(__func__);
    return link_add_file(state, type, path, numOptions, options, optionValues);
}

NPU_EXPORT CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
                                     unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    NPU_API_SCOPE(__func__);
    return link_add_file(state, type, path, numOptions, options, optionValues);
}

/* Links the inputs now (so unresolved symbols and bad PTX fail here, as on a GPU) and hands
 * back the blob cuModuleLoadData recognises: "NPULINK1", u32 count, u32 0, then per input a
 * u64 length, the text and a NUL. The blob belongs to the link state. */
NPU_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!cubinOut || !sizeOut)
        return CUDA_ERROR_INVALID_VALUE;
    drv_link_t *l = link_get(state);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (l->ptx.n == 0)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t t0 = npu_now_ns();
    npu_kmodule_t *km = NULL;
    npu_status_t st = npu_kmodule_link_ptx(c->device, (const char *const *)l->ptx.text, l->ptx.len,
                                           l->ptx.n, &km);
    if (st == NPU_OK)
        npu_kmodule_unload(km);
    jit_finish(&l->opts, st, t0, "cuLinkComplete");
    if (st != NPU_OK)
        return drv_map(st);
    size_t total = 16;
    for (int i = 0; i < l->ptx.n; i++)
        total += 8 + l->ptx.len[i] + 1;
    char *b = malloc(total);
    if (!b)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(b, link_magic, 8);
    uint32_t n = (uint32_t)l->ptx.n, maxreg = jit_max_regs(&l->opts);
    memcpy(b + 8, &n, 4);
    memcpy(b + 12, &maxreg, 4);
    char *p = b + 16;
    for (int i = 0; i < l->ptx.n; i++) {
        uint64_t len = l->ptx.len[i];
        memcpy(p, &len, 8);
        memcpy(p + 8, l->ptx.text[i], len);
        p[8 + len] = '\0';
        p += 8 + len + 1;
    }
    free(l->blob);
    l->blob = b;
    l->blob_size = total;
    *cubinOut = b;
    *sizeOut = total;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuLinkDestroy(CUlinkState state)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    pthread_rwlock_wrlock(&reg_lock);
    int ok = reg_kind_locked(state) == H_LINK;
    if (ok)
        reg_del_locked(state);
    pthread_rwlock_unlock(&reg_lock);
    if (!ok)
        return CUDA_ERROR_INVALID_HANDLE;
    drv_link_t *l = (drv_link_t *)state;
    set_free(&l->ptx);
    free(l->blob);
    free(l);
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ launch ---- */
#define EXTRA_MAX 64

static CUresult launch(CUfunction f, const uint32_t grid[3], const uint32_t block[3],
                       unsigned int shmem, CUstream h, void **params, void **extra, int pt)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    const void *buf = NULL;
    size_t buf_size = 0;
    int have_buf = 0, have_size = 0;
    if (extra) {
        int i = 0;
        for (; i < EXTRA_MAX && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
                buf = extra[i + 1];
                have_buf = 1;
            } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
                if (!extra[i + 1])
                    return CUDA_ERROR_INVALID_VALUE;
                buf_size = *(size_t *)extra[i + 1];
                have_size = 1;
            } else {
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
        if (i >= EXTRA_MAX || have_buf != have_size || (have_buf && buf_size && !buf))
            return CUDA_ERROR_INVALID_VALUE;
    }
    npu_stream_t *s = drv_stream(h, pt);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    drv_func_t *rec;
    npu_kfunc_t *kf;
    CUresult r = func_enter(f, &rec, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    const npu_kfunc_info_t *in = npu_kfunc_info(kf);
    /* More threads than the function allows (.maxntid, __launch_bounds__): the driver answers
     * CUDA_ERROR_INVALID_VALUE, which numba-cuda's launch-bounds tests, written against GPUs,
     * expect (TestLaunchBounds); the runtime's check (NPU_ERESOURCES) keeps the runtime API's
     * documented cudaErrorLaunchOutOfResources for <<<>>> and cudaLaunchKernel. */
    if ((uint64_t)block[0] * block[1] * block[2] > (uint64_t)npu_kfunc_max_threads(in)) {
        func_leave();
        return CUDA_ERROR_INVALID_VALUE;
    }
    npu_status_t st;
    if (extra && have_buf) {
        st = buf_size < in->param_size && in->nparams > 0 ? NPU_EINVAL
             : npu_kfunc_launch_packed(kf, grid, block, shmem, s, buf, buf_size);
    } else if (in->nparams > 0 && !params) {
        st = NPU_EINVAL;
    } else {
        st = npu_kfunc_launch(kf, grid, block, shmem, s, params);
    }
    func_leave();
    return drv_result(st, npu_stream_device(s));
}

static CUresult launch_kernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                              unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                              CUstream h, void **params, void **extra, int pt)
{
    const uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    return launch(f, grid, block, shmem, h, params, extra, pt);
}

#define PAIR(plain, pt, proto, impl, ...)                                              \
    NPU_EXPORT CUresult plain proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 0); }                  \
    NPU_EXPORT CUresult pt proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 1); }

PAIR(cuLaunchKernel, cuLaunchKernel_ptsz,
     (CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
      unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
      unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra),
     launch_kernel, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
     sharedMemBytes, hStream, kernelParams, extra)

/* Launch attributes that only order or prioritise work are met by in-order execution;
 * cooperative launches and clusters (co-residency guarantees) are not supported. */
static CUresult launch_ex(const CUlaunchConfig *config, CUfunction f, void **params, void **extra, int pt)
{
    DRV_ENTER();
    if (!config || (config->numAttrs > 0 && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a->value.cooperative) {
            shim_unsupported_once("cuLaunchKernelEx(CU_LAUNCH_ATTRIBUTE_COOPERATIVE)");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
            (unsigned long long)a->value.clusterDim.x * a->value.clusterDim.y * a->value.clusterDim.z > 1) {
            shim_unsupported_once("cuLaunchKernelEx(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    const uint32_t grid[3] = { config->gridDimX, config->gridDimY, config->gridDimZ };
    const uint32_t block[3] = { config->blockDimX, config->blockDimY, config->blockDimZ };
    return launch(f, grid, block, config->sharedMemBytes, config->hStream, params, extra, pt);
}

PAIR(cuLaunchKernelEx, cuLaunchKernelEx_ptsz,
     (const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra),
     launch_ex, config, f, kernelParams, extra)

/* --------------------------------------------------------------- occupancy ---- */
/* Occupancy is the runtime's one model (npu_kfunc_max_active_blocks, exec_launch.c). */
static CUresult occ_blocks(int *numBlocks, CUfunction func, int blockSize, size_t dyn, unsigned flags)
{
    DRV_ENTER();
    if (!numBlocks || blockSize <= 0 || (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(func, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    *numBlocks = npu_kfunc_max_active_blocks(kf, blockSize, dyn);
    func_leave();
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                                int blockSize, size_t dynamicSMemSize)
{
    NPU_API_SCOPE(__func__);
    return occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

NPU_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                         int blockSize, size_t dynamicSMemSize,
                                                                         unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return occ_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
}

/* The block size with the most resident threads per SM (ties: the larger block), and the
 * grid that fills every SM with it, as cudaOccupancyMaxPotentialBlockSize computes. */
static CUresult potential(int *minGridSize, int *blockSize, CUfunction func,
                          CUoccupancyB2DSize b2d, size_t dyn, int limit, unsigned flags)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!minGridSize || !blockSize || limit < 0 ||
        (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(func, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    const npu_kfunc_info_t *in = npu_kfunc_info(kf);
    int maxb = npu_kfunc_max_threads(in);
    if (limit > 0 && limit < maxb)
        maxb = limit;
    int best_b = 0, best_occ = -1, best_n = 0;
    for (int b = (maxb + 31) / 32 * 32; b > 0; b -= 32) {
        int bs = b > maxb ? maxb : b;
        size_t d = b2d ? b2d(bs) : dyn;
        int n = npu_kfunc_max_active_blocks(kf, bs, d);
        if (n * bs > best_occ) {
            best_occ = n * bs;
            best_b = bs;
            best_n = n;
        }
    }
    func_leave();
    npu_device_props_t p;
    int sms = npu_device_get_props(c->device, &p) == NPU_OK ? p.multiprocessor_count : 1;
    *blockSize = best_b;
    *minGridSize = best_n * sms;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                     CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                     size_t dynamicSMemSize, int blockSizeLimit)
{
    NPU_API_SCOPE(__func__);
    return potential(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                     blockSizeLimit, 0);
}

NPU_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                              CUfunction func,
                                                              CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                              size_t dynamicSMemSize, int blockSizeLimit,
                                                              unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return potential(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, dynamicSMemSize,
                     blockSizeLimit, flags);
}

NPU_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                            int numBlocks, int blockSize)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    drv_func_t *f;
    npu_kfunc_t *kf;
    CUresult r = func_enter(func, &f, &kf);
    if (r != CUDA_SUCCESS)
        return r;
    *dynamicSmemSize = npu_kfunc_available_dynamic_shared(kf, numBlocks, blockSize);
    func_leave();
    return CUDA_SUCCESS;
}
