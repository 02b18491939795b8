// EXPECT_EXIT: 0
// ENV: TRANSFER_TO_NPU_MEMCHECK=1
// Memcheck (TRANSFER_TO_NPU_MEMCHECK=1): an off-by-one kernel (i <= n) reads and writes one
// element past a 1000-float allocation; that address lies inside the device's reserved range, so
// it does not fault by itself and only the checker sees it. The launch fails with
// cudaErrorIllegalAddress (sticky); the report (captured stderr) names the access, its size, the
// kernel, thread, block, address, allocation and offset in compute-sanitizer's words; the invalid
// store is not performed (the word after the allocation keeps its value). After cudaDeviceReset a
// correct kernel runs and the data of allocations made after the reset is right.
#include "k_util.h"
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>

__global__ void scale_bad(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) x[i] = a * x[i];               /* off by one: i == n is past the end */
}

__global__ void scale_ok(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

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

int main(void)
{
    const int n = 1000;
    float h[n], o[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    scale_ok<<<4, 256>>>(d, n, 2.0f);          /* a correct launch is not disturbed */
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += o[i] != 2.0f * h[i];
    CHECK_MSG(wrong == 0, "scale_ok under memcheck: %d wrong", wrong);

    float guard = *(volatile float *)(d + n);  /* device memory is host memory here */
    capture_begin();
    scale_bad<<<4, 256>>>(d, n, 3.0f);
    cudaError_t e = cudaDeviceSynchronize();
    capture_end();
    CHECK_MSG(e == cudaErrorIllegalAddress, "off-by-one under memcheck -> %s", cudaGetErrorName(e));
    CHECK_MSG(*(volatile float *)(d + n) == guard, "the invalid store was performed");
    char want[256];
    CHECK_MSG(strstr(logbuf, "Invalid __global__ ") != NULL, "report header:\n%s", logbuf);
    CHECK_MSG(strstr(logbuf, "of size 4 bytes") != NULL, "access size");
    CHECK_MSG(strstr(logbuf, "_Z9scale_badPfif") != NULL, "kernel name");
    CHECK_MSG(strstr(logbuf, "by thread (232,0,0) in block (3,0,0)") != NULL, "thread and block");
    snprintf(want, sizeof want, "Address %p is 0 bytes after the nearest allocation at %p of size 4000 bytes",
             (void *)(d + n), (void *)d);
    CHECK_MSG(strstr(logbuf, want) != NULL, "address line: want \"%s\"", want);
    e = cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost);
    CHECK_MSG(e == cudaErrorIllegalAddress, "sticky: %s", cudaGetErrorName(e));

    CK(cudaDeviceReset());
    float *d2, *d3;
    CK(cudaMalloc(&d2, n * sizeof(float)));
    CK(cudaMalloc(&d3, 64));
    CK(cudaMemcpy(d2, h, sizeof h, cudaMemcpyHostToDevice));
    CK(cudaMemset(d3, 0, 64));
    scale_ok<<<4, 256>>>(d2, n, -1.5f);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, d2, sizeof o, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int i = 0; i < n; i++) wrong += o[i] != -1.5f * h[i];
    CHECK_MSG(wrong == 0, "after reset: %d wrong", wrong);
    unsigned char z[64];
    CK(cudaMemcpy(z, d3, 64, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (z[i]) { CHECK_MSG(0, "memset after reset: z[%d] = %d", i, z[i]); break; }
    return CHECK_DONE();
}
