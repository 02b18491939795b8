// __device__ pointers initialised with addresses inside other __device__ arrays: nvcc emits
// `.u64 ptrs[2] = {generic(arr)+4, generic(arr)+12}` in PTX; the offsets after generic(...) must
// be kept (they were once dropped, making both pointers point at arr[0]).
#include "check.h"

__device__ int arr[4] = { 10, 20, 30, 40 };
__device__ int *ptrs[3] = { &arr[1], &arr[3], arr };
__device__ const char *msg = "ab" "cd";

__global__ void read_through(int *out, char *s)
{
    out[0] = *ptrs[0];
    out[1] = *ptrs[1];
    out[2] = *ptrs[2];
    s[0] = msg[2];
}

int main()
{
    int *o;
    char *s;
    CHECK_EQ(cudaMallocManaged(&o, 3 * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&s, 1), cudaSuccess);
    read_through<<<1, 1>>>(o, s);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(o[0], 20);
    CHECK_EQ(o[1], 40);
    CHECK_EQ(o[2], 10);
    CHECK_EQ(s[0], 'c');
    cudaFree(o);
    cudaFree(s);
    return CHECK_DONE();
}
