// rt_device.cu - device management: count/select, properties vs attributes, PCI bus ids,
// flags, limits, cache config, stream priority range, versions, memory info, bad ordinals.
#include <cuda_runtime.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    int n = -1;
    CK(cudaGetDeviceCount(&n));
    CHECK(n >= 1);
    CHECK_EQ(cudaGetDeviceCount(NULL), cudaErrorInvalidValue);

    int dev = -1;
    CK(cudaGetDevice(&dev));
    CHECK_EQ(dev, 0);
    CK(cudaSetDevice(n - 1));
    CK(cudaGetDevice(&dev));
    CHECK_EQ(dev, n - 1);
    CK(cudaSetDevice(0));
    CHECK_EQ(cudaSetDevice(n), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_EQ(cudaSetDevice(-1), cudaErrorInvalidDevice);
    CK(cudaGetDevice(&dev));
    CHECK_EQ(dev, 0);                       /* a failed cudaSetDevice changes nothing */
    CHECK_EQ(cudaGetDevice(NULL), cudaErrorInvalidValue);
    CK(cudaInitDevice(0, 0, 0));
    int valid[1] = { 0 };
    CK(cudaSetValidDevices(valid, 1));
    int invalid[2] = { 0, n + 5 };
    CHECK_EQ(cudaSetValidDevices(invalid, 2), cudaErrorInvalidDevice);
    CHECK_EQ(cudaInitDevice(n, 0, 0), cudaErrorInvalidDevice);
    (void)cudaGetLastError();

    /* properties agree with attributes */
    cudaDeviceProp p;
    memset(&p, 0xab, sizeof p);
    CK(cudaGetDeviceProperties(&p, 0));
    CHECK(strlen(p.name) > 0 && strlen(p.name) < sizeof p.name);
    CHECK(p.totalGlobalMem > 0);
    CHECK_EQ(p.warpSize, 32);
    CHECK(p.major >= 7);
    CHECK(p.multiProcessorCount >= 1);
    CHECK(p.maxThreadsPerBlock >= 512);
    CHECK_EQ(p.unifiedAddressing, 1);
    CHECK_EQ(p.managedMemory, 1);
    CHECK(p.sharedMemPerBlock >= 48 * 1024);
    CHECK(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock);
    CHECK_EQ(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetDeviceProperties(&p, n), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetDeviceProperties(&p, -3), cudaErrorInvalidDevice);
    CK(cudaGetDeviceProperties(&p, 0));

    struct { cudaDeviceAttr a; long long expect; } pairs[] = {
        { cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock },
        { cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0] },
        { cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1] },
        { cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2] },
        { cudaDevAttrMaxGridDimX, p.maxGridSize[0] },
        { cudaDevAttrMaxGridDimY, p.maxGridSize[1] },
        { cudaDevAttrMaxGridDimZ, p.maxGridSize[2] },
        { cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock },
        { cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin },
        { cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor },
        { cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem },
        { cudaDevAttrWarpSize, 32 },
        { cudaDevAttrMultiProcessorCount, p.multiProcessorCount },
        { cudaDevAttrComputeCapabilityMajor, p.major },
        { cudaDevAttrComputeCapabilityMinor, p.minor },
        { cudaDevAttrL2CacheSize, p.l2CacheSize },
        { cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor },
        { cudaDevAttrUnifiedAddressing, 1 },
        { cudaDevAttrManagedMemory, 1 },
        { cudaDevAttrCanMapHostMemory, 1 },
        { cudaDevAttrIntegrated, 0 },
        { cudaDevAttrConcurrentKernels, 1 },
        { cudaDevAttrMemoryPoolsSupported, 1 },
        { cudaDevAttrPciBusId, p.pciBusID },
        { cudaDevAttrPciDeviceId, p.pciDeviceID },
        { cudaDevAttrPciDomainId, p.pciDomainID },
        { cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth },
        { cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock },
        { cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported },
        { cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int v = -12345;
        CK(cudaDeviceGetAttribute(&v, pairs[i].a, 0));
        CHECK_MSG(v == pairs[i].expect, "attr %d: %d != %lld", (int)pairs[i].a, v, pairs[i].expect);
    }
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    CHECK(v > 0);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0));
    CHECK(v > 0);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrEccEnabled, 0));
    CHECK(v == 0 || v == 1);
    /* every enumerator answers; values that are not enumerators are invalid */
    for (int a = 1; a <= 147; a++) {
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
        CHECK_MSG(e == cudaSuccess || e == cudaErrorInvalidValue, "attr %d -> %d", a, (int)e);
    }
    (void)cudaGetLastError();
    CHECK_EQ(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)44, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, n), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);

    /* PCI bus id round trip */
    char bus[32];
    CK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    CHECK(strlen(bus) >= 7);
    int back = -1;
    CK(cudaDeviceGetByPCIBusId(&back, bus));
    CHECK_EQ(back, 0);
    CHECK_EQ(cudaDeviceGetByPCIBusId(&back, "not a bus id"), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetByPCIBusId(&back, "ffff:ff:1f.0"), cudaErrorInvalidDevice);
    CHECK_EQ(cudaDeviceGetPCIBusId(NULL, 13, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetPCIBusId(bus, sizeof bus, n), cudaErrorInvalidDevice);
    (void)cudaGetLastError();

    /* choose device */
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = p.major;
    want.minor = p.minor;
    int chosen = -1;
    CK(cudaChooseDevice(&chosen, &want));
    CHECK(chosen >= 0 && chosen < n);
    CHECK_EQ(cudaChooseDevice(NULL, &want), cudaErrorInvalidValue);
    CHECK_EQ(cudaChooseDevice(&chosen, NULL), cudaErrorInvalidValue);

    /* flags */
    CK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    unsigned flags = 0;
    CK(cudaGetDeviceFlags(&flags));
    CHECK_EQ(flags & cudaDeviceScheduleMask, cudaDeviceScheduleBlockingSync);
    CHECK_EQ(cudaSetDeviceFlags(0x1000), cudaErrorInvalidValue);
    CHECK_EQ(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetDeviceFlags(NULL), cudaErrorInvalidValue);
    CK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));

    /* limits */
    size_t lim = 0;
    CK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    CHECK(lim > 0);
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    CHECK(lim >= (64u << 20));
    CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
    CK(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize));
    CHECK(lim >= (4u << 20));
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
    CHECK(lim >= 4096);
    CHECK_EQ(cudaDeviceGetLimit(NULL, cudaLimitStackSize), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetLimit(&lim, (cudaLimit)77), cudaErrorUnsupportedLimit);
    CHECK_EQ(cudaDeviceSetLimit((cudaLimit)77, 1), cudaErrorUnsupportedLimit);
    (void)cudaGetLastError();

    /* cache config */
    cudaFuncCache cc;
    CK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CK(cudaDeviceGetCacheConfig(&cc));
    CHECK(cc == cudaFuncCachePreferShared || cc == cudaFuncCachePreferNone);
    CHECK_EQ(cudaDeviceSetCacheConfig((cudaFuncCache)9), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetCacheConfig(NULL), cudaErrorInvalidValue);

    /* priorities */
    int least = 99, greatest = 99;
    CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK_EQ(least, 0);
    CHECK(greatest < 0);
    CK(cudaDeviceGetStreamPriorityRange(NULL, &greatest));

    /* versions, memory info */
    int ver = 0;
    CK(cudaRuntimeGetVersion(&ver));
    CHECK(ver >= 13000);
    CK(cudaDriverGetVersion(&ver));
    CHECK(ver >= 13000);
    CHECK_EQ(cudaDriverGetVersion(NULL), cudaErrorInvalidValue);
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    CHECK(tot > 0 && fr <= tot);
    CHECK_EQ(tot, p.totalGlobalMem);
    CHECK_EQ(cudaMemGetInfo(NULL, &tot), cudaErrorInvalidValue);

    /* the process keeps working */
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaDeviceSynchronize());
    void *d = NULL;
    CK(cudaMalloc(&d, 256));
    CK(cudaMemset(d, 7, 256));
    unsigned char h[256];
    CK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < 256; i++) ok &= h[i] == 7;
    CHECK(ok);
    CK(cudaFree(d));
    return CHECK_DONE();
}
