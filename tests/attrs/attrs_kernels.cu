/*
 * attrs_kernels.cu - kernels whose attributes tests/attrs/run_attrs.sh compares with what
 * ptxas reports for the same PTX (ptxas -v): registers, user constant bank (cmem[3]), stack
 * frame (local memory), static shared memory, launch bounds. Compiled to PTX only.
 */
__constant__ float c1[100];
__constant__ double c2[3];

extern "C" __global__ void plain(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }

/* 48 values live at once: needs many registers */
extern "C" __global__ void heavy(const float *in, float *out, int n)
{
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++) v[k] = in[k * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += v[k] * v[47 - k] + c1[k];
    out[threadIdx.x] = s + (float)c2[threadIdx.x % 3];
}

/* the same under launch bounds: 65536 / (256 x 4) = 64 registers at most, and 1024 / 1 = 64 */
extern "C" __global__ void __launch_bounds__(256, 4) heavy_bounded(const float *in, float *out, int n)
{
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++) v[k] = in[k * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += v[k] * v[47 - k];
    out[threadIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(1024) heavy_1024(const float *in, float *out, int n)
{
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++) v[k] = in[k * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += v[k] * v[47 - k];
    out[threadIdx.x] = s;
}

/* an array indexed at run time lives in local memory: a 1024-byte frame */
extern "C" __global__ void local_arr(float *p, int j)
{
    float buf[256];
    for (int i = 0; i < 256; i++) buf[i] = p[i];
    p[0] = buf[j & 255];
}

extern "C" __global__ void shared_arr(float *p)
{
    __shared__ float a[300];
    __shared__ double b[10];
    a[threadIdx.x % 300] = p[threadIdx.x];
    b[threadIdx.x % 10] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = a[(threadIdx.x + 1) % 300] + (float)b[(threadIdx.x + 3) % 10];
}

/* launched by the probe: 128 threads allowed, 129 refused */
extern "C" __global__ void __launch_bounds__(128) bounded128(float *p) { p[threadIdx.x] += 1.0f; }
