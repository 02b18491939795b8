// Atomics under contention: every thread of 256 blocks x 256 threads hits the same addresses
// (int add with returned tickets, float add of 1.0, 64-bit add, max of the global id, atomicInc
// wrapping at 1000, atomicDec wrapping at 77, CAS-loop increment). A lost update shows as a wrong
// total; the tickets must be a permutation of 0..N-1.
#include "k_util.h"

#define NBLK 256
#define NTHR 256
#define NTOT (NBLK * NTHR)

__global__ void hammer(int *cnt, float *fsum, unsigned long long *lsum, int *mx, unsigned *inc, unsigned *dec,
                       int *cas_cnt, int *tickets)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    tickets[g] = atomicAdd(cnt, 1);
    atomicAdd(fsum, 1.0f);
    atomicAdd(lsum, (unsigned long long)g + (1ull << 32));
    atomicMax(mx, g);
    atomicInc(inc, 999u);
    atomicDec(dec, 76u);
    int old = *(volatile int *)cas_cnt, assumed;
    do { assumed = old; old = atomicCAS(cas_cnt, assumed, assumed + 1); } while (old != assumed);
}

int main(void)
{
    int *cnt, *mx, *cas_cnt, *tickets; float *fsum; unsigned long long *lsum; unsigned *inc, *dec;
    CK(cudaMalloc(&cnt, 4)); CK(cudaMalloc(&mx, 4)); CK(cudaMalloc(&cas_cnt, 4)); CK(cudaMalloc(&fsum, 4));
    CK(cudaMalloc(&lsum, 8)); CK(cudaMalloc(&inc, 4)); CK(cudaMalloc(&dec, 4)); CK(cudaMalloc(&tickets, NTOT * 4));
    CK(cudaMemset(cnt, 0, 4)); CK(cudaMemset(mx, 0xff, 4)); CK(cudaMemset(cas_cnt, 0, 4)); CK(cudaMemset(fsum, 0, 4));
    CK(cudaMemset(lsum, 0, 8)); CK(cudaMemset(inc, 0, 4)); CK(cudaMemset(dec, 0, 4));
    hammer<<<NBLK, NTHR>>>(cnt, fsum, lsum, mx, inc, dec, cas_cnt, tickets);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    int hc, hm, hcas; float hf; unsigned long long hl; unsigned hi, hd;
    static int t[NTOT]; static char seen[NTOT];
    CK(cudaMemcpy(&hc, cnt, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&hm, mx, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hcas, cas_cnt, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&hf, fsum, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hl, lsum, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&hi, inc, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hd, dec, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(t, tickets, sizeof t, cudaMemcpyDeviceToHost));
    CHECK_EQ(hc, NTOT);
    CHECK(hf == (float)NTOT);                       /* 65536 < 2^24: exact */
    CHECK(hl == (unsigned long long)NTOT * (NTOT - 1) / 2 + ((unsigned long long)NTOT << 32));
    CHECK_EQ(hm, NTOT - 1);
    CHECK_EQ(hi, (unsigned)(NTOT % 1000));          /* increments modulo 1000 */
    CHECK_EQ(hd, (unsigned)((77 - NTOT % 77) % 77)); /* decrements from 0 modulo 77 */
    CHECK_EQ(hcas, NTOT);
    int perm = 1;
    for (int i = 0; i < NTOT; i++) { if (t[i] < 0 || t[i] >= NTOT || seen[t[i]]++) perm = 0; }
    CHECK_MSG(perm, "tickets are not a permutation");
    return CHECK_DONE();
}
