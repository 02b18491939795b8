/*
 * cudart_device.c - device management of the CUDA runtime API on the emulated NPU:
 * count/select/properties/attributes, flags, limits, cache config, PCI ids, peer access,
 * synchronize/reset.
 *
 * Properties come from npu_device_get_props; what the NPU has no notion of (textures,
 * surfaces, ECC, TCC, NUMA ids) gets the value CUDA documents for "absent" (0 or -1), or
 * the H100 (sm_90) value where a program may size work by it (texture/surface extents).
 * Per-device runtime state (flags, limits, cache config, peer access) lives here, guarded
 * by dev_lock, and is returned to its defaults by cudaDeviceReset.
 */
#include "interpose/cudart/cudart_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------- per-device state ---- */
typedef struct dev_state {
    unsigned flags;               /* cudaSetDeviceFlags */
    enum cudaFuncCache cache;     /* cudaDeviceSetCacheConfig */
    size_t limit[7];              /* indexed by cudaLimit */
    unsigned char peer[CUDART_MAX_DEVICES]; /* peer access enabled from this device */
    int init;
} dev_state_t;

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static dev_state_t dev_state[CUDART_MAX_DEVICES]; /* guarded by dev_lock */

/* CUDA's defaults on sm_90: 1 KiB stack, 1 MiB printf FIFO, 8 MiB device heap, sync depth 2,
 * 2048 pending launches, 64-byte L2 fetch granularity, no persisting L2. */
static const size_t limit_default[7] = { 1024, 1048576, 8388608, 2, 2048, 64, 0 };

static dev_state_t *dev_state_locked(int dev)
{
    if (dev < 0 || dev >= CUDART_MAX_DEVICES)
        return NULL;
    dev_state_t *d = &dev_state[dev];
    if (!d->init) {
        memset(d, 0, sizeof *d);
        memcpy(d->limit, limit_default, sizeof d->limit);
        d->cache = cudaFuncCachePreferNone;
        d->init = 1;
    }
    return d;
}

/* Has this host thread chosen its device (cudaSetDevice)? cudaSetValidDevices only applies
 * to threads that did not. */
static __thread int thread_device_chosen;

/* ------------------------------------------------------------ enumeration ---- */
NPU_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    NPU_API_SCOPE(__func__);
    if (!count)
        return shim_fail(cudaErrorInvalidValue);
    *count = 0;
    SHIM_ENTER();
    *count = npu_device_count();
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaSetDevice(int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_status_t st = cudart_check_device(device);
    if (st == NPU_OK)
        st = npu_device_set_current(device);
    if (st == NPU_OK)
        thread_device_chosen = 1;
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaGetDevice(int *device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!device, NPU_EINVAL);
    *device = npu_device_current();
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    SHIM_RETURN_IF(flags & ~(unsigned)cudaInitDeviceFlagsAreValid, NPU_EINVAL);
    if (flags & cudaInitDeviceFlagsAreValid) {
        SHIM_RETURN_IF(deviceFlags & ~(unsigned)cudaDeviceMask, NPU_EINVAL);
        unsigned sched = deviceFlags & cudaDeviceScheduleMask;
        SHIM_RETURN_IF(sched != 0 && sched != 1 && sched != 2 && sched != 4, NPU_EINVAL);
        pthread_mutex_lock(&dev_lock);
        dev_state_t *d = dev_state_locked(device);
        if (d)
            d->flags = deviceFlags;
        pthread_mutex_unlock(&dev_lock);
    }
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(len < 0 || (len > 0 && !device_arr), NPU_EINVAL);
    for (int i = 0; i < len; i++)
        SHIM_RETURN_IF(cudart_check_device(device_arr[i]) != NPU_OK, NPU_EDEVICE);
    /* The list orders the devices tried when the runtime picks one implicitly: every
     * emulated device works, so the first entry becomes the thread's device unless the
     * thread already chose one. len 0 restores the default (device 0). */
    if (!thread_device_chosen)
        return shim_return(npu_device_set_current(len > 0 ? device_arr[0] : 0));
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!device || !prop, NPU_EINVAL);
    int best = 0;
    long best_score = LONG_MIN;
    for (int i = 0; i < npu_device_count(); i++) {
        npu_device_props_t p;
        if (npu_device_get_props(i, &p) != NPU_OK)
            continue;
        long score = 0;
        if (prop->major > 0 || prop->minor > 0) {
            long want = prop->major * 10L + prop->minor, have = p.compute_major * 10L + p.compute_minor;
            score -= (have >= want ? have - want : 1000 + want - have);
        }
        if (prop->totalGlobalMem && p.total_mem < prop->totalGlobalMem)
            score -= 100000;
        if (prop->multiProcessorCount && p.multiprocessor_count < prop->multiProcessorCount)
            score -= 10;
        if (prop->name[0] && strncmp(prop->name, p.name, sizeof prop->name) == 0)
            score += 1;
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    *device = best;
    return shim_return(NPU_OK);
}

/* ------------------------------------------------------------- properties ---- */
static void fill_props(struct cudaDeviceProp *d, const npu_device_props_t *p, int dev)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", p->name);
    memcpy(d->uuid.bytes, p->uuid, sizeof d->uuid.bytes);
    d->totalGlobalMem = p->total_mem;
    d->sharedMemPerBlock = p->shared_mem_per_block;
    d->regsPerBlock = p->regs_per_block;
    d->warpSize = p->warp_size;
    d->memPitch = INT_MAX;
    d->maxThreadsPerBlock = p->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        d->maxThreadsDim[i] = p->max_block_dim[i];
        d->maxGridSize[i] = p->max_grid_dim[i];
    }
    d->totalConstMem = p->total_const_mem;
    d->major = p->compute_major;
    d->minor = p->compute_minor;
    d->textureAlignment = 512;
    d->texturePitchAlignment = 32;
    d->multiProcessorCount = p->multiprocessor_count;
    d->integrated = 0;
    d->canMapHostMemory = 1;
    d->maxTexture1D = 131072;
    d->maxTexture1DMipmap = 32768;
    d->maxTexture2D[0] = 131072; d->maxTexture2D[1] = 65536;
    d->maxTexture2DMipmap[0] = 32768; d->maxTexture2DMipmap[1] = 32768;
    d->maxTexture2DLinear[0] = 131072; d->maxTexture2DLinear[1] = 65000; d->maxTexture2DLinear[2] = 2097120;
    d->maxTexture2DGather[0] = 32768; d->maxTexture2DGather[1] = 32768;
    d->maxTexture3D[0] = d->maxTexture3D[1] = d->maxTexture3D[2] = 16384;
    d->maxTexture3DAlt[0] = d->maxTexture3DAlt[1] = 8192; d->maxTexture3DAlt[2] = 32768;
    d->maxTextureCubemap = 32768;
    d->maxTexture1DLayered[0] = 32768; d->maxTexture1DLayered[1] = 2048;
    d->maxTexture2DLayered[0] = d->maxTexture2DLayered[1] = 32768; d->maxTexture2DLayered[2] = 2048;
    d->maxTextureCubemapLayered[0] = 32768; d->maxTextureCubemapLayered[1] = 2046;
    d->maxSurface1D = 32768;
    d->maxSurface2D[0] = 131072; d->maxSurface2D[1] = 65536;
    d->maxSurface3D[0] = d->maxSurface3D[1] = d->maxSurface3D[2] = 16384;
    d->maxSurface1DLayered[0] = 32768; d->maxSurface1DLayered[1] = 2048;
    d->maxSurface2DLayered[0] = d->maxSurface2DLayered[1] = 32768; d->maxSurface2DLayered[2] = 2048;
    d->maxSurfaceCubemap = 32768;
    d->maxSurfaceCubemapLayered[0] = 32768; d->maxSurfaceCubemapLayered[1] = 2046;
    d->surfaceAlignment = 512;
    d->concurrentKernels = 1;
    d->ECCEnabled = 0;
    d->pciBusID = p->pci_bus_id;
    d->pciDeviceID = p->pci_device_id;
    d->pciDomainID = p->pci_domain_id;
    d->tccDriver = 0;
    d->asyncEngineCount = 2;
    d->unifiedAddressing = 1;
    d->memoryBusWidth = p->memory_bus_width;
    d->l2CacheSize = p->l2_cache_size;
    d->persistingL2CacheMaxSize = 0;
    d->maxThreadsPerMultiProcessor = p->max_threads_per_sm;
    d->streamPrioritiesSupported = 1;
    d->globalL1CacheSupported = 1;
    d->localL1CacheSupported = 1;
    d->sharedMemPerMultiprocessor = p->shared_mem_per_sm;
    d->regsPerMultiprocessor = 65536;
    d->managedMemory = 1;
    d->isMultiGpuBoard = 0;
    d->multiGpuBoardGroupID = dev;
    d->hostNativeAtomicSupported = 1;   /* device memory is host memory: CPU atomics */
    /* Kernels run on the host and could reach malloc'ed memory, but the runtime API treats
     * unregistered memory as host-only (cudaMemcpy rejects it as a device pointer), as a
     * discrete GPU without HMM does: programs must not rely on pageable access. */
    d->pageableMemoryAccess = 0;
    d->concurrentManagedAccess = 1;
    d->computePreemptionSupported = 1;
    d->canUseHostPointerForRegisteredMem = 1;
    d->cooperativeLaunch = 0;           /* no grid-wide co-residency guarantee */
    d->sharedMemPerBlockOptin = p->shared_mem_per_block_optin;
    d->pageableMemoryAccessUsesHostPageTables = 0;
    d->directManagedMemAccessFromHost = 1;
    d->maxBlocksPerMultiProcessor = 32;
    d->accessPolicyMaxWindowSize = 0;
    d->reservedSharedMemPerBlock = 0;
    d->hostRegisterSupported = 1;
    d->sparseCudaArraySupported = 0;
    d->hostRegisterReadOnlySupported = 1;
    d->timelineSemaphoreInteropSupported = 0;
    d->memoryPoolsSupported = 1;
    d->gpuDirectRDMASupported = 0;
    d->gpuDirectRDMAFlushWritesOptions = 0;
    d->gpuDirectRDMAWritesOrdering = 0;
    d->memoryPoolSupportedHandleTypes = 0;
    d->deferredMappingCudaArraySupported = 0;
    d->ipcEventSupported = 0;
    d->clusterLaunch = 0;
    d->unifiedFunctionPointers = 0;
    d->deviceNumaConfig = 0;            /* cudaDeviceNumaConfigNone */
    d->deviceNumaId = -1;
    d->mpsEnabled = 0;
    d->hostNumaId = -1;
    d->gpuPciDeviceID = (0xd802u << 16) | 0x19e5u; /* Ascend 910B device id, Huawei vendor id */
    d->gpuPciSubsystemID = 0;
    d->hostNumaMultinodeIpcSupported = 0;
}

NPU_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!prop, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(device, &p);
    if (st != NPU_OK)
        return shim_return(st);
    fill_props(prop, &p, device);
    return shim_return(NPU_OK);
}

/* CUDA 12 binaries call cudaGetDeviceProperties_v2 (cuda_runtime_api.h 12.x renames
 * cudaGetDeviceProperties to it) with the CUDA 12 struct layout, which still carries the
 * fields CUDA 13 removed (clockRate, deviceOverlap, kernelExecTimeoutEnabled, computeMode,
 * maxTexture1DLinear, memoryClockRate, singleToDoublePrecisionPerfRatio,
 * cooperativeMultiDeviceLaunch). Layout checked against the 12.9 header (1032 bytes with
 * name[256]). The libcudart.so.12 drop-in forwards only cudart.syms (CUDA 13 names), so
 * this entry serves CUDA 12 programs under LD_PRELOAD. */
struct cuda12_device_prop {
    char name[256]; cudaUUID_t uuid; char luid[8]; unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock; int regsPerBlock, warpSize; size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate; size_t totalConstMem;
    int major, minor; size_t textureAlignment, texturePitchAlignment;
    int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory,
        computeMode, maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear, maxTexture2D[2],
        maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3],
        maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3],
        maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3],
        maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
        unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize,
        maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported,
        localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
        hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, pageableMemoryAccess,
        concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
        cooperativeLaunch, cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
        maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
        timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions; int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
        reserved[63];
};
_Static_assert(sizeof(struct cuda12_device_prop) == 1032, "CUDA 12 cudaDeviceProp is 1032 bytes");

NPU_EXPORT cudaError_t cudaGetDeviceProperties_v2(struct cuda12_device_prop *prop, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!prop, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(device, &p);
    if (st != NPU_OK)
        return shim_return(st);
    struct cudaDeviceProp d;
    fill_props(&d, &p, device);
    struct cuda12_device_prop *o = prop;
    memset(o, 0, sizeof *o);
#define C(f) memcpy(&o->f, &d.f, sizeof o->f)
    C(name); C(uuid); C(luid); C(luidDeviceNodeMask); C(totalGlobalMem); C(sharedMemPerBlock);
    C(regsPerBlock); C(warpSize); C(memPitch); C(maxThreadsPerBlock); C(maxThreadsDim);
    C(maxGridSize); C(totalConstMem); C(major); C(minor); C(textureAlignment);
    C(texturePitchAlignment); C(multiProcessorCount); C(integrated); C(canMapHostMemory);
    C(maxTexture1D); C(maxTexture1DMipmap); C(maxTexture2D); C(maxTexture2DMipmap);
    C(maxTexture2DLinear); C(maxTexture2DGather); C(maxTexture3D); C(maxTexture3DAlt);
    C(maxTextureCubemap); C(maxTexture1DLayered); C(maxTexture2DLayered);
    C(maxTextureCubemapLayered); C(maxSurface1D); C(maxSurface2D); C(maxSurface3D);
    C(maxSurface1DLayered); C(maxSurface2DLayered); C(maxSurfaceCubemap);
    C(maxSurfaceCubemapLayered); C(surfaceAlignment); C(concurrentKernels); C(ECCEnabled);
    C(pciBusID); C(pciDeviceID); C(pciDomainID); C(tccDriver); C(asyncEngineCount);
    C(unifiedAddressing); C(memoryBusWidth); C(l2CacheSize); C(persistingL2CacheMaxSize);
    C(maxThreadsPerMultiProcessor); C(streamPrioritiesSupported); C(globalL1CacheSupported);
    C(localL1CacheSupported); C(sharedMemPerMultiprocessor); C(regsPerMultiprocessor);
    C(managedMemory); C(isMultiGpuBoard); C(multiGpuBoardGroupID); C(hostNativeAtomicSupported);
    C(pageableMemoryAccess); C(concurrentManagedAccess); C(computePreemptionSupported);
    C(canUseHostPointerForRegisteredMem); C(cooperativeLaunch); C(sharedMemPerBlockOptin);
    C(pageableMemoryAccessUsesHostPageTables); C(directManagedMemAccessFromHost);
    C(maxBlocksPerMultiProcessor); C(accessPolicyMaxWindowSize); C(reservedSharedMemPerBlock);
    C(hostRegisterSupported); C(sparseCudaArraySupported); C(hostRegisterReadOnlySupported);
    C(timelineSemaphoreInteropSupported); C(memoryPoolsSupported); C(gpuDirectRDMASupported);
    C(gpuDirectRDMAFlushWritesOptions); C(gpuDirectRDMAWritesOrdering);
    C(memoryPoolSupportedHandleTypes); C(deferredMappingCudaArraySupported); C(ipcEventSupported);
    C(clusterLaunch); C(unifiedFunctionPointers);
#undef C
    o->clockRate = p.clock_rate_khz;
    o->memoryClockRate = p.memory_clock_rate_khz;
    o->deviceOverlap = 1;
    o->kernelExecTimeoutEnabled = 0;
    o->computeMode = cudaComputeModeDefault;
    o->maxTexture1DLinear = 268435456;
    o->singleToDoublePrecisionPerfRatio = 2;
    o->cooperativeMultiDeviceLaunch = 0;
    return shim_return(NPU_OK);
}

/* One value per cudaDeviceAttr enumerator of CUDA 13; any other value is invalid. */
static npu_status_t device_attr(enum cudaDeviceAttr attr, int device, int *v)
{
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(device, &p);
    if (st != NPU_OK)
        return st;
    struct cudaDeviceProp d;
    fill_props(&d, &p, device);
    switch ((int)attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = d.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = d.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = d.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = d.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = d.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = d.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = d.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)d.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)d.totalConstMem; break;
    case cudaDevAttrWarpSize: *v = d.warpSize; break;
    case cudaDevAttrMaxPitch: *v = (int)d.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = d.regsPerBlock; break;
    case cudaDevAttrClockRate: *v = p.clock_rate_khz; break;
    case cudaDevAttrTextureAlignment: *v = (int)d.textureAlignment; break;
    case cudaDevAttrGpuOverlap: *v = 1; break;
    case cudaDevAttrMultiProcessorCount: *v = d.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *v = 0; break;
    case cudaDevAttrIntegrated: *v = d.integrated; break;
    case cudaDevAttrCanMapHostMemory: *v = d.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: *v = d.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *v = d.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *v = d.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *v = d.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *v = d.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *v = d.maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *v = d.maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *v = d.maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *v = d.maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: *v = (int)d.surfaceAlignment; break;
    case cudaDevAttrConcurrentKernels: *v = d.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *v = d.ECCEnabled; break;
    case cudaDevAttrPciBusId: *v = d.pciBusID; break;
    case cudaDevAttrPciDeviceId: *v = d.pciDeviceID; break;
    case cudaDevAttrTccDriver: *v = d.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *v = p.memory_clock_rate_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = d.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *v = d.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = d.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *v = d.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *v = d.unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *v = d.maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *v = d.maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: *v = d.maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: *v = d.maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: *v = d.maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: *v = d.maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: *v = d.maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: *v = d.pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: *v = (int)d.texturePitchAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: *v = d.maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = d.maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = d.maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: *v = d.maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: *v = d.maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: *v = d.maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: *v = d.maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: *v = d.maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: *v = d.maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *v = d.maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *v = d.maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *v = d.maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *v = d.maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *v = d.maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *v = d.maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = d.maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = d.maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: *v = 268435456; break;
    case cudaDevAttrMaxTexture2DLinearWidth: *v = d.maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: *v = d.maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: *v = d.maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *v = d.maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *v = d.maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: *v = d.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = d.minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *v = d.maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: *v = d.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *v = d.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *v = d.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)d.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = d.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *v = d.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *v = d.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *v = d.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *v = d.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = 2; break;
    case cudaDevAttrPageableMemoryAccess: *v = d.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *v = d.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *v = d.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = d.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrReserved92:   /* stream memory operations (wait/write value): absent */
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:   /* cooperative multi-device launch: absent */
        *v = 0; break;
    case cudaDevAttrCooperativeLaunch: *v = d.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)d.sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: *v = 0; break;
    case cudaDevAttrHostRegisterSupported: *v = d.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *v = d.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = d.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = d.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = d.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = d.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)d.reservedSharedMemPerBlock; break;
    case cudaDevAttrSparseCudaArraySupported: *v = d.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *v = d.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *v = d.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *v = d.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *v = d.gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *v = (int)d.gpuDirectRDMAFlushWritesOptions; break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *v = d.gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = (int)d.memoryPoolSupportedHandleTypes; break;
    case cudaDevAttrClusterLaunch: *v = d.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *v = d.deferredMappingCudaArraySupported; break;
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
        *v = 0; break;
    case cudaDevAttrIpcEventSupport: *v = d.ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: *v = 1; break;
    case cudaDevAttrNumaConfig: *v = d.deviceNumaConfig; break;
    case cudaDevAttrNumaId: *v = d.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: *v = d.mpsEnabled; break;
    case cudaDevAttrHostNumaId: *v = d.hostNumaId; break;
    case cudaDevAttrD3D12CigSupported: *v = 0; break;
    case cudaDevAttrVulkanCigSupported: *v = 0; break;
    case cudaDevAttrGpuPciDeviceId: *v = (int)d.gpuPciDeviceID; break;
    case cudaDevAttrGpuPciSubsystemId: *v = (int)d.gpuPciSubsystemID; break;
    case cudaDevAttrHostNumaMemoryPoolsSupported: *v = 0; break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *v = d.hostNumaMultinodeIpcSupported; break;
    case cudaDevAttrHostMemoryPoolsSupported: *v = 0; break;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *v = 0; break;
    default: return NPU_EINVAL;
    }
    return NPU_OK;
}

NPU_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!value, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    return shim_return(device_attr(attr, device, value));
}

/* ---------------------------------------------------------------- PCI ids ---- */
NPU_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pciBusId || len <= 0, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(device, &p);
    if (st == NPU_OK)
        snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)p.pci_domain_id,
                 (unsigned)p.pci_bus_id, (unsigned)p.pci_device_id);
    return shim_return(st);
}

/* Accepts [domain:]bus:device[.function], hexadecimal, as CUDA documents. */
NPU_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!device || !pciBusId, NPU_EINVAL);
    unsigned a, b, c, fn = 0, domain, bus, slot;
    int n = 0;
    if (sscanf(pciBusId, "%x:%x:%x%n", &a, &b, &c, &n) == 3 && n > 0) {
        domain = a; bus = b; slot = c;
    } else if (sscanf(pciBusId, "%x:%x%n", &a, &b, &n) == 2 && n > 0) {
        domain = 0; bus = a; slot = b;
    } else {
        return shim_return(NPU_EINVAL);
    }
    const char *rest = pciBusId + n;
    if (*rest == '.') {
        int m = 0;
        if (sscanf(rest + 1, "%x%n", &fn, &m) != 1)
            return shim_return(NPU_EINVAL);
        rest += 1 + m;
    }
    SHIM_RETURN_IF(*rest != '\0', NPU_EINVAL);
    for (int i = 0; i < npu_device_count(); i++) {
        npu_device_props_t p;
        if (npu_device_get_props(i, &p) == NPU_OK && (unsigned)p.pci_domain_id == domain &&
            (unsigned)p.pci_bus_id == bus && (unsigned)p.pci_device_id == slot && fn == 0) {
            *device = i;
            return shim_return(NPU_OK);
        }
    }
    return shim_return(NPU_EDEVICE);
}

/* ------------------------------------------------------- flags and limits ---- */
static int sched_flags_valid(unsigned flags)
{
    unsigned sched = flags & cudaDeviceScheduleMask;
    return !(flags & ~(unsigned)cudaDeviceMask) &&
           (sched == cudaDeviceScheduleAuto || sched == cudaDeviceScheduleSpin ||
            sched == cudaDeviceScheduleYield || sched == cudaDeviceScheduleBlockingSync);
}

NPU_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!sched_flags_valid(flags), NPU_EINVAL);
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    if (d)
        d->flags = flags;
    pthread_mutex_unlock(&dev_lock);
    return shim_return(NPU_OK);
}

/* Mapped pinned memory is always available (one address space): cudaDeviceMapHost is set. */
NPU_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!flags, NPU_EINVAL);
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    *flags = (d ? d->flags : 0) | cudaDeviceMapHost;
    pthread_mutex_unlock(&dev_lock);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pValue, NPU_EINVAL);
    if ((unsigned)limit > cudaLimitPersistingL2CacheSize)
        return shim_fail(cudaErrorUnsupportedLimit);
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    *pValue = d ? d->limit[limit] : limit_default[limit];
    pthread_mutex_unlock(&dev_lock);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    /* Device-side launch sync depth cannot be set on compute capability >= 9.0. */
    if ((unsigned)limit > cudaLimitPersistingL2CacheSize || limit == cudaLimitDevRuntimeSyncDepth)
        return shim_fail(cudaErrorUnsupportedLimit);
    if (limit == cudaLimitMaxL2FetchGranularity && value > 128)
        value = 128;                 /* a hint; CUDA clamps it */
    if (limit == cudaLimitPersistingL2CacheSize)
        value = 0;                   /* clamped to the device's persisting-L2 maximum (none) */
    if (limit == cudaLimitStackSize)
        value = (value + 15) & ~(size_t)15;
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    if (d)
        d->limit[limit] = value;
    pthread_mutex_unlock(&dev_lock);
    if (limit == cudaLimitStackSize)
        npu_device_set_stack_limit(shim_device(), value);   /* kernels lifted from SASS size their stack by it */
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pCacheConfig, NPU_EINVAL);
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    *pCacheConfig = d ? d->cache : cudaFuncCachePreferNone;
    pthread_mutex_unlock(&dev_lock);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF((unsigned)cacheConfig > cudaFuncCachePreferEqual, NPU_EINVAL);
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(shim_device());
    if (d)
        d->cache = cacheConfig;
    pthread_mutex_unlock(&dev_lock);
    return shim_return(NPU_OK);
}

/* Priorities run from 0 (least, the default) to -5 (greatest), as on sm_90. */
NPU_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return shim_return(NPU_OK);
}

/* ------------------------------------------------------------ peer access ---- */
/* Emulated devices share the host address space, so each can reach every other one. */
NPU_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!canAccessPeer, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK ||
                   cudart_check_device(peerDevice) != NPU_OK, NPU_EDEVICE);
    *canAccessPeer = device != peerDevice;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    int dev = shim_device();
    SHIM_RETURN_IF(cudart_check_device(peerDevice) != NPU_OK || peerDevice == dev, NPU_EDEVICE);
    SHIM_RETURN_IF(flags != 0, NPU_EINVAL);
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(dev);
    if (d && peerDevice < CUDART_MAX_DEVICES) {
        if (d->peer[peerDevice])
            e = cudaErrorPeerAccessAlreadyEnabled;
        d->peer[peerDevice] = 1;
    }
    pthread_mutex_unlock(&dev_lock);
    return e != cudaSuccess ? shim_fail(e) : shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    int dev = shim_device();
    SHIM_RETURN_IF(cudart_check_device(peerDevice) != NPU_OK, NPU_EDEVICE);
    cudaError_t e = cudaErrorPeerAccessNotEnabled;
    pthread_mutex_lock(&dev_lock);
    dev_state_t *d = dev_state_locked(dev);
    if (d && peerDevice < CUDART_MAX_DEVICES && d->peer[peerDevice]) {
        d->peer[peerDevice] = 0;
        e = cudaSuccess;
    }
    pthread_mutex_unlock(&dev_lock);
    return e != cudaSuccess ? shim_fail(e) : shim_return(NPU_OK);
}

/* ------------------------------------------------------- sync and reset ---- */
NPU_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    return shim_return(npu_device_sync(shim_device()));
}

/* Destroys the current device's state: its streams and allocations (npu_device_reset), the
 * sticky error, flags, limits, cache config, peer mappings, the current memory pool. */
NPU_EXPORT cudaError_t cudaDeviceReset(void)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    int dev = shim_device();
    npu_status_t sticky = npu_device_error(dev);
    npu_status_t st = npu_device_reset(dev);
    /* The fault died with the device state: this thread no longer reports it. */
    if (sticky != NPU_OK && st == NPU_OK && shim_get_last_error(0) == shim_cuda_error(sticky))
        (void)shim_get_last_error(1);
    pthread_mutex_lock(&dev_lock);
    if (dev >= 0 && dev < CUDART_MAX_DEVICES)
        dev_state[dev].init = 0;
    npu_device_set_stack_limit(dev, 0);   /* the limits return to their defaults */
    for (int i = 0; i < CUDART_MAX_DEVICES; i++)
        if (dev_state[i].init && dev < CUDART_MAX_DEVICES && dev >= 0)
            dev_state[i].peer[dev] = 0;
    pthread_mutex_unlock(&dev_lock);
    cudart_memory_device_reset(dev);
    return shim_return(st);
}
