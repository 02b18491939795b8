/*
 * override.c - native kernel overrides (plugin ABI and rules in npu_override.h).
 * Plugins are dlopen'ed once, on the first launch that looks one up (not at load time: the
 * library's constructor does nothing costly). The lookup result is cached in the kernel's
 * npu_kfunc_info_t, so later launches cost one load. The call goes through libffi with a
 * cif built from the PTX .param list at lookup time.
 * Thread-safety: lookups are serialised by one mutex; calls are independent.
 */
#include "npu_kernel.h"
#include "npu_override.h"

#include <dlfcn.h>
#include <ffi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLUGINS 16

struct npu_override {
    void (*fn)(void);
    const char *plugin;
    ffi_cif cif;
    ffi_type **types;   /* nparams + 1 (the context pointer) */
    uint32_t nparams;
};

static pthread_mutex_t ov_lock = PTHREAD_MUTEX_INITIALIZER;
static void *plugins[MAX_PLUGINS];
static char *plugin_names[MAX_PLUGINS];
static int nplugins = -1;   /* -1: not loaded yet */

static void load_plugins_locked(void)
{
    nplugins = 0;
    const char *env = npu_env("TRANSFER_TO_NPU_KERNELS");
    if (!env)
        return;
    char *list = strdup(env), *save = NULL;
    for (char *p = list ? strtok_r(list, ":", &save) : NULL; p && nplugins < MAX_PLUGINS;
         p = strtok_r(NULL, ":", &save)) {
        void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            NPU_ERR("TRANSFER_TO_NPU_KERNELS: cannot load plugin %s: %s", p, dlerror());
            continue;
        }
        plugins[nplugins] = h;
        plugin_names[nplugins] = strdup(p);
        nplugins++;
        NPU_INFO("loaded kernel plugin %s", p);
    }
    free(list);
}

/* "u64,u64,s32,b8[24]" from the PTX parameter list */
static void ptx_signature(const npu_kfunc_info_t *info, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < info->nparams && len + 16 < n; i++) {
        const npu_kparam_t *p = &info->params[i];
        const char *sep = i ? "," : "";
        int small = p->size == 1 || p->size == 2 || p->size == 4 || p->size == 8;
        if (p->type == 'b' && !small)
            len += (size_t)snprintf(buf + len, n - len, "%sb8[%u]", sep, p->size);
        else
            len += (size_t)snprintf(buf + len, n - len, "%s%c%u", sep,
                                    p->type == 'f' ? 'f' : 'u', p->size * 8);
    }
}

/* PTX .param types carry no C signedness (nvcc declares an int as .u32): integer types of one
 * size compare equal, whatever letter (u, s, b) either side used. */
static int sig_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a == 's' || *a == 'b' ? 'u' : *a, y = *b == 's' || *b == 'b' ? 'u' : *b;
        if (*a == 'b' && a[1] == '8' && a[2] == '[') x = 'B';   /* struct arrays stay distinct */
        if (*b == 'b' && b[1] == '8' && b[2] == '[') y = 'B';
        if (x != y)
            return 0;
        if (!*a)
            return 1;
    }
}

static ffi_type *ffi_type_of(const npu_kparam_t *p)
{
    switch (p->type) {
    case 'f': return p->size == 4 ? &ffi_type_float : p->size == 8 ? &ffi_type_double : NULL;
    case 's':
        switch (p->size) { case 1: return &ffi_type_sint8; case 2: return &ffi_type_sint16;
                           case 4: return &ffi_type_sint32; case 8: return &ffi_type_sint64; }
        return NULL;
    default:
        switch (p->size) { case 1: return &ffi_type_uint8; case 2: return &ffi_type_uint16;
                           case 4: return &ffi_type_uint32; case 8: return &ffi_type_uint64; }
        return p->type == 'b' ? &ffi_type_pointer : NULL;
    }
}

static npu_status_t build(npu_kfunc_info_t *info, void (*fn)(void), int plugin,
                          npu_override_t **out)
{
    char want[1024], *have;
    ptx_signature(info, want, sizeof want);
    char symname[1024];
    snprintf(symname, sizeof symname, "%s__npu_params", info->name);
    have = dlsym(plugins[plugin], symname);
    if (!have || !sig_equal(have, want)) {
        NPU_ERR("kernel plugin %s overrides %s with parameters \"%s\" but the kernel's PTX "
                "declares \"%s\"%s", plugin_names[plugin], info->name, have ? have : "(no __npu_params)",
                want, have ? "" : ": export const char <kernel>__npu_params[]");
        return NPU_EFUNC;
    }
    npu_override_t *o = calloc(1, sizeof *o);
    ffi_type **types = calloc(info->nparams + 1, sizeof *types);
    if (!o || !types) {
        free(o);
        free(types);
        return NPU_EHOSTMEM;
    }
    for (uint32_t i = 0; i < info->nparams; i++)
        if (!(types[i] = ffi_type_of(&info->params[i]))) {
            NPU_ERR("kernel %s: parameter %u has no native type for an override", info->name, i);
            free(o);
            free(types);
            return NPU_EFUNC;
        }
    types[info->nparams] = &ffi_type_pointer;
    if (ffi_prep_cif(&o->cif, FFI_DEFAULT_ABI, info->nparams + 1, &ffi_type_void, types) != FFI_OK) {
        free(o);
        free(types);
        return NPU_EINTERNAL;
    }
    o->fn = fn;
    o->types = types;
    o->nparams = info->nparams;
    o->plugin = plugin_names[plugin];
    *out = o;
    return NPU_OK;
}

npu_status_t npu_override_lookup(npu_kfunc_info_t *info, npu_override_t **out)
{
    *out = NULL;
    if (__atomic_load_n(&info->native_override_checked, __ATOMIC_ACQUIRE)) {
        *out = info->native_override;
        return NPU_OK;
    }
    npu_status_t st = NPU_OK;
    pthread_mutex_lock(&ov_lock);
    if (nplugins < 0)
        load_plugins_locked();
    if (!info->native_override_checked) {
        npu_override_t *o = NULL;
        for (int i = 0; i < nplugins && info->name; i++) {
            void (*fn)(void) = (void (*)(void))dlsym(plugins[i], info->name);
            if (fn) {
                st = build(info, fn, i, &o);
                if (st == NPU_OK)
                    NPU_INFO("kernel %s runs the native override from %s", info->name, plugin_names[i]);
                break;
            }
        }
        if (st == NPU_OK) { /* a mismatch is reported again on every launch */
            info->native_override = o;
            __atomic_store_n(&info->native_override_checked, 1, __ATOMIC_RELEASE);
        }
    }
    *out = info->native_override;
    pthread_mutex_unlock(&ov_lock);
    return st;
}

npu_status_t npu_override_call(npu_override_t *o, const npu_kfunc_info_t *info,
                               const uint32_t grid[3], const uint32_t block[3],
                               size_t dyn_shared, const uint8_t *params)
{
    npu_override_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    memcpy(ctx.grid, grid, sizeof ctx.grid);
    memcpy(ctx.block, block, sizeof ctx.block);
    ctx.dyn_shared = dyn_shared;
    ctx.kernel_name = info->name;
    const npu_override_ctx_t *ctxp = &ctx;
    void **values = calloc(o->nparams + 1, sizeof *values);
    const void **structs = calloc(o->nparams + 1, sizeof *structs);
    if (!values || !structs) {
        free(values);
        free(structs);
        return NPU_EHOSTMEM;
    }
    for (uint32_t i = 0; i < o->nparams; i++) {
        const uint8_t *p = params + info->params[i].offset;
        if (o->types[i] == &ffi_type_pointer) { /* struct by value: pass its address */
            structs[i] = p;
            values[i] = &structs[i];
        } else {
            values[i] = (void *)p;
        }
    }
    values[o->nparams] = &ctxp;
    ffi_call(&o->cif, o->fn, NULL, values);
    free(values);
    free(structs);
    return NPU_OK;
}
