/*
 * cudart_launch.c - kernel launch entry points of the runtime API: the <<<>>> protocol
 * (__cudaPushCallConfiguration / __cudaPopCallConfiguration / __cudaGetKernel /
 * __cudaLaunchKernel, CUDA 13), cudaLaunchKernel (CUDA 12 stubs and explicit calls),
 * cudaLaunchKernelExC, function attributes and the occupancy calculator.
 *
 * The call configuration is a per-host-thread stack (a launch inside an argument expression
 * of another launch pushes twice), as in CUDA.
 */
#include "cudart_module.h"

#include <string.h>

/* ------------------------------------------------------- call configuration ---- */

typedef struct call_config {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
} call_config_t;

#define CONFIG_STACK_MAX 64
static __thread call_config_t config_stack[CONFIG_STACK_MAX];
static __thread int config_depth;

NPU_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                struct CUstream_st *stream)
{
    NPU_API_SCOPE(__func__);
    if (config_depth >= CONFIG_STACK_MAX) {
        NPU_ERR("__cudaPushCallConfiguration: launch configurations nested too deeply");
        return 1;
    }
    config_stack[config_depth++] = (call_config_t){ gridDim, blockDim, sharedMem, stream };
    return 0;
}

NPU_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                  size_t *sharedMem, void *stream)
{
    NPU_API_SCOPE(__func__);
    if (config_depth <= 0)
        return shim_fail(cudaErrorMissingConfiguration);
    call_config_t c = config_stack[--config_depth];
    if (gridDim) *gridDim = c.grid;
    if (blockDim) *blockDim = c.block;
    if (sharedMem) *sharedMem = c.shmem;
    if (stream) *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

NPU_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    NPU_API_SCOPE(__func__);
    if (!kernel)
        return shim_fail(cudaErrorInvalidValue);
    cudart_kernel_t *k = cudart_kernel_from_hostfun(hostFun);
    *kernel = (cudaKernel_t)k;
    return k ? cudaSuccess : shim_fail(cudaErrorInvalidDeviceFunction);
}

NPU_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    NPU_API_SCOPE(__func__);
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

/* ------------------------------------------------------------------- launch ---- */

static cudaError_t launch(cudart_kernel_t *k, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream, int ptsz)
{
    SHIM_ENTER();
    if (!k)
        return shim_fail(cudaErrorInvalidDeviceFunction);
    int dev = shim_device();
    npu_status_t sticky = npu_device_error(dev);
    if (sticky != NPU_OK)
        return shim_return(sticky);
    npu_stream_t *s = shim_stream(stream, ptsz);
    if (!s)
        return shim_fail(cudaErrorInvalidResourceHandle);
    npu_kfunc_t *f;
    npu_status_t st = cudart_kernel_resolve(k, dev, &f);
    if (st != NPU_OK)
        return shim_return(st);
    const uint32_t g[3] = { grid.x, grid.y, grid.z }, b[3] = { block.x, block.y, block.z };
    return shim_return(npu_kfunc_launch(f, g, b, shmem, s, args));
}

NPU_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                          void **args, size_t sharedMem, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return launch(cudart_kernel_from_handle(kernel), gridDim, blockDim, args, sharedMem, stream, 0);
}

NPU_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                               void **args, size_t sharedMem, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return launch(cudart_kernel_from_handle(kernel), gridDim, blockDim, args, sharedMem, stream, 1);
}

NPU_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return launch(cudart_kernel_from_hostfun(func), gridDim, blockDim, args, sharedMem, stream, 0);
}

NPU_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return launch(cudart_kernel_from_hostfun(func), gridDim, blockDim, args, sharedMem, stream, 1);
}

/* cudaLaunchKernelExC: attributes that only relax or order scheduling (priority, access
 * policy windows, programmatic serialization, memory sync domains) are honoured trivially by
 * our in-order execution; ones that need co-residency or clusters are not supported. */
static cudaError_t launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args,
                             int ptsz)
{
    if (!config)
        return shim_fail(cudaErrorInvalidValue);
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative:
            if (a->val.cooperative) {
                shim_unsupported_once("cudaLaunchKernelExC(cudaLaunchAttributeCooperative)");
                return shim_fail(cudaErrorNotSupported);
            }
            break;
        case cudaLaunchAttributeClusterDimension:
            if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1) {
                shim_unsupported_once("cudaLaunchKernelExC(cudaLaunchAttributeClusterDimension)");
                return shim_fail(cudaErrorNotSupported);
            }
            break;
        default:
            break;
        }
    }
    return launch(cudart_kernel_from_hostfun(func), config->gridDim, config->blockDim, args,
                  config->dynamicSmemBytes, config->stream, ptsz);
}

NPU_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                           void **args)
{
    NPU_API_SCOPE(__func__);
    return launch_ex(config, func, args, 0);
}

NPU_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                                const void *func, void **args)
{
    NPU_API_SCOPE(__func__);
    return launch_ex(config, func, args, 1);
}

/* --------------------------------------------------------- function attributes ---- */

static cudaError_t resolve_func(const void *func, npu_kfunc_t **f)
{
    SHIM_ENTER();
    cudart_kernel_t *k = cudart_kernel_from_hostfun(func);
    if (!k)
        return shim_fail(cudaErrorInvalidDeviceFunction);
    return shim_return(cudart_kernel_resolve(k, shim_device(), f));
}

NPU_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    NPU_API_SCOPE(__func__);
    if (!attr)
        return shim_fail(cudaErrorInvalidValue);
    npu_kfunc_t *f;
    cudaError_t e = resolve_func(func, &f);
    if (e != cudaSuccess)
        return e;
    const npu_kfunc_info_t *in = npu_kfunc_info(f);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = in->static_shared;
    attr->constSizeBytes = in->const_size;
    attr->localSizeBytes = in->local_size;
    attr->maxThreadsPerBlock = npu_kfunc_max_threads(in);
    attr->numRegs = (int)in->num_regs;
    attr->ptxVersion = (int)in->ptx_version;
    attr->binaryVersion = (int)in->target_sm;
    attr->cacheModeCA = 0;
    attr->maxDynamicSharedSizeBytes = npu_kfunc_max_dynamic_shared(in);
    attr->preferredShmemCarveout = in->preferred_carveout;
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    NPU_API_SCOPE(__func__);
    npu_kfunc_t *f;
    cudaError_t e = resolve_func(func, &f);
    if (e != cudaSuccess)
        return e;
    npu_kfunc_info_t *in = npu_kfunc_info(f);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        return shim_return(npu_kfunc_set_max_dynamic_shared(in, value));
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100)
            return shim_fail(cudaErrorInvalidValue);
        in->preferred_carveout = value;
        return cudaSuccess;
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
    case cudaFuncAttributeClusterDimMustBeSet:
        shim_unsupported_once("cudaFuncSetAttribute(cluster attribute)");
        return shim_fail(cudaErrorNotSupported);
    default:
        return shim_fail(cudaErrorInvalidValue);
    }
}

/* Cache and shared-memory bank preferences are hints on a GPU too; record nothing more. */
NPU_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    NPU_API_SCOPE(__func__);
    npu_kfunc_t *f;
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual)
        return shim_fail(cudaErrorInvalidValue);
    return resolve_func(func, &f);
}

NPU_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    NPU_API_SCOPE(__func__);
    npu_kfunc_t *f;
    if ((unsigned)config > cudaSharedMemBankSizeEightByte)
        return shim_fail(cudaErrorInvalidValue);
    return resolve_func(func, &f);
}

NPU_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    NPU_API_SCOPE(__func__);
    if (!name)
        return shim_fail(cudaErrorInvalidValue);
    cudart_kernel_t *k = cudart_kernel_from_hostfun(func);
    if (!k)
        return shim_fail(cudaErrorInvalidDeviceFunction);
    *name = cudart_kernel_name(k);
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex,
                                            size_t *paramOffset, size_t *paramSize)
{
    NPU_API_SCOPE(__func__);
    npu_kfunc_t *f;
    cudaError_t e = resolve_func(func, &f);
    if (e != cudaSuccess)
        return e;
    const npu_kfunc_info_t *in = npu_kfunc_info(f);
    if (paramIndex >= in->nparams)
        return shim_fail(cudaErrorInvalidValue);
    if (paramOffset) *paramOffset = in->params[paramIndex].offset;
    if (paramSize) *paramSize = in->params[paramIndex].size;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- occupancy ---- */
/* The runtime's one occupancy model (npu_kfunc_max_active_blocks): an emulated SM holds up
 * to 2048 threads, 32 blocks and 228 KiB of shared memory, like an sm_80-class GPU. */
static cudaError_t occupancy(int *numBlocks, const void *func, int blockSize, size_t dynSmem,
                             unsigned flags)
{
    if (!numBlocks || blockSize <= 0)
        return shim_fail(cudaErrorInvalidValue);
    if (flags & ~(unsigned)cudaOccupancyDisableCachingOverride)
        return shim_fail(cudaErrorInvalidValue);
    npu_kfunc_t *f;
    cudaError_t e = resolve_func(func, &f);
    if (e != cudaSuccess)
        return e;
    *numBlocks = npu_kfunc_max_active_blocks(f, blockSize, dynSmem);
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                     const void *func,
                                                                     int blockSize,
                                                                     size_t dynamicSMemSize)
{
    NPU_API_SCOPE(__func__);
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

NPU_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize, flags);
}

NPU_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                 const void *func,
                                                                 int numBlocks, int blockSize)
{
    NPU_API_SCOPE(__func__);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return shim_fail(cudaErrorInvalidValue);
    npu_kfunc_t *f;
    cudaError_t e = resolve_func(func, &f);
    if (e != cudaSuccess)
        return e;
    *dynamicSmemSize = npu_kfunc_available_dynamic_shared(f, numBlocks, blockSize);
    return cudaSuccess;
}
