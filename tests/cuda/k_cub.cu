// CUB device-wide algorithms as real library code: cub::DeviceReduce::Sum and ::Max (two-phase
// temporary-storage protocol), cub::DeviceScan::ExclusiveSum (single-pass decoupled look-back),
// cub::DeviceRadixSort::SortPairs, cub::DeviceHistogram::HistogramEven, and cub::BlockReduce inside
// a user kernel. Host reference: plain loops and std::sort.
#include "k_util.h"
#include <cub/cub.cuh>
#include <algorithm>
#include <vector>

__global__ void block_sum(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 128> BR;
    __shared__ typename BR::TempStorage tmp;
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int s = BR(tmp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

int main(void)
{
    const int n = 300000;
    std::vector<int> h(n); std::vector<unsigned> keys(n);
    for (int i = 0; i < n; i++) { h[i] = (int)(k_rand32() % 1001) - 500; keys[i] = k_rand32(); }
    int *d, *dout, *dscan; unsigned *dk, *dk2; int *dv, *dv2;
    CK(cudaMalloc(&d, n * 4)); CK(cudaMalloc(&dout, 8)); CK(cudaMalloc(&dscan, n * 4));
    CK(cudaMalloc(&dk, n * 4)); CK(cudaMalloc(&dk2, n * 4)); CK(cudaMalloc(&dv, n * 4)); CK(cudaMalloc(&dv2, n * 4));
    CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dk, keys.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<int> idx(n); for (int i = 0; i < n; i++) idx[i] = i;
    CK(cudaMemcpy(dv, idx.data(), n * 4, cudaMemcpyHostToDevice));
    void *tmp = NULL; size_t tb = 0, need;
    CK(cub::DeviceReduce::Sum(NULL, need, d, dout, n)); tb = need;
    CK(cub::DeviceScan::ExclusiveSum(NULL, need, d, dscan, n)); tb = std::max(tb, need);
    CK(cub::DeviceRadixSort::SortPairs(NULL, need, dk, dk2, dv, dv2, n)); tb = std::max(tb, need);
    CK(cub::DeviceReduce::Max(NULL, need, d, dout + 1, n)); tb = std::max(tb, need);
    CK(cudaMalloc(&tmp, tb));
    need = tb; CK(cub::DeviceReduce::Sum(tmp, need, d, dout, n));
    need = tb; CK(cub::DeviceReduce::Max(tmp, need, d, dout + 1, n));
    int res[2]; CK(cudaMemcpy(res, dout, 8, cudaMemcpyDeviceToHost));
    long long es = 0; int em = -1000000;
    for (int i = 0; i < n; i++) { es += h[i]; em = std::max(em, h[i]); }
    CHECK_EQ(res[0], es); CHECK_EQ(res[1], em);
    need = tb; CK(cub::DeviceScan::ExclusiveSum(tmp, need, d, dscan, n));
    std::vector<int> gs(n); CK(cudaMemcpy(gs.data(), dscan, n * 4, cudaMemcpyDeviceToHost));
    int acc = 0, bad = 0;
    for (int i = 0; i < n; i++) { if (gs[i] != acc && bad++ < 5) CHECK_MSG(0, "scan[%d] = %d want %d", i, gs[i], acc); acc += h[i]; }
    need = tb; CK(cub::DeviceRadixSort::SortPairs(tmp, need, dk, dk2, dv, dv2, n));
    std::vector<unsigned> gk(n); std::vector<int> gv(n);
    CK(cudaMemcpy(gk.data(), dk2, n * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(gv.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    std::vector<unsigned> sk = keys; std::sort(sk.begin(), sk.end());
    for (int i = 0; i < n; i++) {
        if (gk[i] != sk[i] && bad++ < 5) CHECK_MSG(0, "radix key[%d]", i);
        if ((gv[i] < 0 || gv[i] >= n || keys[gv[i]] != gk[i]) && bad++ < 5) CHECK_MSG(0, "radix value[%d]", i);
    }
    /* histogram of the values into 10 even bins over [-500, 501) */
    int *dh; CK(cudaMalloc(&dh, 10 * 4));
    void *tmp2 = NULL; size_t tb2 = 0;
    CK(cub::DeviceHistogram::HistogramEven(tmp2, tb2, d, dh, 11, -500, 501, n));
    CK(cudaMalloc(&tmp2, tb2));
    CK(cub::DeviceHistogram::HistogramEven(tmp2, tb2, d, dh, 11, -500, 501, n));
    int gh[10], eh[10] = {0};
    CK(cudaMemcpy(gh, dh, sizeof gh, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) eh[(int)(((long long)(h[i] + 500) * 10) / 1001)]++;
    for (int b = 0; b < 10; b++) CHECK_MSG(gh[b] == eh[b], "bin %d: %d vs %d", b, gh[b], eh[b]);
    /* BlockReduce in a user kernel */
    int *dbs; CK(cudaMalloc(&dbs, 64 * 4));
    block_sum<<<64, 128>>>(d, dbs);
    CK(cudaGetLastError());
    int bs[64]; CK(cudaMemcpy(bs, dbs, sizeof bs, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 64; b++) { int s = 0; for (int k = 0; k < 128; k++) s += h[b * 128 + k]; CHECK_EQ(bs[b], s); }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
