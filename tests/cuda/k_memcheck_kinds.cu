// EXPECT_EXIT: 0
// ENV: TRANSFER_TO_NPU_MEMCHECK=1
// Memcheck report kinds, each followed by cudaDeviceReset and a check that correct work runs:
//  - use after free: a kernel reads an allocation freed before the launch (the block is in the
//    quarantine, not reused) -> "inside an allocation ... that was freed (use after free)";
//  - shared out of bounds: a thread-mode (warp shuffle, fibers) kernel indexes past its
//    __shared__ array -> "Invalid __shared__ write";
//  - plain malloc'ed host memory the program never registered -> "not inside any allocation";
//  - an atomic one element before an allocation, in a barrier-phase kernel.
// A double free is still cudaErrorInvalidValue, and the quarantine of freed blocks is bounded
// (6000 frees of 64 KiB do not keep 375 MiB). Valid accesses are not reported: registered host memory, managed memory, device-side malloc,
// a generic pointer to a local array, dynamic shared memory through a generic pointer.
#include "k_util.h"
#include <stdio.h>
#include <unistd.h>

static char logbuf[1 << 16];
static int saved_err = -1;
static void capture_begin(void)
{
    fflush(stderr);
    saved_err = dup(2);
    char tmpl[] = "/tmp/kmcXXXXXX";
    int fd = mkstemp(tmpl);
    unlink(tmpl);
    dup2(fd, 2);
    close(fd);
}
static void capture_end(void)
{
    fflush(stderr);
    off_t n = lseek(2, 0, SEEK_CUR);
    lseek(2, 0, SEEK_SET);
    ssize_t r = read(2, logbuf, n < (off_t)sizeof logbuf - 1 ? (size_t)n : sizeof logbuf - 1);
    logbuf[r > 0 ? r : 0] = 0;
    dup2(saved_err, 2);
    close(saved_err);
    fputs(logbuf, stderr);
}

__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}

__global__ void shfl_shared(int *out, int k)
{
    __shared__ int s[64];
    int v = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
    s[threadIdx.x + k] = v;                     /* k = 1: thread 63 writes s[64] */
    __syncwarp();
    out[threadIdx.x] = v + s[threadIdx.x];
}

__global__ void phase_atomic(int *p, int off)
{
    __shared__ int s[32];
    s[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 5) atomicAdd(p + off, s[0]);
}

__device__ __noinline__ void fill_local(int *a, int n, int v) { for (int i = 0; i < n; i++) a[i] = v + i; }

__global__ void valid_mix(int *host_reg, int *managed, int *out)
{
    extern __shared__ int dyn[];
    int loc[8];
    fill_local(loc, 8, (int)threadIdx.x);       /* generic pointer to .local */
    int *gdyn = dyn;                            /* generic pointer to dynamic shared */
    gdyn[threadIdx.x] = loc[7];
    int *heap = (int *)malloc(4 * sizeof(int)); /* device heap */
    heap[3] = host_reg[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = heap[3] + managed[threadIdx.x] + gdyn[(threadIdx.x + 1) % blockDim.x];
    free(heap);
}

static void reset_and_check(const char *what)
{
    CK(cudaDeviceReset());
    int h[300], o[300], *a, *b;
    for (int i = 0; i < 300; i++) h[i] = 7 * i - 3;
    CK(cudaMalloc(&a, sizeof h)); CK(cudaMalloc(&b, sizeof h));
    CK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    copy<<<2, 256>>>(a, b, 300);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, b, sizeof o, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 300; i++) wrong += o[i] != h[i] + 1;
    CHECK_MSG(wrong == 0, "%s: copy after reset: %d wrong", what, wrong);
    CK(cudaFree(a)); CK(cudaFree(b));
}

static void expect_report(const char *what, const char *needle1, const char *needle2)
{
    cudaError_t e = cudaDeviceSynchronize();
    capture_end();
    CHECK_MSG(e == cudaErrorIllegalAddress, "%s -> %s", what, cudaGetErrorName(e));
    CHECK_MSG(strstr(logbuf, needle1) != NULL, "%s: report lacks \"%s\":\n%s", what, needle1, logbuf);
    CHECK_MSG(strstr(logbuf, needle2) != NULL, "%s: report lacks \"%s\"", what, needle2);
    reset_and_check(what);
}

int main(void)
{
    char want[256];
    /* use after free */
    int *a, *b;
    CK(cudaMalloc(&a, 1024)); CK(cudaMalloc(&b, 1024));
    CK(cudaFree(a));
    int *c;
    CK(cudaMalloc(&c, 1024));
    CHECK_MSG(c != a, "a freed block was reused at once under memcheck");
    capture_begin();
    copy<<<1, 256>>>(a, b, 256);
    snprintf(want, sizeof want, "Address %p is 0 bytes inside an allocation at %p of size 1024 bytes that was freed", (void *)a, (void *)a);
    expect_report("use after free", "Invalid __global__ read of size 4 bytes", want);

    /* shared out of bounds in a fiber kernel */
    CK(cudaMalloc(&b, 64 * 4));
    capture_begin();
    shfl_shared<<<1, 64>>>(b, 1);
    expect_report("shared", "Invalid __shared__ write of size 4 bytes", "by thread (63,0,0) in block (0,0,0)");

    /* unregistered host memory */
    int *hm = (int *)malloc(1024);
    CK(cudaMalloc(&b, 1024));
    capture_begin();
    copy<<<1, 256>>>(hm, b, 256);
    snprintf(want, sizeof want, "Address %p is out of bounds (not inside any allocation)", (void *)hm);
    expect_report("host malloc", "by thread (0,0,0) in block (0,0,0)", want);
    free(hm);

    /* atomic before an allocation, barrier phases */
    CK(cudaMalloc(&b, 256));
    capture_begin();
    phase_atomic<<<1, 32>>>(b, -1);
    snprintf(want, sizeof want, "Address %p is 4 bytes before the nearest allocation at %p of size 256 bytes", (void *)(b - 1), (void *)b);
    expect_report("atomic", "Invalid __global__ atomic of size 4 bytes", want);

    /* the quarantine: a double free is still an error; it is bounded, so many frees recycle */
    int *q;
    CK(cudaMalloc(&q, 512));
    CK(cudaFree(q));
    cudaError_t fe = cudaFree(q);
    CHECK_MSG(fe == cudaErrorInvalidValue, "double free under memcheck -> %s", cudaGetErrorName(fe));
    cudaGetLastError();
    size_t free0, total;
    CK(cudaMemGetInfo(&free0, &total));
    for (int i = 0; i < 6000; i++) {
        int *t;
        CK(cudaMalloc(&t, 64 << 10));
        CK(cudaFree(t));
        if (check_failures_) break;
    }
    size_t free1;
    CK(cudaMemGetInfo(&free1, &total));
    CHECK_MSG(free0 - free1 <= (300ull << 20), "quarantine holds %zu MiB after 6000 frees of 64 KiB", (free0 - free1) >> 20);

    /* valid mix: no report */
    int *hr = (int *)malloc(64 * 4), *mg, *out, o[64];
    for (int i = 0; i < 64; i++) hr[i] = 1000 * i;
    CK(cudaHostRegister(hr, 64 * 4, cudaHostRegisterDefault));
    CK(cudaMallocManaged(&mg, 64 * 4));
    for (int i = 0; i < 64; i++) mg[i] = -i;
    CK(cudaMalloc(&out, 64 * 4));
    valid_mix<<<1, 64, 64 * 4>>>(hr, mg, out);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 64; i++) wrong += o[i] != 1000 * i - i + (((i + 1) % 64) + 7);
    CHECK_MSG(wrong == 0, "valid mix: %d wrong", wrong);
    CK(cudaHostUnregister(hr));
    free(hr);
    return CHECK_DONE();
}
