// kall.cu - kernels for the cubin loader tests (check_cubin.py): each exercises a part of a
// cubin the loader decodes. Built with nvcc -cubin for sm_75/80/86/89/90, with -rdc=true,
// and into a multi-arch fatbin; never run.
#include <cstdio>
#include <cassert>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct S { int a; double b; char c[3]; };
struct Big { float v[1024]; };              // 4 KB by value: the largest block that keeps KPARAM_INFO
struct alignas(16) V4 { float x, y, z, w; };

__constant__ float ctab[16] = {1, 2, 3, 4};            // .nv.constant3 with an initialiser
__constant__ int cbig[300];                             // .nv.constant3, zero
__device__ int gv = 5;                                  // .nv.global.init
__device__ int garr[10] = {1, 2, 3};
__device__ int *gp = &garr[2];                          // R_CUDA_G64 garr + 8
__device__ float gzero[7];                              // .nv.global (NOBITS)
__managed__ int mv = 42;                                // STO_CUDA_MANAGED
__device__ __noinline__ int f1(int x) { return x + 1; }
__device__ __noinline__ int f2(int x) { return x * 3; }
typedef int (*fn_t)(int);
__device__ fn_t vtab[2] = {f1, f2};                     // function pointers

extern __shared__ float dyn_sh[];

// many parameter types and alignments, __launch_bounds__(maxThreads, minBlocks)
__global__ void __launch_bounds__(128, 2)
k_params(char c, short s, int i, long long ll, float f, double d, int *p, S st, V4 v, unsigned char u8)
{
    __shared__ float sh[64];
    sh[threadIdx.x % 64] = c + s + i + ll + f + d + st.a + st.b + st.c[2] + v.x + v.w + u8;
    __syncthreads();
    p[threadIdx.x] = (int)sh[(threadIdx.x + 1) % 64] + gv + *gp + ctab[threadIdx.x % 16] + cbig[i % 300] + mv;
}

__global__ void __launch_bounds__(256) k_big(Big b, float *out) { out[threadIdx.x] = b.v[threadIdx.x] + gzero[threadIdx.x % 7]; }
__global__ void k_gridconst(const __grid_constant__ Big b, float *out) { out[threadIdx.x] = b.v[threadIdx.x * 3 % 1024]; }

__global__ void k_dynshared(float *out, int n)
{
    dyn_sh[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = dyn_sh[(threadIdx.x + 1) % n];
}

__global__ void k_local(float *out, int n)                // a stack frame
{
    volatile float loc[64];
    for (int j = 0; j < 64; j++) loc[j] = out[(threadIdx.x + j) % n];
    out[threadIdx.x] = loc[n % 64] + loc[(n * 7) % 64];
}

__global__ void k_externs(int *out, int n)                // EXTERNS + SYSCALL_OFFSETS
{
    if (n == 3) printf("n=%d tid=%d\n", n, threadIdx.x);
    int *m = (int *)malloc(16);
    if (m) { m[0] = n; out[threadIdx.x] = m[0]; free(m); }
    assert(n != 7);
}

__global__ void k_switch(int *out, int sel)               // BRX jump tables, calls through vtab
{
    int r;
    switch (sel + threadIdx.x) {
    case 0: r = out[1] * 3; break;
    case 1: r = out[2] + 7; break;
    case 2: r = out[3] ^ 5; break;
    case 3: r = out[4] - 11; break;
    case 4: r = out[5] * out[6]; break;
    case 5: r = out[7] / 3; break;
    case 6: r = out[8] | 9; break;
    case 7: r = out[9] >> 1; break;
    default: r = -1;
    }
    out[threadIdx.x] = r + vtab[sel & 1](sel);
}

__global__ void k_grid(int *out)                          // cooperative groups grid sync
{
    cg::grid_group g = cg::this_grid();
    out[blockIdx.x] = blockIdx.x + blockIdx.y + blockIdx.z;
    g.sync();
    out[blockIdx.x] += out[(blockIdx.x + 1) % gridDim.x];
}

struct Base { __device__ virtual int f(int x) { return x + 1; } __device__ virtual ~Base() {} };
struct Der : Base { __device__ int f(int x) override { return x * 7; } };
__global__ void k_virt(int *o, int sel)                   // vtables shared by two kernels
{
    Base *b = sel ? (Base *)new Der() : new Base();
    o[threadIdx.x] = b->f(o[threadIdx.x]);
    delete b;
}
__global__ void k_virt2(int *o, int sel)
{
    Base *b = sel ? (Base *)new Der() : new Base();
    o[threadIdx.x] = b->f(o[threadIdx.x]) + 1;
    delete b;
}
