// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_device.cu - driver API device queries: cuInit, versions, device enumeration, names,
 * memory size, every device attribute against the runtime API's answer, UUID and PCI ids,
 * error names and strings, and bad inputs (invalid ordinals, attributes, NULL pointers).
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>
#include "check.h"

int main()
{
    CHECK_EQ(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    int ver = 0;
    CHECK_EQ(cuDriverGetVersion(&ver), CUDA_SUCCESS);
    CHECK(ver >= 12000);
    CHECK_EQ(cuDriverGetVersion(NULL), CUDA_ERROR_INVALID_VALUE);

    int n = 0;
    CHECK_EQ(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n >= 1);
    int rn = 0;
    CHECK_EQ(cudaGetDeviceCount(&rn), cudaSuccess);
    CHECK_EQ(n, rn);
    CHECK_EQ(cuDeviceGetCount(NULL), CUDA_ERROR_INVALID_VALUE);

    CUdevice dev = -1;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(dev, 0);
    CUdevice bad;
    CHECK_EQ(cuDeviceGet(&bad, n), CUDA_ERROR_INVALID_DEVICE);
    CHECK_EQ(cuDeviceGet(&bad, -1), CUDA_ERROR_INVALID_DEVICE);
    CHECK_EQ(cuDeviceGet(NULL, 0), CUDA_ERROR_INVALID_VALUE);

    cudaDeviceProp prop;
    CHECK_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);

    char name[256] = {0};
    CHECK_EQ(cuDeviceGetName(name, sizeof name, dev), CUDA_SUCCESS);
    CHECK(strlen(name) > 0);
    CHECK(strcmp(name, prop.name) == 0);
    char tiny[4];
    CHECK_EQ(cuDeviceGetName(tiny, sizeof tiny, dev), CUDA_SUCCESS);
    CHECK_EQ(strlen(tiny), 3);
    CHECK_EQ(cuDeviceGetName(name, 0, dev), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuDeviceGetName(name, sizeof name, n), CUDA_ERROR_INVALID_DEVICE);

    size_t total = 0;
    CHECK_EQ(cuDeviceTotalMem(&total, dev), CUDA_SUCCESS);
    CHECK(total > 0);
    CHECK_EQ(total, prop.totalGlobalMem);

    /* Every attribute: the driver and the runtime agree (their enums share the values). */
    int compared = 0;
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int dv = -12345, rv = -12345;
        CUresult r = cuDeviceGetAttribute(&dv, (CUdevice_attribute)a, dev);
        cudaError_t e = cudaDeviceGetAttribute(&rv, (cudaDeviceAttr)a, 0);
        if (e != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        CHECK_MSG(r == CUDA_SUCCESS, "attribute %d: %d", a, (int)r);
        CHECK_MSG(dv == rv, "attribute %d: driver %d runtime %d", a, dv, rv);
        compared++;
    }
    CHECK(compared > 100);
    int v;
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev), CUDA_SUCCESS);
    CHECK_EQ(v, 32);
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), CUDA_SUCCESS);
    CHECK_EQ(v, prop.major);
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), CUDA_SUCCESS);
    CHECK_EQ(v, prop.multiProcessorCount);
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev), CUDA_SUCCESS);
    CHECK_EQ(v, prop.maxThreadsPerBlock);
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev), CUDA_SUCCESS);
    CHECK_EQ(v, 1);
    CHECK_EQ(cuDeviceGetAttribute(&v, (CUdevice_attribute)100000, dev), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuDeviceGetAttribute(&v, (CUdevice_attribute)0, dev), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, n), CUDA_ERROR_INVALID_DEVICE);
    CHECK_EQ(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev), CUDA_ERROR_INVALID_VALUE);

    int major = 0, minor = -1;
    CHECK_EQ(cuDeviceComputeCapability(&major, &minor, dev), CUDA_SUCCESS);
    CHECK_EQ(major, prop.major);
    CHECK_EQ(minor, prop.minor);

    CUuuid uuid;
    CHECK_EQ(cuDeviceGetUuid(&uuid, dev), CUDA_SUCCESS);
    CHECK(memcmp(uuid.bytes, prop.uuid.bytes, 16) == 0);
    CHECK_EQ(cuDeviceGetUuid(NULL, dev), CUDA_ERROR_INVALID_VALUE);

    char bus[32] = {0};
    CHECK_EQ(cuDeviceGetPCIBusId(bus, sizeof bus, dev), CUDA_SUCCESS);
    CHECK(strlen(bus) >= 7);
    CUdevice back = -1;
    CHECK_EQ(cuDeviceGetByPCIBusId(&back, bus), CUDA_SUCCESS);
    CHECK_EQ(back, dev);
    CHECK(cuDeviceGetByPCIBusId(&back, "not a bus id") != CUDA_SUCCESS);
    CHECK_EQ(cuDeviceGetByPCIBusId(&back, NULL), CUDA_ERROR_INVALID_VALUE);

    int can = -1;
    CHECK_EQ(cuDeviceCanAccessPeer(&can, dev, dev), CUDA_SUCCESS);
    CHECK_EQ(can, 0);

    const char *s = NULL;
    CHECK_EQ(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
    CHECK(s && strcmp(s, "CUDA_ERROR_INVALID_VALUE") == 0);
    CHECK_EQ(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
    CHECK(s && strcmp(s, "invalid argument") == 0);
    CHECK_EQ(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s), CUDA_SUCCESS);
    CHECK(s && strcmp(s, "out of memory") == 0);
    CHECK_EQ(cuGetErrorName(CUDA_ERROR_INVALID_PTX, &s), CUDA_SUCCESS);
    CHECK(s && strcmp(s, "CUDA_ERROR_INVALID_PTX") == 0);
    CHECK_EQ(cuGetErrorName(CUDA_SUCCESS, &s), CUDA_SUCCESS);
    CHECK(s && strcmp(s, "CUDA_SUCCESS") == 0);
    s = "x";
    CHECK_EQ(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    CHECK(s == NULL);
    CHECK_EQ(cuGetErrorString(CUDA_SUCCESS, NULL), CUDA_ERROR_INVALID_VALUE);
    return CHECK_DONE();
}
