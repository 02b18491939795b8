// cub::WarpMergeSort of key-value pairs in the shape of ATen's warpMergeSortKVInPlace (torch.sort of
// rows of 33..128 elements): 32 threads x 4 items per row, one row per threadIdx.y, warp-striped
// loads and stores through WarpLoad/WarpStore TRANSPOSE, 64-bit values, fewer valid items than
// slots (padding with an out-of-bounds key). Checked against std::stable_sort on the host.
// (PyTorch's own sm_80 build calls __cuda_sm70_warpsync behind an unguarded BRA.CONV at each
// __syncwarp; CUDA 13's ptxas makes NOPs of them here, so this exercises the PTX path, lockstep
// and the SASS path's CUB code, and tests/python/test_torch.py the BRA.CONV form.)
#include "k_util.h"
#include <cub/warp/warp_merge_sort.cuh>
#include <algorithm>
#include <vector>

struct lt { __device__ bool operator()(float a, float b) const { return a < b; } };

#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>

/* ATen's shape: one warp per row along threadIdx.y, warp-striped loads and stores through
 * WarpLoad/WarpStore TRANSPOSE (shared-memory exchanges), 64-bit values, StableSort, and the
 * temporary storage of all five in one union per warp */
template <int WARPS>
__global__ void wms(const float *keys, float *okeys, long long *ovals, int n)
{
    using LK = cub::WarpLoad<float, 4, cub::WARP_LOAD_TRANSPOSE>;
    using LV = cub::WarpLoad<long long, 4, cub::WARP_LOAD_TRANSPOSE>;
    using S = cub::WarpMergeSort<float, 4, 32, long long>;
    using SK = cub::WarpStore<float, 4, cub::WARP_STORE_TRANSPOSE>;
    using SV = cub::WarpStore<long long, 4, cub::WARP_STORE_TRANSPOSE>;
    __shared__ union {
        typename LK::TempStorage lk; typename LV::TempStorage lv; typename S::TempStorage s;
        typename SK::TempStorage sk; typename SV::TempStorage sv;
    } tmp[WARPS];
    int row = blockIdx.x * WARPS + threadIdx.y;
    auto &ts = tmp[threadIdx.y];
    const float inv = __int_as_float(0x7f800000);
    float k[4];
    long long v[4];
    LK(ts.lk).Load(keys + row * 128, k, n, inv);
    __syncwarp();
    long long *ov = ovals + row * 128;
    for (int j = threadIdx.x; j < n; j += 32) ov[j] = j;   /* values in, as torch's index fill */
    __syncwarp();
    LV(ts.lv).Load(ov, v, n, 0);
    __syncwarp();
    S(ts.s).StableSort(k, v, lt(), n, inv);
    __syncwarp();
    SK(ts.sk).Store(okeys + row * 128, k, n);
    __syncwarp();
    SV(ts.sv).Store(ov, v, n);
}

int main(void)
{
    const int rows = 8;
    float *h = k_hnew<float>(rows * 128);
    for (int i = 0; i < rows * 128; i++) h[i] = (float)((int)(k_rand32() % 2001) - 1000) / 8.0f;
    float *dk = k_dup(h, rows * 128), *dok = k_dnew<float>(rows * 128);
    long long *dov = k_dnew<long long>(rows * 128);
    for (int n : {1, 5, 32, 53, 64, 100, 127, 128}) {
        wms<4><<<rows / 4, dim3(32, 4)>>>(dk, dok, dov, n);
        k_sync_ok("wms");
        std::vector<float> ok(rows * 128);
        std::vector<long long> ov(rows * 128);
        k_get(ok.data(), dok, rows * 128);
        k_get(ov.data(), dov, rows * 128);
        for (int r = 0; r < rows; r++) {
            std::vector<float> want(h + r * 128, h + r * 128 + n);
            std::stable_sort(want.begin(), want.end());
            int bad = 0;
            for (int j = 0; j < n; j++) {
                long long src = ov[r * 128 + j];
                if (ok[r * 128 + j] != want[j] || src < 0 || src >= n || h[r * 128 + src] != want[j]) bad++;
            }
            CHECK_MSG(bad == 0, "n=%d row %d: %d of %d positions wrong", n, r, bad, n);
        }
    }
    return CHECK_DONE();
}
