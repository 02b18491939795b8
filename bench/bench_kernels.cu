// NVCC_FLAGS: -lOpenCL -Xcompiler -pthread
// bench_kernels.cu - kernel engine benchmarks: each kernel three ways in ONE run:
//   ours  - the CUDA kernel, run through libtransfer_to_npu.so (LD_PRELOAD)
//   C     - the same computation in plain C (compiled -O3, 2 threads)
//   PoCL  - the equivalent OpenCL kernel on PoCL (Debian's pocl-opencl-icd)
// Times are medians of several runs after one warm-up run (the warm-up includes the JIT,
// reported separately as "first launch"). Output: BENCH lines with ratios.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <cuda_runtime.h>
#include <pthread.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double median_ms(int reps, const std::function<void()> &fn)
{
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        fn();
        t.push_back(now_ms() - t0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// ----------------------------------------------------------------- CUDA kernels ----
__global__ void k_vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
__global__ void k_saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void k_reduce(const float *x, float *partial, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) v += x[i];
    s[t] = v;
    __syncthreads();
    for (int w = 128; w >= 32; w >>= 1) {
        if (t < w) s[t] += s[t + w];
        __syncthreads();
    }
    if (t < 32) {
        v = s[t];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0) partial[blockIdx.x] = v;
    }
}
__global__ void k_sgemm(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[16][16], Bs[16][16];
    int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < n; t += 16) {
        As[threadIdx.y][threadIdx.x] = A[r * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + c];
        __syncthreads();
        for (int k = 0; k < 16; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[r * n + c] = acc;
}
__global__ void k_transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void k_hist(const unsigned char *d, unsigned *bins, int n)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) atomicAdd(&h[d[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
__global__ void k_empty() {}

// ------------------------------------------------------------- plain C, 2 threads ----
static void par2(const std::function<void(int, int)> &body, int n)
{
    struct Arg { const std::function<void(int, int)> *f; int lo, hi; };
    Arg a[2] = { { &body, 0, n / 2 }, { &body, n / 2, n } };
    pthread_t t;
    pthread_create(&t, nullptr, [](void *p) -> void * { Arg *x = (Arg *)p; (*x->f)(x->lo, x->hi); return nullptr; }, &a[1]);
    body(a[0].lo, a[0].hi);
    pthread_join(t, nullptr);
}

// -------------------------------------------------------------------- OpenCL ----
static const char *cl_src = R"CL(
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n)
{ int i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }
__kernel void saxpy(float a, __global const float *x, __global float *y, int n)
{ int i = get_global_id(0); if (i < n) y[i] = a * x[i] + y[i]; }
__kernel void reduce(__global const float *x, __global float *partial, int n)
{
    __local float s[256];
    int t = get_local_id(0);
    float v = 0.f;
    for (int i = get_group_id(0) * 256 + t; i < n; i += get_num_groups(0) * 256) v += x[i];
    s[t] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 128; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (t == 0) partial[get_group_id(0)] = s[0];
}
__kernel void sgemm(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float As[16][16], Bs[16][16];
    int tx = get_local_id(0), ty = get_local_id(1);
    int r = get_group_id(1) * 16 + ty, c = get_group_id(0) * 16 + tx;
    float acc = 0.f;
    for (int t = 0; t < n; t += 16) {
        As[ty][tx] = A[r * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + c];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[r * n + c] = acc;
}
__kernel void transpose(__global const float *in, __global float *out, int n)
{
    __local float tile[32][33];
    int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * 32 + tx, y = get_group_id(1) * 32 + ty;
    for (int j = 0; j < 32; j += 8) tile[ty + j][tx] = in[(y + j) * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * 32 + tx; y = get_group_id(0) * 32 + ty;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[tx][ty + j];
}
__kernel void hist(__global const uchar *d, __global uint *bins, int n)
{
    __local uint h[256];
    int t = get_local_id(0);
    h[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_group_id(0) * 256 + t; i < n; i += get_num_groups(0) * 256) atomic_inc(&h[d[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[t], h[t]);
}
__kernel void empty(void) {}
)CL";

struct CL {
    cl_context ctx = nullptr;
    cl_command_queue q = nullptr;
    cl_program prog = nullptr;
    bool ok = false;
    CL()
    {
        cl_platform_id p;
        cl_device_id d;
        cl_uint np = 0;
        if (clGetPlatformIDs(1, &p, &np) != CL_SUCCESS || np == 0) return;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) != CL_SUCCESS) return;
        cl_int e;
        ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
        q = clCreateCommandQueue(ctx, d, 0, &e);
        prog = clCreateProgramWithSource(ctx, 1, &cl_src, nullptr, &e);
        if (clBuildProgram(prog, 1, &d, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) return;
        ok = true;
    }
    cl_mem buf(size_t n, const void *src)
    {
        cl_int e;
        return clCreateBuffer(ctx, CL_MEM_READ_WRITE | (src ? CL_MEM_COPY_HOST_PTR : 0), n, (void *)src, &e);
    }
    cl_kernel kern(const char *name) { cl_int e; return clCreateKernel(prog, name, &e); }
    double run(cl_kernel k, int dims, const size_t *g, const size_t *l, int reps)
    {
        clEnqueueNDRangeKernel(q, k, dims, nullptr, g, l, 0, nullptr, nullptr);
        clFinish(q);
        return median_ms(reps, [&] { clEnqueueNDRangeKernel(q, k, dims, nullptr, g, l, 0, nullptr, nullptr); clFinish(q); });
    }
};

static void report(const char *name, double first, double ours, double c, double pocl, const char *target)
{
    printf("BENCH %s: ours %.3f ms, C %.3f ms, PoCL %.3f ms; ours/C %.2fx, ours/PoCL %.2fx "
           "(first launch incl. JIT %.1f ms; target %s)\n",
           name, ours, c, pocl, ours / c, pocl > 0 ? ours / pocl : 0.0, first, target);
}

int main()
{
    const int N = 16 << 20, REPS = 7;
    CL cl;
    if (!cl.ok) printf("note: OpenCL/PoCL not available, PoCL columns are 0\n");
    std::vector<float> ha(N), hb(N), hc(N);
    for (int i = 0; i < N; i++) { ha[i] = (i % 1000) * 0.001f; hb[i] = (i % 777) * 0.002f; }
    float *a, *b, *c;
    CK(cudaMalloc(&a, N * 4)); CK(cudaMalloc(&b, N * 4)); CK(cudaMalloc(&c, N * 4));
    CK(cudaMemcpy(a, ha.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), N * 4, cudaMemcpyHostToDevice));
    cl_mem ca = cl.ok ? cl.buf(N * 4, ha.data()) : nullptr, cb = cl.ok ? cl.buf(N * 4, hb.data()) : nullptr,
           cc = cl.ok ? cl.buf(N * 4, nullptr) : nullptr;
    double t0, first, ours, cref, pocl = 0;

    // vectorAdd
    t0 = now_ms(); k_vadd<<<N / 256, 256>>>(a, b, c, N); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(REPS, [&] { k_vadd<<<N / 256, 256>>>(a, b, c, N); cudaDeviceSynchronize(); });
    cref = median_ms(REPS, [&] { par2([&](int lo, int hi) { for (int i = lo; i < hi; i++) hc[i] = ha[i] + hb[i]; }, N); });
    if (cl.ok) { cl_kernel k = cl.kern("vadd"); int n = N; clSetKernelArg(k, 0, 8, &ca); clSetKernelArg(k, 1, 8, &cb); clSetKernelArg(k, 2, 8, &cc); clSetKernelArg(k, 3, 4, &n);
        size_t g = N, l = 256; pocl = cl.run(k, 1, &g, &l, REPS); }
    report("vectorAdd 16M", first, ours, cref, pocl, "ours/C <= 1.5");

    // saxpy
    t0 = now_ms(); k_saxpy<<<N / 256, 256>>>(2.f, a, c, N); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(REPS, [&] { k_saxpy<<<N / 256, 256>>>(2.f, a, c, N); cudaDeviceSynchronize(); });
    cref = median_ms(REPS, [&] { par2([&](int lo, int hi) { for (int i = lo; i < hi; i++) hc[i] = 2.f * ha[i] + hc[i]; }, N); });
    if (cl.ok) { cl_kernel k = cl.kern("saxpy"); int n = N; float s = 2.f; clSetKernelArg(k, 0, 4, &s); clSetKernelArg(k, 1, 8, &ca); clSetKernelArg(k, 2, 8, &cc); clSetKernelArg(k, 3, 4, &n);
        size_t g = N, l = 256; pocl = cl.run(k, 1, &g, &l, REPS); }
    report("saxpy 16M", first, ours, cref, pocl, "ours/C <= 1.5");

    // reduction
    const int RB = 1024;
    float *part; CK(cudaMalloc(&part, RB * 4));
    t0 = now_ms(); k_reduce<<<RB, 256>>>(a, part, N); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(REPS, [&] { k_reduce<<<RB, 256>>>(a, part, N); cudaDeviceSynchronize(); });
    {
        std::vector<float> hp(RB);
        CK(cudaMemcpy(hp.data(), part, RB * 4, cudaMemcpyDeviceToHost));
        double s = 0, r = 0; for (float v : hp) s += v; for (int i = 0; i < N; i++) r += ha[i];
        if (fabs(s - r) > 1e-3 * fabs(r)) printf("WARNING: reduction result %f vs %f\n", s, r);
    }
    double sums[2];
    cref = median_ms(REPS, [&] { par2([&](int lo, int hi) { float s = 0; for (int i = lo; i < hi; i++) s += ha[i]; sums[lo ? 1 : 0] = s; }, N); });
    if (cl.ok) { cl_mem cp = cl.buf(RB * 4, nullptr); cl_kernel k = cl.kern("reduce"); int n = N; clSetKernelArg(k, 0, 8, &ca); clSetKernelArg(k, 1, 8, &cp); clSetKernelArg(k, 2, 4, &n);
        size_t g = RB * 256, l = 256; pocl = cl.run(k, 1, &g, &l, REPS); }
    report("reduction 16M (shared tree + shuffles)", first, ours, cref, pocl, "faster than PoCL, ours/C <= 3");

    // tiled sgemm 1024
    const int M = 1024;
    t0 = now_ms(); k_sgemm<<<dim3(M / 16, M / 16), dim3(16, 16)>>>(a, b, c, M); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(3, [&] { k_sgemm<<<dim3(M / 16, M / 16), dim3(16, 16)>>>(a, b, c, M); cudaDeviceSynchronize(); });
    cref = median_ms(3, [&] { par2([&](int lo, int hi) {
        for (int i0 = lo; i0 < hi; i0 += 16) for (int j0 = 0; j0 < M; j0 += 16) {
            float acc[16][16] = {};
            for (int t = 0; t < M; t += 16) for (int i = 0; i < 16; i++) for (int k = 0; k < 16; k++) {
                float av = ha[(i0 + i) * M + t + k];
                for (int j = 0; j < 16; j++) acc[i][j] += av * hb[(t + k) * M + j0 + j];
            }
            for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) hc[(i0 + i) * M + j0 + j] = acc[i][j];
        } }, M); });
    if (cl.ok) { cl_kernel k = cl.kern("sgemm"); int n = M; clSetKernelArg(k, 0, 8, &ca); clSetKernelArg(k, 1, 8, &cb); clSetKernelArg(k, 2, 8, &cc); clSetKernelArg(k, 3, 4, &n);
        size_t g[2] = { (size_t)M, (size_t)M }, l[2] = { 16, 16 }; pocl = cl.run(k, 2, g, l, 3); }
    report("tiled SGEMM 1024^3 (16x16 shared tiles)", first, ours, cref, pocl, "faster than PoCL, ours/C <= 3");

    // transpose 4096^2
    const int T = 4096;
    t0 = now_ms(); k_transpose<<<dim3(T / 32, T / 32), dim3(32, 8)>>>(a, c, T); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(REPS, [&] { k_transpose<<<dim3(T / 32, T / 32), dim3(32, 8)>>>(a, c, T); cudaDeviceSynchronize(); });
    cref = median_ms(REPS, [&] { par2([&](int lo, int hi) {
        for (int i0 = lo; i0 < hi; i0 += 32) for (int j0 = 0; j0 < T; j0 += 32)
            for (int i = i0; i < i0 + 32; i++) for (int j = j0; j < j0 + 32; j++) hc[j * T + i] = ha[i * T + j]; }, T); });
    if (cl.ok) { cl_kernel k = cl.kern("transpose"); int n = T; clSetKernelArg(k, 0, 8, &ca); clSetKernelArg(k, 1, 8, &cc); clSetKernelArg(k, 2, 4, &n);
        size_t g[2] = { (size_t)T, (size_t)T / 4 }, l[2] = { 32, 8 }; pocl = cl.run(k, 2, g, l, REPS); }
    report("transpose 4096^2 (shared tile)", first, ours, cref, pocl, "faster than PoCL, ours/C <= 3");

    // histogram over 16M bytes
    unsigned *bins; CK(cudaMalloc(&bins, 256 * 4));
    const unsigned char *bytes = (const unsigned char *)a;
    t0 = now_ms(); k_hist<<<512, 256>>>(bytes, bins, N); CK(cudaDeviceSynchronize()); first = now_ms() - t0;
    ours = median_ms(REPS, [&] { k_hist<<<512, 256>>>(bytes, bins, N); cudaDeviceSynchronize(); });
    const unsigned char *hbytes = (const unsigned char *)ha.data();
    unsigned hh[2][256];
    cref = median_ms(REPS, [&] { par2([&](int lo, int hi) { unsigned *h = hh[lo ? 1 : 0]; memset(h, 0, 1024); for (int i = lo; i < hi; i++) h[hbytes[i]]++; }, N); });
    if (cl.ok) { cl_mem cbins = cl.buf(1024, nullptr); cl_kernel k = cl.kern("hist"); int n = N; clSetKernelArg(k, 0, 8, &ca); clSetKernelArg(k, 1, 8, &cbins); clSetKernelArg(k, 2, 4, &n);
        size_t g = 512 * 256, l = 256; pocl = cl.run(k, 1, &g, &l, REPS); }
    report("histogram 16M bytes (shared atomics)", first, ours, cref, pocl, "faster than PoCL, ours/C <= 3");

    // empty launch + synchronize
    k_empty<<<1, 1>>>(); CK(cudaDeviceSynchronize());
    std::vector<double> lat;
    for (int i = 0; i < 2000; i++) { double s = now_ms(); k_empty<<<1, 1>>>(); cudaDeviceSynchronize(); lat.push_back(now_ms() - s); }
    std::sort(lat.begin(), lat.end());
    double pocl_empty = 0;
    if (cl.ok) { cl_kernel k = cl.kern("empty"); size_t g = 1, l = 1; pocl_empty = cl.run(k, 1, &g, &l, 2000); }
    printf("BENCH empty launch + synchronize: ours %.1f us (median), PoCL %.1f us; ours/PoCL %.2fx (target <= 5 us)\n",
           lat[lat.size() / 2] * 1000, pocl_empty * 1000, pocl_empty > 0 ? lat[lat.size() / 2] / pocl_empty : 0.0);
    (void)sums;
    return 0;
}
