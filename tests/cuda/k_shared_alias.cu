// Shared-memory layout: two extern __shared__ arrays of different types alias the same dynamic
// buffer (both start at offset 0), dynamic shared memory placed after static __shared__ arrays,
// 16-byte-aligned double2 views into the dynamic buffer, and byte-granular accesses into words
// written as ints (little-endian layout, as on the GPU).
#include "k_util.h"

extern __shared__ int dyn_i[];
extern __shared__ double2 dyn_d2[];

__global__ void alias(int *out)
{
    __shared__ char st_pad[40];                     /* static shared before the dynamic part */
    __shared__ int st_words[64];
    int t = threadIdx.x;
    if (t < 40) st_pad[t] = (char)t;
    st_words[t] = 0x01020304 * (t + 1);
    dyn_i[t] = t * 10;
    __syncthreads();
    unsigned char *bytes = (unsigned char *)st_words;
    out[t * 5 + 0] = bytes[t * 4 + (t & 3)];        /* little-endian byte of another word */
    out[t * 5 + 1] = ((int *)dyn_d2)[t ^ 1];        /* the alias sees dyn_i's data */
    __syncthreads();
    if (t < 16) dyn_d2[t] = make_double2(t * 0.5, -t * 0.25);
    __syncthreads();
    double2 v = dyn_d2[t & 15];
    out[t * 5 + 2] = (int)(v.x * 4) + (int)(v.y * 8);
    out[t * 5 + 3] = (int)(((size_t)dyn_d2) & 15) + (st_pad[t % 40] != (char)(t % 40) ? 100 : 0);  /* aligned; static intact */
    out[t * 5 + 4] = dyn_i[(t & 15) * 4 + 1] == (int)(__double_as_longlong((t & 15) * 0.5) >> 32);
}

int main(void)
{
    int *d, out[64 * 5];
    CK(cudaMalloc(&d, sizeof out));
    alias<<<1, 64, 64 * sizeof(int) + 16 * sizeof(double2)>>>(d);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        unsigned w = 0x01020304u * (unsigned)(t + 1);
        CHECK_EQ(out[t * 5 + 0], (int)((w >> (8 * (t & 3))) & 0xff));
        CHECK_EQ(out[t * 5 + 1], (t ^ 1) * 10);
        int k = t & 15;
        CHECK_EQ(out[t * 5 + 2], (int)(k * 0.5 * 4) + (int)(-k * 0.25 * 8));
        CHECK_EQ(out[t * 5 + 3], 0);
        CHECK_EQ(out[t * 5 + 4], 1);
    }
    return CHECK_DONE();
}
