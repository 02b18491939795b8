// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_threads.cu - the driver API from several host threads at once: each thread binds the
 * primary context, loads its own module from PTX, launches repeatedly on its own stream and
 * checks the results, while the main thread loads and unloads modules and creates and
 * destroys contexts. Every thread's results are checked against a host reference.
 */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include "check.h"

static const char *ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry addk(.param .u64 p, .param .u32 k, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [k];\n"
    "  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  setp.ge.u32 %p1, %r6, %r2;\n"
    "  @%p1 bra END;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r6, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  ld.global.u32 %r7, [%rd2];\n"
    "  add.s32 %r7, %r7, %r1;\n"
    "  st.global.u32 [%rd2], %r7;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

#define THREADS 4
#define ROUNDS 50
static int thread_ok[THREADS];
static CUcontext prim;

static void *worker(void *arg)
{
    int id = (int)(long)arg, ok = 1;
    ok &= cuCtxSetCurrent(prim) == CUDA_SUCCESS;
    CUmodule mod;
    CUfunction f;
    ok &= cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS;
    ok &= cuModuleGetFunction(&f, mod, "addk") == CUDA_SUCCESS;
    CUstream s;
    ok &= cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS;
    const unsigned n = 1000;
    CUdeviceptr d;
    ok &= cuMemAlloc(&d, n * 4) == CUDA_SUCCESS;
    ok &= cuMemsetD32Async(d, id, n, s) == CUDA_SUCCESS;
    unsigned k = id + 1, nn = n;
    void *args[] = { &d, &k, &nn };
    for (int r = 0; r < ROUNDS && ok; r++)
        ok &= cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, args, NULL) == CUDA_SUCCESS;
    unsigned h[1000];
    ok &= cuMemcpyDtoHAsync(h, d, sizeof h, s) == CUDA_SUCCESS;
    ok &= cuStreamSynchronize(s) == CUDA_SUCCESS;
    for (unsigned i = 0; i < n && ok; i++)
        ok &= h[i] == (unsigned)id + ROUNDS * k;
    ok &= cuMemFree(d) == CUDA_SUCCESS;
    ok &= cuStreamDestroy(s) == CUDA_SUCCESS;
    ok &= cuModuleUnload(mod) == CUDA_SUCCESS;
    thread_ok[id] = ok;
    return NULL;
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&prim, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(prim), CUDA_SUCCESS);
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    int churn_ok = 1;
    for (int i = 0; i < 20; i++) {
        CUmodule m;
        CUfunction f;
        CUcontext c, popped;
        churn_ok &= cuModuleLoadData(&m, ptx) == CUDA_SUCCESS;
        churn_ok &= cuModuleGetFunction(&f, m, "addk") == CUDA_SUCCESS;
        churn_ok &= cuModuleUnload(m) == CUDA_SUCCESS;
        churn_ok &= cuCtxCreate(&c, NULL, 0, 0) == CUDA_SUCCESS;
        churn_ok &= cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == c;
        churn_ok &= cuCtxDestroy(c) == CUDA_SUCCESS;
    }
    CHECK(churn_ok);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK_MSG(thread_ok[i], "thread %d", i);
    }
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
