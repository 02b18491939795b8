/*
 * cudart_module.c - __cudaRegisterFatBinary & co, and the lazy load of registered fatbins
 * into runtime modules (see cudart_module.h for the design). Also the symbol API
 * (cudaMemcpyToSymbol/FromSymbol, cudaGetSymbolAddress/Size) and __managed__ variables.
 */
#include "cudart_module.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#define MAX_DEVICES 64
#define FATBIN_WRAPPER_MAGIC 0x466243B1u

typedef struct cudart_fatbin {
    const void *wrapper;            /* what __cudaRegisterFatBinary received */
    pthread_mutex_t lock;
    npu_kmodule_t *mod[MAX_DEVICES];
    npu_status_t load_status[MAX_DEVICES]; /* remembered failure (e.g. no PTX) */
    int unregistered;
    struct cudart_var *managed;     /* managed variables to bind at __cudaInitModule */
} cudart_fatbin_t;

struct cudart_kernel {
    const void *hostfun;
    cudart_fatbin_t *fb;
    char *name;                     /* mangled device name */
    npu_kfunc_t *fn[MAX_DEVICES];
    struct cudart_kernel *self;     /* key of the handle table */
    UT_hash_handle hh;              /* by hostfun */
    UT_hash_handle hk;              /* by record address (handle validation) */
};

typedef struct cudart_var {
    const void *hostvar;            /* host shadow address (the "symbol") */
    cudart_fatbin_t *fb;
    char *name;
    size_t size;
    int constant, managed;
    void **managed_host_ptr;        /* __managed__: where host code reads the address */
    struct cudart_var *next_managed;
    UT_hash_handle hh;
} cudart_var_t;

static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static cudart_kernel_t *kernels_by_hostfun, *kernels_by_addr;
static cudart_var_t *vars_by_hostvar;

/* ---------------------------------------------------------------- registration ---- */

NPU_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    NPU_API_SCOPE(__func__);
    cudart_fatbin_t *fb = calloc(1, sizeof *fb);
    if (!fb) {
        NPU_ERR("__cudaRegisterFatBinary: out of host memory");
        return NULL;
    }
    fb->wrapper = fatCubin;
    pthread_mutex_init(&fb->lock, NULL);
    NPU_DEBUG("registered fatbin %p", fatCubin);
    return (void **)fb;
}

NPU_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    NPU_API_SCOPE(__func__);
    (void)fatCubinHandle; /* nothing to finish: loading is lazy */
}

NPU_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    NPU_API_SCOPE(__func__);
    cudart_fatbin_t *fb = (cudart_fatbin_t *)fatCubinHandle;
    if (!fb)
        return;
    /* Called from atexit: streams may still run work that uses the modules, and records must
     * stay valid for cached handles, so only mark it. The process is ending. */
    pthread_mutex_lock(&fb->lock);
    fb->unregistered = 1;
    pthread_mutex_unlock(&fb->lock);
}

NPU_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                       const char *deviceName, int thread_limit, uint3 *tid,
                                       uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    NPU_API_SCOPE(__func__);
    (void)deviceName; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim; (void)wSize;
    if (!fatCubinHandle || !hostFun || !deviceFun)
        return;
    cudart_kernel_t *k = calloc(1, sizeof *k);
    char *name = strdup(deviceFun);
    if (!k || !name) {
        free(k);
        free(name);
        NPU_ERR("__cudaRegisterFunction(%s): out of host memory", deviceFun);
        return;
    }
    k->hostfun = hostFun;
    k->fb = (cudart_fatbin_t *)fatCubinHandle;
    k->name = name;
    pthread_rwlock_wrlock(&reg_lock);
    cudart_kernel_t *old;
    HASH_FIND(hh, kernels_by_hostfun, &k->hostfun, sizeof(void *), old);
    if (old) /* re-registration (a library loaded twice): the newest wins */
        HASH_DELETE(hh, kernels_by_hostfun, old);
    HASH_ADD(hh, kernels_by_hostfun, hostfun, sizeof(void *), k);
    k->self = k;
    HASH_ADD(hk, kernels_by_addr, self, sizeof(void *), k);
    pthread_rwlock_unlock(&reg_lock);
}

static void register_var(void **h, const void *hostvar, void **managed_ptr, const char *name,
                         size_t size, int constant, int managed)
{
    if (!h || !hostvar || !name)
        return;
    cudart_var_t *v = calloc(1, sizeof *v);
    char *n = strdup(name);
    if (!v || !n) {
        free(v);
        free(n);
        NPU_ERR("__cudaRegisterVar(%s): out of host memory", name);
        return;
    }
    v->hostvar = hostvar;
    v->fb = (cudart_fatbin_t *)h;
    v->name = n;
    v->size = size;
    v->constant = constant;
    v->managed = managed;
    v->managed_host_ptr = managed_ptr;
    pthread_rwlock_wrlock(&reg_lock);
    cudart_var_t *old;
    HASH_FIND_PTR(vars_by_hostvar, &v->hostvar, old);
    if (old)
        HASH_DEL(vars_by_hostvar, old);
    HASH_ADD_PTR(vars_by_hostvar, hostvar, v);
    pthread_rwlock_unlock(&reg_lock);
    if (managed) {
        pthread_mutex_lock(&v->fb->lock);
        v->next_managed = v->fb->managed;
        v->fb->managed = v;
        pthread_mutex_unlock(&v->fb->lock);
    }
}

NPU_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size, int constant,
                                  int global)
{
    NPU_API_SCOPE(__func__);
    (void)deviceName; (void)ext; (void)global;
    register_var(fatCubinHandle, hostVar, NULL, deviceAddress, size, constant, 0);
}

NPU_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                         char *deviceAddress, const char *deviceName, int ext,
                                         size_t size, int constant, int global)
{
    NPU_API_SCOPE(__func__);
    (void)deviceName; (void)ext; (void)global;
    /* The symbol host code passes to cudaMemcpyToSymbol for a __managed__ variable is the
     * shadow whose address is hostVarPtrAddress. */
    register_var(fatCubinHandle, hostVarPtrAddress, hostVarPtrAddress, deviceAddress, size,
                 constant, 1);
}

/* ------------------------------------------------------------------ resolution ---- */

static npu_status_t fatbin_load_locked(cudart_fatbin_t *fb, int dev)
{
    if (fb->mod[dev])
        return NPU_OK;
    if (fb->load_status[dev] != NPU_OK)
        return fb->load_status[dev];
    const void *data = fb->wrapper;
    npu_status_t st;
    npu_ptx_image_t *imgs = NULL;
    int n = 0;
    st = npu_fatbin_extract_all(data, &imgs, &n);
    unsigned max_regs = 0;           /* nvcc -maxrregcount, recorded for the JIT */
    for (int i = 0; st == NPU_OK && i < n; i++)
        if (imgs[i].max_regs && (!max_regs || imgs[i].max_regs < max_regs))
            max_regs = imgs[i].max_regs;
    if (st == NPU_OK && n == 1) {
        st = npu_kmodule_load_ptx(dev, imgs[0].text, imgs[0].len, &fb->mod[dev]);
    } else if (st == NPU_OK && n > 1) {
        const char **texts = calloc((size_t)n, sizeof *texts);
        size_t *lens = calloc((size_t)n, sizeof *lens);
        if (!texts || !lens) {
            st = NPU_EHOSTMEM;
        } else {
            for (int i = 0; i < n; i++) {
                texts[i] = imgs[i].text;
                lens[i] = imgs[i].len;
            }
            st = npu_kmodule_link_ptx(dev, texts, lens, n, &fb->mod[dev]);
        }
        free(texts);
        free(lens);
    } else if (st == NPU_OK) {
        st = NPU_ENOIMAGE;
    }
    if (st == NPU_OK)
        npu_kmodule_set_max_registers(fb->mod[dev], max_regs);
    for (int i = 0; i < n; i++)
        npu_ptx_image_free(&imgs[i]);
    free(imgs);
    if (st != NPU_OK)
        fb->load_status[dev] = st;
    return st;
}

static npu_status_t fatbin_module(cudart_fatbin_t *fb, int dev, npu_kmodule_t **out)
{
    if (dev < 0 || dev >= MAX_DEVICES)
        return NPU_EDEVICE;
    pthread_mutex_lock(&fb->lock);
    npu_status_t st = fatbin_load_locked(fb, dev);
    *out = fb->mod[dev];
    pthread_mutex_unlock(&fb->lock);
    return st;
}

cudart_kernel_t *cudart_kernel_from_hostfun(const void *hostfun)
{
    cudart_kernel_t *k = NULL;
    pthread_rwlock_rdlock(&reg_lock);
    HASH_FIND(hh, kernels_by_hostfun, &hostfun, sizeof(void *), k);
    pthread_rwlock_unlock(&reg_lock);
    return k;
}

/* A cudaKernel_t is the record's address, validated through the handle table (records are
 * never freed), so garbage handles are rejected without a dereference. */
cudart_kernel_t *cudart_kernel_from_handle(const void *handle)
{
    if (!handle)
        return NULL;
    cudart_kernel_t *k = NULL;
    pthread_rwlock_rdlock(&reg_lock);
    HASH_FIND(hk, kernels_by_addr, &handle, sizeof(void *), k);
    pthread_rwlock_unlock(&reg_lock);
    return k;
}

const char *cudart_kernel_name(const cudart_kernel_t *k)
{
    return k ? k->name : "?";
}

npu_status_t cudart_kernel_resolve(cudart_kernel_t *k, int dev, npu_kfunc_t **out)
{
    if (dev < 0 || dev >= MAX_DEVICES)
        return NPU_EDEVICE;
    npu_kfunc_t *f = __atomic_load_n(&k->fn[dev], __ATOMIC_ACQUIRE);
    if (f) {
        *out = f;
        return NPU_OK;
    }
    npu_kmodule_t *m;
    npu_status_t st = fatbin_module(k->fb, dev, &m);
    if (st == NPU_ENOIMAGE) {
        NPU_ERR("kernel %s has no PTX in its fatbin (only GPU machine code): rebuild with PTX "
                "embedded, e.g. nvcc -arch=sm_80 or -gencode arch=compute_80,code=compute_80",
                k->name);
        return st;
    }
    if (st != NPU_OK) {
        NPU_ERR("kernel %s: loading its module failed: %s", k->name, npu_status_message(st));
        return st;
    }
    st = npu_kmodule_get_function(m, k->name, &f);
    if (st != NPU_OK)
        return st;
    __atomic_store_n(&k->fn[dev], f, __ATOMIC_RELEASE);
    *out = f;
    return NPU_OK;
}

static cudart_var_t *var_find(const void *symbol)
{
    cudart_var_t *v = NULL;
    pthread_rwlock_rdlock(&reg_lock);
    HASH_FIND_PTR(vars_by_hostvar, &symbol, v);
    pthread_rwlock_unlock(&reg_lock);
    return v;
}

npu_status_t cudart_symbol_resolve(const void *symbol, int dev, void **dptr, size_t *size)
{
    cudart_var_t *v = symbol ? var_find(symbol) : NULL;
    if (!v)
        return NPU_ESYMBOL;
    npu_kmodule_t *m;
    npu_status_t st = fatbin_module(v->fb, dev, &m);
    if (st != NPU_OK)
        return st;
    size_t sz = 0;
    st = npu_kmodule_get_global(m, v->name, dptr, &sz);
    if (st == NPU_ENOTFOUND)
        return NPU_ESYMBOL;
    if (st == NPU_OK && size)
        *size = v->size ? v->size : sz;
    return st;
}

/* __managed__ variables: host code calls this (once per translation unit) before it first
 * touches one; bind each host pointer to the variable's memory. Returns 1 on success. */
NPU_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
    NPU_API_SCOPE(__func__);
    cudart_fatbin_t *fb = (cudart_fatbin_t *)fatCubinHandle;
    if (!fb || npu_init() != NPU_OK)
        return 0;
    int dev = npu_device_current();
    npu_kmodule_t *m;
    if (fatbin_module(fb, dev, &m) != NPU_OK)
        return 0;
    char ok = 1;
    pthread_mutex_lock(&fb->lock);
    for (cudart_var_t *v = fb->managed; v; v = v->next_managed) {
        void *p;
        size_t sz;
        if (npu_kmodule_get_global(m, v->name, &p, &sz) == NPU_OK && v->managed_host_ptr)
            *v->managed_host_ptr = p;
        else
            ok = 0;
    }
    pthread_mutex_unlock(&fb->lock);
    return ok;
}

/* ---------------------------------------------------------------- symbol API ---- */

static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, void **addr)
{
    void *base;
    size_t size;
    npu_status_t st = cudart_symbol_resolve(symbol, shim_device(), &base, &size);
    if (st != NPU_OK)
        return shim_return(st);
    if (offset > size || count > size - offset)
        return shim_fail(cudaErrorInvalidValue);
    *addr = (char *)base + offset;
    return cudaSuccess;
}

static int kind_valid(enum cudaMemcpyKind k)
{
    return (unsigned)k <= (unsigned)cudaMemcpyDefault;
}

/* One copy between a symbol and host/device memory: to_sym selects the direction; the kinds
 * that contradict it (reading a symbol into it, host-to-host) are invalid directions. */
static cudaError_t symbol_copy(int to_sym, void *mem, const void *symbol, size_t count,
                               size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream,
                               int async, int ptds)
{
    SHIM_ENTER();
    if (!kind_valid(kind) || kind == cudaMemcpyHostToHost ||
        kind == (to_sym ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice))
        return shim_fail(cudaErrorInvalidMemcpyDirection);
    if (count && !mem)
        return shim_fail(cudaErrorInvalidValue);
    void *sym = NULL;
    cudaError_t e = symbol_range(symbol, count, offset, &sym);
    if (e != cudaSuccess || count == 0)
        return e;
    npu_stream_t *s = shim_stream(stream, ptds);
    if (!s)
        return shim_fail(cudaErrorInvalidResourceHandle);
    npu_status_t st = to_sym ? npu_memcpy_async(sym, mem, count, s)
                             : npu_memcpy_async(mem, sym, count, s);
    if (st == NPU_OK && !async)
        st = npu_stream_sync(s);
    return shim_return(st);
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, cudaStream_t stream, int async, int ptds)
{
    return symbol_copy(1, (void *)src, symbol, count, offset, kind, stream, async, ptds);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, cudaStream_t stream, int async, int ptds)
{
    return symbol_copy(0, dst, symbol, count, offset, kind, stream, async, ptds);
}

NPU_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                          size_t offset, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return to_symbol(symbol, src, count, offset, kind, 0, 0, 0);
}
NPU_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return to_symbol(symbol, src, count, offset, kind, 0, 0, 1);
}
NPU_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind,
                                               cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return to_symbol(symbol, src, count, offset, kind, stream, 1, 0);
}
NPU_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                    size_t count, size_t offset,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return to_symbol(symbol, src, count, offset, kind, stream, 1, 1);
}
NPU_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                            size_t offset, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return from_symbol(dst, symbol, count, offset, kind, 0, 0, 0);
}
NPU_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return from_symbol(dst, symbol, count, offset, kind, 0, 0, 1);
}
NPU_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return from_symbol(dst, symbol, count, offset, kind, stream, 1, 0);
}
NPU_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                      size_t offset, enum cudaMemcpyKind kind,
                                                      cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return from_symbol(dst, symbol, count, offset, kind, stream, 1, 1);
}

NPU_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    if (!devPtr)
        return shim_fail(cudaErrorInvalidValue);
    size_t size;
    return shim_return(cudart_symbol_resolve(symbol, shim_device(), devPtr, &size));
}

NPU_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    if (!size)
        return shim_fail(cudaErrorInvalidValue);
    void *p;
    return shim_return(cudart_symbol_resolve(symbol, shim_device(), &p, size));
}
