// bench_memcheck.cu - cost of TRANSFER_TO_NPU_MEMCHECK=1: the same kernels (vectorAdd 16M floats,
// tiled SGEMM 512^3 with 16x16 shared tiles: block mode with barrier phases) timed in a child
// process without memcheck and in one with it; one run each after a warm-up launch (JIT
// excluded). Prints "BENCH memcheck <kernel>: <with> ms vs <without> ms ratio <x>".
// Measured on the 2-vCPU guest (one run each, load 3-6): vectorAdd 64 ms vs 11.5 ms (5.6x; 7.1x
// at load 6), tiled SGEMM 2.3-2.8x. Steps that got there (same bench): one runtime call per
// access with a 1-entry allocation cache that vectorAdd's 3 arrays kept missing: 92x / 19x;
// a 4-entry cache in the runtime: 22x / 17x; .shared checked inline in the generated code:
// 19x / 2.8x; the 4-entry cache read inline from npu_kexec_hdr_t: 7.1x / 2.8x.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#define TILE 16
__global__ void sgemm(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] = A[r * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + c];
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[r * n + c] = acc;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int child(void)
{
    const int n = 1 << 24, m = 512;
    float *a, *b, *c, *A, *B, *C;
    if (cudaMalloc(&a, n * 4) || cudaMalloc(&b, n * 4) || cudaMalloc(&c, n * 4) ||
        cudaMalloc(&A, m * m * 4) || cudaMalloc(&B, m * m * 4) || cudaMalloc(&C, m * m * 4))
        return 1;
    cudaMemset(a, 0, n * 4); cudaMemset(b, 0, n * 4);
    cudaMemset(A, 0, m * m * 4); cudaMemset(B, 0, m * m * 4);
    vadd<<<n / 256, 256>>>(a, b, c, n);
    sgemm<<<dim3(m / TILE, m / TILE), dim3(TILE, TILE)>>>(A, B, C, m);
    if (cudaDeviceSynchronize() != cudaSuccess) return 2;
    double t0 = now_ms();
    vadd<<<n / 256, 256>>>(a, b, c, n);
    cudaDeviceSynchronize();
    double t1 = now_ms();
    sgemm<<<dim3(m / TILE, m / TILE), dim3(TILE, TILE)>>>(A, B, C, m);
    cudaError_t e = cudaDeviceSynchronize();
    double t2 = now_ms();
    printf("%f %f\n", t1 - t0, t2 - t1);
    return e == cudaSuccess ? 0 : 3;
}

static int run(const char *self, int memcheck, double *v, double *g)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "TRANSFER_TO_NPU_MEMCHECK=%d '%s' child", memcheck, self);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    int ok = fscanf(f, "%lf %lf", v, g) == 2;
    int rc = pclose(f);
    return ok && rc == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child();
    double v0, g0, v1, g1;
    if (run(argv[0], 0, &v0, &g0) || run(argv[0], 1, &v1, &g1)) {
        fprintf(stderr, "bench_memcheck: a child run failed\n");
        return 1;
    }
    printf("BENCH memcheck vectorAdd 16M: %.1f ms vs %.1f ms without ratio %.1fx (target: measured, compute-sanitizer is 10-100x)\n",
           v1, v0, v1 / v0);
    printf("BENCH memcheck tiled sgemm 512: %.1f ms vs %.1f ms without ratio %.1fx (target: measured, compute-sanitizer is 10-100x)\n",
           g1, g0, g1 / g0);
    return 0;
}
