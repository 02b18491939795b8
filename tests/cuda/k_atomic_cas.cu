// CAS loops built from atomicCAS: a float max via the int bit pattern (handles negatives),
// a double add via 64-bit CAS (the classic pre-sm_60 emulation), a 16-bit field update packed in
// a 32-bit word, and an inter-block spin lock (thread 0 of each block, atomicCAS/atomicExch +
// __threadfence) guarding a plain read-modify-write of a 64-bit counter and a history array.
#include "k_util.h"
#include <float.h>

__device__ float atomic_fmax(float *addr, float val)
{
    int *ia = (int *)addr, old = *(volatile int *)ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(ia, assumed, __float_as_int(val));
    } while (old != assumed);
    return __int_as_float(old);
}
__device__ double atomic_dadd(double *addr, double val)
{
    unsigned long long *ua = (unsigned long long *)addr, old = *(volatile unsigned long long *)ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double((long long)assumed) + val));
    } while (old != assumed);
    return __longlong_as_double((long long)old);
}
__device__ void atomic_add_u16(unsigned *word, int which, unsigned short add)
{
    unsigned old = *(volatile unsigned *)word, assumed;
    do {
        assumed = old;
        unsigned sh = which * 16, f = ((assumed >> sh) + add) & 0xffff;
        old = atomicCAS(word, assumed, (assumed & ~(0xffffu << sh)) | (f << sh));
    } while (old != assumed);
}

__global__ void casloops(const float *v, float *fmx, double *dsum, unsigned *packed, int *lock,
                         volatile unsigned long long *counter, volatile int *hist)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    atomic_fmax(fmx, v[g]);
    atomic_dadd(dsum, (double)(g % 7) * 0.25);
    atomic_add_u16(packed, g & 1, (unsigned short)(1 + (g & 1)));
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        unsigned long long c = *counter;      /* plain, non-atomic read-modify-write under the lock */
        hist[c] = blockIdx.x;
        *counter = c + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main(void)
{
    const int nb = 64, nt = 128, n = nb * nt;
    static float v[64 * 128];
    float emax = -FLT_MAX; double esum = 0;
    for (int i = 0; i < n; i++) { v[i] = (float)k_randu(-1000, -1); if (v[i] > emax) emax = v[i]; esum += (i % 7) * 0.25; }
    float *dv, *dmx; double *dsum; unsigned *dp; int *dlock, *dhist; unsigned long long *dcnt;
    CK(cudaMalloc(&dv, sizeof v)); CK(cudaMalloc(&dmx, 4)); CK(cudaMalloc(&dsum, 8)); CK(cudaMalloc(&dp, 4));
    CK(cudaMalloc(&dlock, 4)); CK(cudaMalloc(&dcnt, 8)); CK(cudaMalloc(&dhist, nb * 4));
    float init = -FLT_MAX; double zero = 0;
    CK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dmx, &init, 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dsum, &zero, 8, cudaMemcpyHostToDevice)); CK(cudaMemset(dp, 0, 4)); CK(cudaMemset(dlock, 0, 4));
    CK(cudaMemset(dcnt, 0, 8)); CK(cudaMemset(dhist, 0xff, nb * 4));
    casloops<<<nb, nt>>>(dv, dmx, dsum, dp, dlock, dcnt, dhist);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    float gmx; double gsum; unsigned gp; unsigned long long gcnt; int hist[64];
    CK(cudaMemcpy(&gmx, dmx, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&gsum, dsum, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&gp, dp, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&gcnt, dcnt, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
    CHECK(gmx == emax);                       /* all values negative: the int-pattern compare must be done on floats */
    CHECK(gsum == esum);                      /* multiples of 0.25 below 2^40: exact in any order */
    CHECK_EQ(gp & 0xffff, (unsigned)(n / 2));
    CHECK_EQ(gp >> 16, (unsigned)(n / 2 * 2) & 0xffff);
    CHECK_EQ(gcnt, (unsigned long long)nb);
    char seen[64] = {0}; int ok = 1;
    for (int b = 0; b < nb; b++) { if (hist[b] < 0 || hist[b] >= nb || seen[hist[b]]++) ok = 0; }
    CHECK_MSG(ok, "lock-protected history lost or duplicated an entry");
    return CHECK_DONE();
}
