// cudaOccupancyAvailableDynamicSMemPerBlock against device-independent invariants: positive
// for one block, non-increasing as more blocks share an SM, zero when the blocks' threads
// exceed the SM's thread limit, and the one-block amount is accepted by
// cudaFuncSetAttribute(MaxDynamicSharedMemorySize) and launches.
#include "check.h"

__global__ void uses_dyn(int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = buf[blockDim.x - 1];
}

int main()
{
    int max_threads_sm = 0;
    CHECK_EQ(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0), cudaSuccess);
    size_t one = 0, prev = 0;
    CHECK_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&one, uses_dyn, 1, 128), cudaSuccess);
    CHECK(one > 48 * 1024);
    prev = one;
    for (int n = 2; n <= 16; n *= 2) {
        size_t s = 1;
        CHECK_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&s, uses_dyn, n, 128), cudaSuccess);
        CHECK_MSG(s <= prev, "%d blocks: %zu > %zu", n, s, prev);
        prev = s;
    }
    size_t none = 1;
    CHECK_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&none, uses_dyn, max_threads_sm / 128 + 1, 128), cudaSuccess);
    CHECK_EQ(none, 0);
    CHECK_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(NULL, uses_dyn, 1, 128), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    CHECK_EQ(cudaFuncSetAttribute(uses_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)one), cudaSuccess);
    int *out;
    CHECK_EQ(cudaMallocManaged(&out, sizeof(int)), cudaSuccess);
    uses_dyn<<<1, 128, one>>>(out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(out[0], 127);
    cudaFree(out);
    return CHECK_DONE();
}
