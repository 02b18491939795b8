// NVCC_FLAGS: -arch=sm_80
// Atomic scopes and memory orders: atomicAdd_block / atomicAdd_system / atomicCAS_block,
// __threadfence_block / __threadfence_system, and libcu++ cuda::atomic_ref with thread_scope_block
// and thread_scope_device: fetch_add (relaxed), store(release) / load(acquire) message passing
// between two blocks, compare_exchange_strong, fetch_max, exchange (atom.acq_rel.gpu, ld.acquire.gpu,
// st.release.gpu, fence.* in the PTX). Host reference: the counts every thread contributes.
#include "k_util.h"
#include <cuda/atomic>

__global__ void scopes(int *g, int *data, int *seen, unsigned long long *u)
{
    __shared__ int s_cnt;
    int t = threadIdx.x, b = blockIdx.x;
    if (t == 0) s_cnt = 0;
    __syncthreads();
    atomicAdd_block(&s_cnt, 2);
    atomicCAS_block(&s_cnt, -12345, 0);                 /* never matches */
    __threadfence_block();
    __syncthreads();
    if (t == 0) atomicAdd_system(&g[0], s_cnt);
    cuda::atomic_ref<int, cuda::thread_scope_device> dev(g[1]);
    dev.fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_device> mx(g[2]);
    mx.fetch_max(b * 1000 + t, cuda::memory_order_acq_rel);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> big(*u);
    unsigned long long expect = big.load(cuda::memory_order_relaxed);
    while (!big.compare_exchange_strong(expect, expect + 3, cuda::memory_order_acq_rel)) { }
    /* message passing: block 0 thread 0 publishes data then a flag with release;
       block 1 thread 0 waits with acquire and must see the data */
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(g[3]);
    if (b == 0 && t == 0) {
        for (int k = 0; k < 16; k++) data[k] = k * k + 7;
        __threadfence_system();
        flag.store(1, cuda::memory_order_release);
    }
    if (b == 1 && t == 0) {
        while (flag.load(cuda::memory_order_acquire) == 0) { }
        for (int k = 0; k < 16; k++) seen[k] = data[k];
    }
    cuda::atomic_ref<int, cuda::thread_scope_block> blk(s_cnt);
    __syncthreads();
    int old = blk.exchange(t, cuda::memory_order_relaxed);
    (void)old;
}

int main(void)
{
    const int nb = 8, nt = 128;
    int *g, *data, *seen; unsigned long long *u;
    CK(cudaMalloc(&g, 4 * sizeof(int))); CK(cudaMalloc(&data, 16 * sizeof(int))); CK(cudaMalloc(&seen, 16 * sizeof(int)));
    CK(cudaMalloc(&u, sizeof *u));
    CK(cudaMemset(g, 0, 4 * sizeof(int))); CK(cudaMemset(data, 0, 16 * sizeof(int))); CK(cudaMemset(seen, 0xff, 16 * sizeof(int)));
    CK(cudaMemset(u, 0, sizeof *u));
    scopes<<<nb, nt>>>(g, data, seen, u);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    int hg[4], hs[16]; unsigned long long hu;
    CK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(hs, seen, sizeof hs, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hu, u, sizeof hu, cudaMemcpyDeviceToHost));
    CHECK_EQ(hg[0], nb * nt * 2);
    CHECK_EQ(hg[1], nb * nt);
    CHECK_EQ(hg[2], (nb - 1) * 1000 + nt - 1);
    CHECK_EQ(hg[3], 1);
    CHECK_EQ(hu, 3ull * nb * nt);
    for (int k = 0; k < 16; k++) CHECK_EQ(hs[k], k * k + 7);
    return CHECK_DONE();
}
