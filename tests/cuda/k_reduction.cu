// Tree reduction: grid-stride loads, shared-memory halving down to 32 values, finished with
// __shfl_down_sync in the last warp, one partial per block, then a second launch reduces the
// partials. Sums of integers held in float stay exact (< 2^24), so the check is exact; a double
// variant reduces random values and is compared with a tolerance of n * 2^-53 * sum|x|.
#include "k_util.h"

template <typename T>
__global__ void reduce(const T *in, T *out, int n)
{
    __shared__ T s[256];
    int t = threadIdx.x;
    T acc = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += in[i];
    s[t] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k >= 32; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t < 32) {
        T v = s[t];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0) out[blockIdx.x] = v;
    }
}

int main(void)
{
    const int n = 1000003, nb = 120;
    float *hf = (float *)malloc(n * 4); double *hd = (double *)malloc(n * 8);
    double ef = 0, ed = 0, ad = 0;
    for (int i = 0; i < n; i++) { hf[i] = (float)(i % 7) - 3.0f; ef += hf[i]; hd[i] = k_randu(-1, 1); ed += hd[i]; ad += fabs(hd[i]); }
    float *df, *pf; double *dd, *pd;
    CK(cudaMalloc(&df, n * 4)); CK(cudaMalloc(&pf, nb * 4)); CK(cudaMalloc(&dd, n * 8)); CK(cudaMalloc(&pd, nb * 8));
    CK(cudaMemcpy(df, hf, n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dd, hd, n * 8, cudaMemcpyHostToDevice));
    reduce<float><<<nb, 256>>>(df, pf, n);
    reduce<float><<<1, 256>>>(pf, pf, nb);          /* in place: block 0 reads all partials before writing */
    reduce<double><<<nb, 256>>>(dd, pd, n);
    reduce<double><<<1, 256>>>(pd, pd, nb);
    CK(cudaGetLastError());
    float gf; double gd;
    CK(cudaMemcpy(&gf, pf, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&gd, pd, 8, cudaMemcpyDeviceToHost));
    CHECK(gf == (float)ef);
    CHECK_NEAR(gd, ed, n * ldexp(1.0, -53) * ad);
    free(hf); free(hd);
    return CHECK_DONE();
}
