// cuRAND device API (header-only code, as PyTorch's dropout uses it): Philox4x32-10 states from
// curand_init(seed, subsequence, offset) compared with a host Philox written here from the
// Random123 definition; curand_uniform's mapping x * 2^-32 + 2^-33; and the default XORWOW
// generator, whose curand_init(seed, subsequence, offset) jumps through large precomputed
// __device__ tables: jumping by offset k must equal stepping k times from offset 0.
#include "k_util.h"
#include <curand_kernel.h>

__global__ void philox(unsigned long long seed, unsigned *raw, float *uni)
{
    int t = threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, (unsigned long long)t, (unsigned long long)(t % 3) * 4, &s);
    for (int k = 0; k < 8; k++) raw[t * 8 + k] = curand(&s);
    curand_init(seed, t, 0, &s);
    uni[t] = curand_uniform(&s);
}
__global__ void xorwow(unsigned long long seed, unsigned *jump, unsigned *step)
{
    int t = threadIdx.x;
    curandState a, b;
    curand_init(seed, t, 37 + t, &a);           /* jump ahead by offset */
    curand_init(seed, t, 0, &b);
    for (int k = 0; k < 37 + t; k++) curand(&b); /* or step there */
    for (int k = 0; k < 4; k++) { jump[t * 4 + k] = curand(&a); step[t * 4 + k] = curand(&b); }
}

static void h_philox(unsigned ctr[4], const unsigned key0[2], unsigned out[4])
{
    unsigned c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key0[0], k1 = key0[1];
    for (int r = 0; r < 10; r++) {
        unsigned long long p0 = (unsigned long long)0xD2511F53u * c0, p1 = (unsigned long long)0xCD9E8D57u * c2;
        unsigned n0 = (unsigned)(p1 >> 32) ^ c1 ^ k0, n1 = (unsigned)p1, n2 = (unsigned)(p0 >> 32) ^ c3 ^ k1, n3 = (unsigned)p0;
        c0 = n0; c1 = n1; c2 = n2; c3 = n3;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}
static void ctr_add(unsigned ctr[4], unsigned long long n)   /* 128-bit counter += n (in the low 64 bits) */
{
    unsigned long long lo = ((unsigned long long)ctr[1] << 32 | ctr[0]) + n;
    unsigned carry = lo < n;
    ctr[0] = (unsigned)lo; ctr[1] = (unsigned)(lo >> 32);
    if (carry && ++ctr[2] == 0) ctr[3]++;
}

int main(void)
{
    const unsigned long long seed = 0x123456789abcdefull;
    const int nt = 64;
    unsigned *draw, *dj, *ds; float *duni;
    static unsigned raw[64 * 8], jump[64 * 4], step[64 * 4]; float uni[64];
    CK(cudaMalloc(&draw, sizeof raw)); CK(cudaMalloc(&duni, sizeof uni)); CK(cudaMalloc(&dj, sizeof jump)); CK(cudaMalloc(&ds, sizeof step));
    philox<<<1, nt>>>(seed, draw, duni);
    xorwow<<<1, nt>>>(seed, dj, ds);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(raw, draw, sizeof raw, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(uni, duni, sizeof uni, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(jump, dj, sizeof jump, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(step, ds, sizeof step, cudaMemcpyDeviceToHost));
    const unsigned key[2] = {(unsigned)seed, (unsigned)(seed >> 32)};
    int bad = 0;
    for (int t = 0; t < nt; t++) {
        unsigned ctr[4] = {0, 0, (unsigned)t, 0}, out[4];   /* subsequence t selects the high 64 counter bits */
        ctr_add(ctr, (unsigned long long)(t % 3));          /* offset 4*(t%3) outputs = t%3 counter steps */
        for (int k = 0; k < 8; k++) {
            if (k % 4 == 0) { h_philox(ctr, key, out); ctr_add(ctr, 1); }
            if (raw[t * 8 + k] != out[k % 4] && bad++ < 10) CHECK_MSG(0, "philox t=%d k=%d: %08x want %08x", t, k, raw[t * 8 + k], out[k % 4]);
        }
        unsigned c0[4] = {0, 0, (unsigned)t, 0}; h_philox(c0, key, out);
        float eu = out[0] * 2.3283064e-10f + 2.3283064e-10f / 2.0f;
        if (uni[t] != eu && bad++ < 10) CHECK_MSG(0, "curand_uniform t=%d: %a want %a", t, (double)uni[t], (double)eu);
        for (int k = 0; k < 4; k++) if (jump[t * 4 + k] != step[t * 4 + k] && bad++ < 10) CHECK_MSG(0, "xorwow jump != step at t=%d", t);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
