// EXPECT_EXIT: 0
// Fault isolation in each execution mode: a wild store in a block-mode kernel (a 64-block grid, so
// pool workers run blocks too), in a kernel with __syncthreads (barrier phases) and in a kernel with
// warp shuffles (thread mode, fibers). Each one makes the synchronisation return
// cudaErrorIllegalAddress, sticky until cudaDeviceReset; the log line (stderr, captured here) names
// the kernel, the block, the thread and the address. After each reset a correct kernel runs and its
// results, in allocations made after the reset, are checked against a host computation.
#include "k_util.h"
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>

#define WILD_BASE 0x1000ull     /* unmapped: the first page of the address space */

__global__ void blk(int *p, int bad_block, int bad_thread)
{
    int *q = (blockIdx.x == bad_block && threadIdx.x == bad_thread) ? (int *)WILD_BASE : p;
    q[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void phases(int *p, int bad_thread)
{
    __shared__ int s[128];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    int v = s[(threadIdx.x + 1) % blockDim.x];
    int *q = threadIdx.x == bad_thread ? (int *)WILD_BASE : p;
    q[threadIdx.x] = v;
}

__global__ void fibers(int *p, int bad_thread)
{
    int v = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1);
    int *q = threadIdx.x == bad_thread ? (int *)WILD_BASE : p;
    q[threadIdx.x] = v;
}

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

static char logbuf[1 << 16];

/* Runs the launch with stderr captured into logbuf. */
static int saved_err = -1;
static void capture_begin(void)
{
    fflush(stderr);
    saved_err = dup(2);
    int fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
    if (fd < 0) { char tmpl[] = "/tmp/kfaultXXXXXX"; fd = mkstemp(tmpl); unlink(tmpl); }
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

static void check_after_reset(const char *what)
{
    CK(cudaDeviceReset());
    CK(cudaGetLastError());
    const int n = 10000;
    float *hx = (float *)malloc(n * 4), *hy = (float *)malloc(n * 4), *ho = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { hx[i] = (float)(i % 97) * 0.5f; hy[i] = (float)(i % 13); }
    float *dx, *dy;
    CK(cudaMalloc(&dx, n * 4)); CK(cudaMalloc(&dy, n * 4));
    CK(cudaMemcpy(dx, hx, n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, hy, n * 4, cudaMemcpyHostToDevice));
    saxpy<<<(n + 255) / 256, 256>>>(3.0f, dx, dy, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ho, dy, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) if (ho[i] != 3.0f * hx[i] + hy[i]) bad++;
    CHECK_MSG(bad == 0, "%s: saxpy after the reset: %d wrong", what, bad);
    CK(cudaFree(dx)); CK(cudaFree(dy));
    free(hx); free(hy); free(ho);
}

static void expect_fault(const char *what, const char *kname, int bx, int tx)
{
    cudaError_t e = cudaDeviceSynchronize();
    capture_end();
    CHECK_MSG(e == cudaErrorIllegalAddress, "%s: sync -> %s", what, cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorIllegalAddress, "%s: sticky -> %s", what, cudaGetErrorName(e));
    void *p;
    e = cudaMalloc(&p, 16);
    CHECK_MSG(e == cudaErrorIllegalAddress, "%s: malloc after the fault -> %s", what, cudaGetErrorName(e));
    char want_blk[64], want_thr[64];
    snprintf(want_blk, sizeof want_blk, "block (%d,0,0)", bx);
    snprintf(want_thr, sizeof want_thr, "thread (%d,0,0)", tx);
    CHECK_MSG(strstr(logbuf, kname) != NULL, "%s: log names the kernel %s:\n%s", what, kname, logbuf);
    CHECK_MSG(strstr(logbuf, want_blk) != NULL, "%s: log names %s", what, want_blk);
    CHECK_MSG(strstr(logbuf, want_thr) != NULL, "%s: log names %s", what, want_thr);
    char want_addr[64];
    snprintf(want_addr, sizeof want_addr, "0x%llx", WILD_BASE + 4ull * (unsigned long long)(tx + bx * (kname[3] == 'b' ? 128 : 0)));
    CHECK_MSG(strstr(logbuf, want_addr) != NULL, "%s: log names the address %s", what, want_addr);
    check_after_reset(what);
}

int main(void)
{
    int *d;
    /* block mode, many blocks: block 37 thread 5 stores to WILD_BASE + 4 * (37 * 128 + 5) */
    CK(cudaMalloc(&d, 64 * 128 * 4));
    blk<<<64, 128>>>(d, -1, -1);
    CK(cudaDeviceSynchronize());
    capture_begin();
    blk<<<64, 128>>>(d, 37, 5);
    expect_fault("block mode", "_Z3blkPiii", 37, 5);

    CK(cudaMalloc(&d, 128 * 4));
    capture_begin();
    phases<<<1, 128>>>(d, 77);
    expect_fault("barrier phases", "_Z6phasesPii", 0, 77);

    CK(cudaMalloc(&d, 64 * 4));
    capture_begin();
    fibers<<<1, 64>>>(d, 40);
    expect_fault("fibers", "_Z6fibersPii", 0, 40);

    /* and the fibers are reused afterwards: a shuffle kernel with correct results */
    int *o, h[64];
    CK(cudaMalloc(&o, 64 * 4));
    for (int rep = 0; rep < 3; rep++) {
        fibers<<<1, 64>>>(o, -1);
        CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (h[i] != (i ^ 1)) { CHECK_MSG(0, "shfl after fault: h[%d] = %d", i, h[i]); break; }
    return CHECK_DONE();
}
