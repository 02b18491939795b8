// rt_sticky.cu - asynchronous faults are sticky, as CUDA documents: after a kernel traps,
// cudaDeviceSynchronize and every later call return cudaErrorLaunchFailure (which
// cudaGetLastError reports but cannot clear), a stream callback queued behind the fault is
// told the error, and cudaDeviceReset returns the device to a working state.
#include <cuda_runtime.h>
#include <atomic>
#include <unistd.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

__global__ void add1(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}
__global__ void boom(int *p)
{
    if (threadIdx.x == 3) __trap();
    p[threadIdx.x] = 1;
}

static std::atomic<int> cb_calls, cb_status;
static void nap(void *) { usleep(200 * 1000); }
static void CUDART_CB cb(cudaStream_t, cudaError_t st, void *) { cb_status = (int)st; cb_calls++; }

int main()
{
    int *d = NULL;
    CK(cudaMalloc((void **)&d, 1024 * sizeof(int)));
    CK(cudaMemset(d, 0, 1024 * sizeof(int)));
    add1<<<4, 256>>>(d, 1024);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int h[1024];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < 1024; i++) ok &= h[i] == 1;
    CHECK(ok);

    cb_calls = 0; cb_status = -1;
    CK(cudaLaunchHostFunc(0, nap, NULL));            /* the fault happens after the next calls */
    boom<<<1, 32>>>(d);
    CK(cudaGetLastError());                          /* the launch itself was fine */
    CK(cudaStreamAddCallback(0, cb, NULL, 0));
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_EQ(e, cudaErrorLaunchFailure);
    CHECK_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    CHECK_EQ(cudaGetLastError(), cudaErrorLaunchFailure);   /* sticky: not cleared */
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorLaunchFailure);
    void *p = NULL;
    CHECK_EQ(cudaMalloc(&p, 16), cudaErrorLaunchFailure);
    CHECK_EQ(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorLaunchFailure);
    cudaStream_t s;
    CHECK_EQ(cudaStreamCreate(&s), cudaErrorLaunchFailure);
    CHECK_EQ(cb_calls.load(), 1);
    CHECK_EQ(cb_status.load(), (int)cudaErrorLaunchFailure);

    /* reset clears it; the device works again */
    CK(cudaDeviceReset());
    (void)cudaGetLastError();
    CK(cudaMalloc((void **)&d, 1024 * sizeof(int)));
    CK(cudaMemset(d, 0, 1024 * sizeof(int)));
    add1<<<4, 256>>>(d, 1024);
    add1<<<4, 256>>>(d, 1024);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < 1024; i++) ok &= h[i] == 2;
    CHECK(ok);
    CK(cudaFree(d));
    return CHECK_DONE();
}
