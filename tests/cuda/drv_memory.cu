// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_memory.cu - driver API memory against host references: allocation, 1D copies (sync,
 * async, generic), pitched allocation and cuMemcpy2D with offsets, the memset families
 * (D8/D16/D32, 2D, async), address ranges, memory info, pointer attributes, pinned and
 * registered host memory, stream-ordered pools; bad inputs get CUDA's codes.
 */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    CUstream st;
    CHECK_EQ(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);

    /* 1D copies. */
    const size_t N = 100000;
    int *h = (int *)malloc(N * sizeof(int)), *g = (int *)malloc(N * sizeof(int));
    for (size_t i = 0; i < N; i++) h[i] = (int)(i * 7 + 3);
    CUdeviceptr a = 0, b = 0;
    CHECK_EQ(cuMemAlloc(&a, N * sizeof(int)), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&b, N * sizeof(int)), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(a, h, N * sizeof(int)), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoD(b, a, N * sizeof(int)), CUDA_SUCCESS);
    memset(g, 0, N * sizeof(int));
    CHECK_EQ(cuMemcpyDtoH(g, b, N * sizeof(int)), CUDA_SUCCESS);
    CHECK(memcmp(g, h, N * sizeof(int)) == 0);
    /* async on a stream, then generic cuMemcpy with an offset */
    for (size_t i = 0; i < N; i++) h[i] = (int)(i ^ 0x5a5a);
    CHECK_EQ(cuMemcpyHtoDAsync(a, h, N * sizeof(int), st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoDAsync(b, a, N * sizeof(int), st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoHAsync(g, b, N * sizeof(int), st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK(memcmp(g, h, N * sizeof(int)) == 0);
    CHECK_EQ(cuMemcpy((CUdeviceptr)(uintptr_t)g, b + 40, 400), CUDA_SUCCESS);
    CHECK_EQ(g[0], h[10]);
    CHECK_EQ(g[99], h[109]);
    CHECK_EQ(cuMemcpyAsync(b, (CUdeviceptr)(uintptr_t)h, 16, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(a, h, 0), CUDA_SUCCESS);

    /* Address ranges and info. */
    CUdeviceptr base = 0;
    size_t size = 0;
    CHECK_EQ(cuMemGetAddressRange(&base, &size, a + 1234), CUDA_SUCCESS);
    CHECK(base == a);
    CHECK_EQ(size, N * sizeof(int));
    size_t fr = 0, tot = 0;
    CHECK_EQ(cuMemGetInfo(&fr, &tot), CUDA_SUCCESS);
    CHECK(tot > 0 && fr <= tot);

    /* Memsets against a host reference. */
    CHECK_EQ(cuMemsetD8(a, 0xab, 1001), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(g, a, 1004), CUDA_SUCCESS);
    const unsigned char *gb = (const unsigned char *)g;
    int ok = 1;
    for (int i = 0; i < 1001; i++) ok &= gb[i] == 0xab;
    CHECK(ok);
    CHECK_EQ(cuMemsetD16(a, 0x1234, 777), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(g, a, 777 * 2), CUDA_SUCCESS);
    ok = 1;
    for (int i = 0; i < 777; i++) ok &= ((uint16_t *)g)[i] == 0x1234;
    CHECK(ok);
    CHECK_EQ(cuMemsetD32(a, 0xdeadbeef, N), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(g, a, N * 4), CUDA_SUCCESS);
    ok = 1;
    for (size_t i = 0; i < N; i++) ok &= (uint32_t)g[i] == 0xdeadbeefu;
    CHECK(ok);
    CHECK_EQ(cuMemsetD32Async(a, 0x01010101, 10, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD16Async(a + 40, 0xbeef, 3, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD8Async(a + 48, 9, 2, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(g, a, 64), CUDA_SUCCESS);
    CHECK_EQ((uint32_t)g[9], 0x01010101u);
    CHECK_EQ(((uint16_t *)g)[20], 0xbeef);
    CHECK_EQ(((uint16_t *)g)[22], 0xbeef);
    CHECK_EQ(((uint8_t *)g)[48], 9);
    CHECK_EQ(((uint8_t *)g)[50], 0xad);   /* byte 2 of 0xdeadbeef */
    CHECK_EQ((uint32_t)g[13], 0xdeadbeefu);
    CHECK_EQ(cuMemsetD32(a + 2, 1, 4), CUDA_ERROR_INVALID_VALUE);   /* misaligned */
    CHECK_EQ(cuMemsetD16(a + 1, 1, 4), CUDA_ERROR_INVALID_VALUE);

    /* Pitched memory, 2D memset and 2D copies with offsets. */
    const size_t W = 100, H = 37;      /* elements of 4 bytes */
    CUdeviceptr pm = 0;
    size_t pitch = 0;
    CHECK_EQ(cuMemAllocPitch(&pm, &pitch, W * 4, H, 4), CUDA_SUCCESS);
    CHECK(pitch >= W * 4);
    CHECK_EQ(cuMemsetD2D32(pm, pitch, 0x11111111, W, H), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD2D32(pm + 8, pitch, 0xcafef00d, 10, 5), CUDA_SUCCESS);   /* cols 2..11, rows 0..4 */
    CHECK_EQ(cuMemsetD2D16Async(pm + pitch * 10, pitch, 0x7777, 4, 2, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD2D8Async(pm + pitch * 20 + 1, pitch, 0x42, 3, 3, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    uint32_t *img = (uint32_t *)malloc(W * H * 4), *ref = (uint32_t *)malloc(W * H * 4);
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++)
            ref[y * W + x] = (y < 5 && x >= 2 && x < 12) ? 0xcafef00du : 0x11111111u;
    for (int y = 10; y < 12; y++) ref[y * W + 0] = ref[y * W + 1] = 0x77777777u;
    for (int y = 20; y < 23; y++) ref[y * W + 0] = 0x42424211u;   /* bytes 1..3 of element 0 */
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = pm;
    c.srcPitch = pitch;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = img;
    c.dstPitch = W * 4;
    c.WidthInBytes = W * 4;
    c.Height = H;
    CHECK_EQ(cuMemcpy2D(&c), CUDA_SUCCESS);
    CHECK(memcmp(img, ref, W * H * 4) == 0);
    /* sub-rectangle: host rows 3..8, cols 5..24 into device at (x=1, y=2), then back */
    for (size_t i = 0; i < W * H; i++) ref[i] = (uint32_t)(i * 2654435761u);
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = ref;
    c.srcPitch = W * 4;
    c.srcXInBytes = 5 * 4;
    c.srcY = 3;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = pm;
    c.dstPitch = pitch;
    c.dstXInBytes = 1 * 4;
    c.dstY = 2;
    c.WidthInBytes = 20 * 4;
    c.Height = 6;
    CHECK_EQ(cuMemcpy2DAsync(&c, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = pm;
    c.srcPitch = pitch;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = img;
    c.dstPitch = W * 4;
    c.WidthInBytes = W * 4;
    c.Height = H;
    CHECK_EQ(cuMemcpy2DUnaligned(&c), CUDA_SUCCESS);
    ok = 1;
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 20; x++)
            ok &= img[(y + 2) * W + x + 1] == ref[(y + 3) * W + x + 5];
    CHECK(ok);
    c.dstPitch = 8;                      /* pitch smaller than the width */
    CHECK_EQ(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemcpy2D(NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemFree(pm), CUDA_SUCCESS);

    /* 3D: a sub-box of a dense host volume into a pitched device volume, then all back. */
    {
        const int HW = 12, HH = 5, HD = 4;           /* host volume, ints */
        const int DP = 64, DH = 8, DD = 3;           /* device pitch (bytes), height, depth */
        int hv[HD][HH][HW], dv[DD][DH][DP / 4], want[DD][DH][DP / 4];
        for (int z = 0; z < HD; z++)
            for (int y = 0; y < HH; y++)
                for (int x = 0; x < HW; x++) hv[z][y][x] = 10000 * z + 100 * y + x;
        CUdeviceptr vol;
        CHECK_EQ(cuMemAlloc(&vol, DP * DH * DD), CUDA_SUCCESS);
        CHECK_EQ(cuMemsetD32(vol, 0xffffffffu, DP * DH * DD / 4), CUDA_SUCCESS);
        memset(want, 0xff, sizeof want);
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 6; x++) want[z][y + 2][x + 1] = hv[z + 1][y + 1][x + 2];
        CUDA_MEMCPY3D c3;
        memset(&c3, 0, sizeof c3);
        c3.srcMemoryType = CU_MEMORYTYPE_HOST;
        c3.srcHost = hv;
        c3.srcPitch = HW * 4;
        c3.srcHeight = HH;
        c3.srcXInBytes = 2 * 4; c3.srcY = 1; c3.srcZ = 1;
        c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c3.dstDevice = vol;
        c3.dstPitch = DP;
        c3.dstHeight = DH;
        c3.dstXInBytes = 1 * 4; c3.dstY = 2; c3.dstZ = 0;
        c3.WidthInBytes = 6 * 4; c3.Height = 3; c3.Depth = 2;
        CHECK_EQ(cuMemcpy3D(&c3), CUDA_SUCCESS);
        memset(&c3, 0, sizeof c3);
        c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c3.srcDevice = vol;
        c3.srcPitch = DP;
        c3.srcHeight = DH;
        c3.dstMemoryType = CU_MEMORYTYPE_HOST;
        c3.dstHost = dv;
        c3.dstPitch = DP;
        c3.dstHeight = DH;
        c3.WidthInBytes = DP; c3.Height = DH; c3.Depth = DD;
        CHECK_EQ(cuMemcpy3DAsync(&c3, st), CUDA_SUCCESS);
        CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
        CHECK(memcmp(dv, want, sizeof want) == 0);
        c3.srcHeight = 2;                            /* height smaller than the copy */
        CHECK_EQ(cuMemcpy3D(&c3), CUDA_ERROR_INVALID_VALUE);
        CHECK_EQ(cuMemFree(vol), CUDA_SUCCESS);
    }

    /* Pointer attributes. */
    CUmemorytype mt = (CUmemorytype)0;
    CHECK_EQ(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a), CUDA_SUCCESS);
    CHECK_EQ(mt, CU_MEMORYTYPE_DEVICE);
    CUcontext pc = NULL;
    CHECK_EQ(cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, a + 8), CUDA_SUCCESS);
    CHECK(pc == ctx);
    CUdeviceptr rs = 0;
    size_t rz = 0;
    CHECK_EQ(cuPointerGetAttribute(&rs, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, a + 100), CUDA_SUCCESS);
    CHECK(rs == a);
    CHECK_EQ(cuPointerGetAttribute(&rz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, a + 100), CUDA_SUCCESS);
    CHECK_EQ(rz, N * 4);
    int ordinal = -1, managed = -1, mapped = -1;
    CHECK_EQ(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, a), CUDA_SUCCESS);
    CHECK_EQ(ordinal, 0);
    CHECK_EQ(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, a), CUDA_SUCCESS);
    CHECK_EQ(managed, 0);
    CHECK_EQ(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, a), CUDA_SUCCESS);
    CHECK_EQ(mapped, 1);
    unsigned long long id1 = 0, id2 = 0;
    CHECK_EQ(cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, a), CUDA_SUCCESS);
    CHECK_EQ(cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID, b), CUDA_SUCCESS);
    CHECK(id1 != id2);
    CUdeviceptr dp = 0;
    CHECK_EQ(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, a + 4), CUDA_SUCCESS);
    CHECK(dp == a + 4);
    CUdeviceptr mp = 0;
    CHECK_EQ(cuMemAllocManaged(&mp, 4096, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS);
    CHECK_EQ(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, mp), CUDA_SUCCESS);
    CHECK_EQ(managed, 1);
    ((int *)(uintptr_t)mp)[5] = 55;          /* managed memory is host-accessible */
    CHECK_EQ(cuMemcpyDtoH(g, mp, 32), CUDA_SUCCESS);
    CHECK_EQ(g[5], 55);
    CUmemLocation loc;
    loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = dev;
    CHECK_EQ(cuMemPrefetchAsync(mp, 4096, loc, 0, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemAdvise(mp, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc), CUDA_SUCCESS);
    CHECK_EQ(cuMemAdvise(mp, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc), CUDA_SUCCESS);
    CHECK_EQ(cuMemAdvise(mp, 4096, (CUmem_advise)99, loc), CUDA_ERROR_INVALID_VALUE);
    loc.type = CU_MEM_LOCATION_TYPE_HOST;
    CHECK_EQ(cuMemPrefetchAsync(mp, 4096, loc, 0, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(((int *)(uintptr_t)mp)[5], 55);
    CHECK_EQ(cuStreamAttachMemAsync(st, mp, 0, CU_MEM_ATTACH_SINGLE), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(((int *)(uintptr_t)mp)[5], 55);
    CHECK_EQ(cuStreamAttachMemAsync(st, mp, 0, 0x40), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemAllocManaged(&mp, 4096, 7), CUDA_ERROR_INVALID_VALUE);
    /* plain malloc memory: unknown to CUDA */
    int *plain = (int *)malloc(64);
    CHECK_EQ(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)plain),
             CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute attrs[3] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                     CU_POINTER_ATTRIBUTE_RANGE_SIZE };
    mt = CU_MEMORYTYPE_DEVICE;
    managed = 5;
    rz = 5;
    void *data[3] = { &mt, &managed, &rz };
    CHECK_EQ(cuPointerGetAttributes(3, attrs, data, (CUdeviceptr)(uintptr_t)plain), CUDA_SUCCESS);
    CHECK_EQ((int)mt, 0);
    CHECK_EQ(managed, 0);
    CHECK_EQ(cuPointerGetAttributes(3, attrs, data, a), CUDA_SUCCESS);
    CHECK_EQ(mt, CU_MEMORYTYPE_DEVICE);
    CHECK_EQ(rz, N * 4);
    CHECK_EQ(cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a), CUDA_ERROR_INVALID_VALUE);

    /* Pinned and registered host memory. */
    void *ph = NULL;
    CHECK_EQ(cuMemAllocHost(&ph, 8192), CUDA_SUCCESS);
    CHECK_EQ(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)ph), CUDA_SUCCESS);
    CHECK_EQ(mt, CU_MEMORYTYPE_HOST);
    memset(ph, 3, 8192);
    CHECK_EQ(cuMemcpyHtoDAsync(a, ph, 8192, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(g, a, 8), CUDA_SUCCESS);
    CHECK_EQ((uint32_t)g[1], 0x03030303u);
    CHECK_EQ(cuMemFreeHost(ph), CUDA_SUCCESS);
    void *ph2 = NULL;
    CHECK_EQ(cuMemHostAlloc(&ph2, 4096, CU_MEMHOSTALLOC_DEVICEMAP), CUDA_SUCCESS);
    CUdeviceptr mapped_ptr = 0;
    CHECK_EQ(cuMemHostGetDevicePointer(&mapped_ptr, ph2, 0), CUDA_SUCCESS);
    CHECK(mapped_ptr != 0);
    unsigned hf = 0;
    CHECK_EQ(cuMemHostGetFlags(&hf, ph2), CUDA_SUCCESS);
    CHECK(hf & CU_MEMHOSTALLOC_DEVICEMAP);
    /* mapped host memory is an allocation of the (unified) address space too */
    {
        CUdeviceptr hb = 0;
        size_t hs = 0;
        CHECK_EQ(cuMemGetAddressRange(&hb, &hs, mapped_ptr + 100), CUDA_SUCCESS);
        CHECK(hb == mapped_ptr && hs == 4096);
        hb = 0;
        CHECK_EQ(cuMemGetAddressRange(&hb, NULL, (CUdeviceptr)(uintptr_t)ph2 + 4095), CUDA_SUCCESS);
        CHECK(hb == (CUdeviceptr)(uintptr_t)ph2);
        CHECK_EQ(cuMemGetAddressRange(&hb, &hs, mapped_ptr + 4096 + 100000), CUDA_ERROR_NOT_FOUND);
    }
    CHECK_EQ(cuMemFreeHost(ph2), CUDA_SUCCESS);
    {
        CUdeviceptr hb = 0;
        size_t hs = 0;
        CHECK_EQ(cuMemGetAddressRange(&hb, &hs, mapped_ptr), CUDA_ERROR_NOT_FOUND);
    }
    CHECK_EQ(cuMemHostAlloc(&ph2, 4096, 0x100), CUDA_ERROR_INVALID_VALUE);
    size_t rsz = 1 << 16;
    void *reg = aligned_alloc(4096, rsz);
    CHECK_EQ(cuMemHostRegister(reg, rsz, 0), CUDA_SUCCESS);
    CHECK_EQ(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)reg), CUDA_SUCCESS);
    CHECK_EQ(mt, CU_MEMORYTYPE_HOST);
    CHECK_EQ(cuMemHostRegister(reg, rsz, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    {
        CUdeviceptr hb = 0;
        size_t hs = 0;
        CHECK_EQ(cuMemGetAddressRange(&hb, &hs, (CUdeviceptr)(uintptr_t)reg + 5000), CUDA_SUCCESS);
        CHECK(hb == (CUdeviceptr)(uintptr_t)reg && hs == rsz);
    }
    CHECK_EQ(cuMemHostUnregister(reg), CUDA_SUCCESS);
    CHECK_EQ(cuMemHostUnregister(reg), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    free(reg);

    /* Stream-ordered allocation and pools. */
    CUmemoryPool defpool = NULL, curpool = NULL;
    CHECK_EQ(cuDeviceGetDefaultMemPool(&defpool, dev), CUDA_SUCCESS);
    CHECK_EQ(cuDeviceGetMemPool(&curpool, dev), CUDA_SUCCESS);
    CHECK(defpool == curpool);
    CUdeviceptr sa = 0;
    CHECK_EQ(cuMemAllocAsync(&sa, 1 << 20, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD32Async(sa, 0x2a, 1 << 18, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoHAsync(g, sa + 4096, 16, st), CUDA_SUCCESS);
    CHECK_EQ(cuMemFreeAsync(sa, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(g[3], 0x2a);
    CUmemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = dev;
    CUmemoryPool pool = NULL;
    CHECK_EQ(cuMemPoolCreate(&pool, &props), CUDA_SUCCESS);
    cuuint64_t thr = 1 << 20, got = 0;
    CHECK_EQ(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr), CUDA_SUCCESS);
    CHECK_EQ(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &got), CUDA_SUCCESS);
    CHECK_EQ(got, thr);
    CHECK_EQ(cuMemAllocFromPoolAsync(&sa, 3000, pool, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &got), CUDA_SUCCESS);
    CHECK(got >= 3000);
    CHECK_EQ(cuMemFreeAsync(sa, st), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK_EQ(cuMemPoolTrimTo(pool, 0), CUDA_SUCCESS);
    CHECK_EQ(cuMemPoolDestroy(pool), CUDA_SUCCESS);
    props.location.id = 1000;
    CHECK(cuMemPoolCreate(&pool, &props) != CUDA_SUCCESS);

    /* Bad inputs, then the process keeps working. */
    CUdeviceptr z;
    CHECK_EQ(cuMemAlloc(&z, 0), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemAlloc(NULL, 16), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemFree(a + 4), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemFreeHost(plain), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemsetD8Async(a, 1, 4, (CUstream)(uintptr_t)0x1234560), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(cuMemcpyDtoH(NULL, a, 4), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuMemFree(a), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(b), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&a, 64), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD8(a, 1, 64), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(a), CUDA_SUCCESS);
    CHECK_EQ(cuStreamDestroy(st), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    free(h); free(g); free(img); free(ref); free(plain);
    return CHECK_DONE();
}
