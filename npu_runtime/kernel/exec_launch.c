/*
 * exec_launch.c - kernel launch: configuration checks (npu_exec_check, in exec.c), parameter
 * packing (args[i] points at parameter i; offsets and sizes come from the PTX .param list;
 * blocks up to 32 KB live on the heap with the work item), submission to a stream as one work item that runs
 * npu_exec_grid (exec.c), and the occupancy calculator.
 * Thread-safety: no shared state; callable from any thread.
 */
#include "npu_kernel.h"
#include "exec_internal.h"
#include "../npu_obs.h"  /* observability (npu_obs.h) */

#include <stdlib.h>
#include <string.h>

static uint64_t dim_product(const uint32_t d[3])
{
    uint32_t x = d[0] ? d[0] : 1, y = d[1] ? d[1] : 1, z = d[2] ? d[2] : 1;
    return (uint64_t)x * y * z;
}

/* ------------------------------------------------------------------ launch ---- */
typedef struct launch_item {
    npu_kfunc_info_t *info;
    npu_override_t *native;     /* a plugin's native override, or NULL (override.c) */
    uint32_t grid[3], block[3];
    size_t dyn_shared;
    _Alignas(16) uint8_t params[];
} launch_item_t;

static npu_status_t launch_run(void *arg)
{
    launch_item_t *li = arg;
    NPU_OBS_KERNEL_SCOPE(li->info, li->grid, li->block);  /* observability (npu_obs.h) */
    if (li->native)
        return npu_override_call(li->native, li->info, li->grid, li->block, li->dyn_shared,
                                 li->params);
    return npu_exec_grid_checked(li->info, li->grid, li->block, li->dyn_shared, li->params);
}

static void launch_free(void *arg)
{
    free(arg);
}

static npu_status_t launch_prepare(npu_kfunc_t *f, const uint32_t grid[3],
                                   const uint32_t block[3], size_t dyn_shared, npu_stream_t *s,
                                   npu_kfunc_info_t **info_out, launch_item_t **out)
{
    if (!f)
        return NPU_EFUNC;
    if (!grid || !block)
        return NPU_EINVAL;
    if (!s)
        return NPU_EHANDLE;
    npu_kfunc_info_t *info = npu_kfunc_info(f);
    if (!info)
        return NPU_EFUNC;
    if (info->uses_sync ? !info->thread_fn : (!info->block_fn && !info->thread_fn))
        return NPU_EFUNC;
    npu_status_t st = npu_exec_check(info, grid, block, dyn_shared);
    if (st != NPU_OK)
        return st;
    if (info->nparams && !info->params)
        return NPU_EFUNC;
    npu_override_t *native;
    st = npu_override_lookup(info, &native);
    if (st != NPU_OK)
        return st;
    size_t psize = info->param_size;
    launch_item_t *li = malloc(sizeof *li + psize + 16);
    if (!li)
        return NPU_EHOSTMEM;
    li->info = info;
    li->native = native;
    memcpy(li->grid, grid, sizeof li->grid);
    memcpy(li->block, block, sizeof li->block);
    li->dyn_shared = dyn_shared;
    memset(li->params, 0, psize + 16);
    *info_out = info;
    *out = li;
    return NPU_OK;
}

/* npu_stream_submit runs the cleanup itself when it fails after accepting the handle, but not
 * when the handle is bad: so the handle is checked first, and a failure after that leaves
 * the item to the stream (at worst a leak on a racing destroy, never a double free). */
static npu_status_t launch_submit(npu_stream_t *s, launch_item_t *li)
{
    if (!npu_stream_valid(s)) {
        free(li);
        return NPU_EHANDLE;
    }
    return npu_stream_submit(s, launch_run, launch_free, li);
}

npu_status_t npu_kfunc_launch(npu_kfunc_t *f, const uint32_t grid[3], const uint32_t block[3],
                              size_t dyn_shared, npu_stream_t *s, void **args)
{
    npu_kfunc_info_t *info;
    launch_item_t *li;
    npu_status_t st = launch_prepare(f, grid, block, dyn_shared, s, &info, &li);
    if (st != NPU_OK)
        return st;
    if (info->nparams && !args) {
        free(li);
        return NPU_EINVAL;
    }
    for (uint32_t i = 0; i < info->nparams; i++) {
        const npu_kparam_t *p = &info->params[i];
        if ((uint64_t)p->offset + p->size > info->param_size) {
            NPU_ERR("kernel %s: parameter %u lies outside the %u-byte parameter block",
                    info->name ? info->name : "?", i, info->param_size);
            free(li);
            return NPU_EFUNC;
        }
        if (!args[i]) {
            free(li);
            return NPU_EINVAL;
        }
        memcpy(li->params + p->offset, args[i], p->size);
    }
    return launch_submit(s, li);
}

npu_status_t npu_kfunc_launch_packed(npu_kfunc_t *f, const uint32_t grid[3],
                                     const uint32_t block[3], size_t dyn_shared,
                                     npu_stream_t *s, const void *params, size_t size)
{
    npu_kfunc_info_t *info;
    launch_item_t *li;
    npu_status_t st = launch_prepare(f, grid, block, dyn_shared, s, &info, &li);
    if (st != NPU_OK)
        return st;
    if (size < info->param_size || (info->param_size && !params)) {
        free(li);
        return NPU_EINVAL;
    }
    if (info->param_size)
        memcpy(li->params, params, info->param_size);
    return launch_submit(s, li);
}

/* ------------------------------------------------------------ function limits ---- */
int npu_kfunc_max_threads(const npu_kfunc_info_t *in)
{
    uint64_t n = in->reqntid[0] ? dim_product(in->reqntid)
               : in->maxntid[0] ? dim_product(in->maxntid) : EXEC_MAX_THREADS;
    return (int)(n > EXEC_MAX_THREADS ? EXEC_MAX_THREADS : n);
}

int npu_kfunc_max_dynamic_shared(const npu_kfunc_info_t *in)
{
    if (in->max_dynamic_shared > 0)
        return in->max_dynamic_shared;
    int d = 48 * 1024 - (int)in->static_shared;
    return d < 0 ? 0 : d;
}

npu_status_t npu_kfunc_set_max_dynamic_shared(npu_kfunc_info_t *in, int bytes)
{
    if (bytes < 0 || (size_t)bytes + in->static_shared > NPU_SHARED_OPTIN_MAX)
        return NPU_EINVAL;
    in->max_dynamic_shared = bytes;
    return NPU_OK;
}

/* --------------------------------------------------------------- occupancy ---- */
/* One block worker plays the part of one SM of a compute-capability-9.0 device: 2048
 * threads, 32 blocks, 228 KiB of shared memory with 1 KiB reserved per block. */
int npu_kfunc_max_active_blocks(npu_kfunc_t *f, int block_size, size_t dyn_shared)
{
    if (!f || block_size <= 0 || block_size > EXEC_MAX_THREADS)
        return 0;
    npu_kfunc_info_t *info = npu_kfunc_info(f);
    if (!info)
        return 0;
    if (info->maxntid[0] && (uint64_t)block_size > dim_product(info->maxntid))
        return 0;
    if (info->reqntid[0] && (uint64_t)block_size > dim_product(info->reqntid))
        return 0;
    uint64_t smem = (uint64_t)info->static_shared + dyn_shared;
    if (smem > EXEC_SHARED_OPTIN)
        return 0;
    int warps = (block_size + 31) / 32;
    int n = EXEC_THREADS_PER_SM / (warps * 32);
    if (n > EXEC_BLOCKS_PER_SM)
        n = EXEC_BLOCKS_PER_SM;
    if (smem) {
        uint64_t by_smem = EXEC_SHARED_PER_SM / (smem + 1024);
        if (by_smem < (uint64_t)n)
            n = (int)by_smem;
    }
    return n;
}

size_t npu_kfunc_available_dynamic_shared(npu_kfunc_t *f, int num_blocks, int block_size)
{
    npu_kfunc_info_t *in = f ? npu_kfunc_info(f) : NULL;
    if (!in || num_blocks <= 0 || block_size <= 0 || block_size > npu_kfunc_max_threads(in) ||
        (uint64_t)num_blocks * (uint64_t)((block_size + 31) / 32) > EXEC_THREADS_PER_SM / 32)
        return 0;
    size_t per_block = EXEC_SHARED_PER_SM / (size_t)num_blocks;
    per_block = per_block > 1024 ? per_block - 1024 : 0;   /* 1 KiB reserved per block */
    if (per_block > NPU_SHARED_OPTIN_MAX)
        per_block = NPU_SHARED_OPTIN_MAX;
    return per_block > in->static_shared ? per_block - in->static_shared : 0;
}
