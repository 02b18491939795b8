// Tensor-core machine code: HMMA (mma.sync m16n8k16 f16/bf16 with f32 and f16 accumulators,
// m16n8k8 f16 and tf32, m16n8k4 tf32), LDSM (ldmatrix x1/x2/x4, with and without .trans)
// and MOVM (movmatrix.trans), written as the PTX ISA's mma/ldmatrix/movmatrix and compiled to
// sm_80 machine code only (no PTX in the fatbin: the SASS front end runs it in every tier).
// The fragments are loaded as the PTX ISA's layouts say (ldmatrix for the 16-bit types, by
// hand for tf32), and the 16x8 products are checked against a host GEMM in double; movmatrix
// and ldmatrix are also checked bit for bit. Before the lifter spelt these out with shuffles,
// every kernel here failed with cudaErrorNoKernelImageForDevice.
// NVCC_FLAGS: -gencode arch=compute_80,code=sm_80
#include "k_util.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math.h>

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* A 16x16 row-major, B stored k x n (16x8) row-major (trans == 1, ldmatrix.trans) or n x k
 * (trans == 0, plain ldmatrix); D 16x8 f32 */
template <int BF>
__global__ void mma16816(const unsigned short *A, const unsigned short *B, int trans, float *D)
{
    __shared__ __align__(16) unsigned short sa[16 * 16], sb[16 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) sa[i] = A[i];
    for (int i = l; i < 128; i += 32) sb[i] = B[i];
    __syncthreads();
    unsigned a[4], b[2];
    /* matrices: rows 0-7 / 8-15 of k 0-7, then of k 8-15: a0..a3 */
    const unsigned short *pa = &sa[((l % 8) + 8 * ((l / 8) % 2)) * 16 + 8 * (l / 16)];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(smem_u32(pa)));
    if (trans) {   /* rows k 0-7, then k 8-15 of the k x n matrix */
        const unsigned short *pb = &sb[(l % 16) * 8];
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(smem_u32(pb)));
    } else {       /* n x k: rows n, k 0-7 then k 8-15 */
        const unsigned short *pb = &sb[(l % 8) * 16 + 8 * ((l / 8) % 2)];
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(smem_u32(pb)));
    }
    float d[4] = {1.0f, -2.0f, 0.5f, 3.0f};   /* C: a known accumulator per element slot */
    if (BF)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    int g = l / 4, t = l % 4;
    D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1];
    D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

/* m16n8k16 with f16 accumulators: C = 0.25 everywhere, D as halves */
__global__ void mma16816_f16acc(const unsigned short *A, const unsigned short *B, unsigned short *D)
{
    __shared__ __align__(16) unsigned short sa[16 * 16], sb[16 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) sa[i] = A[i];
    for (int i = l; i < 128; i += 32) sb[i] = B[i];
    __syncthreads();
    unsigned a[4], b[2], c[2] = {0x34003400u, 0x34003400u}, d[2];
    const unsigned short *pa = &sa[((l % 8) + 8 * ((l / 8) % 2)) * 16 + 8 * (l / 16)];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(smem_u32(pa)));
    const unsigned short *pb = &sb[(l % 16) * 8];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(smem_u32(pb)));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    int g = l / 4, t = l % 4;
    D[g * 8 + 2 * t] = (unsigned short)d[0]; D[g * 8 + 2 * t + 1] = (unsigned short)(d[0] >> 16);
    D[(g + 8) * 8 + 2 * t] = (unsigned short)d[1]; D[(g + 8) * 8 + 2 * t + 1] = (unsigned short)(d[1] >> 16);
}

/* m16n8k8 f16: A 16x8 row-major (ldmatrix x2), B k x n 8x8 (ldmatrix x1 .trans), C = 0 */
__global__ void mma1688(const unsigned short *A, const unsigned short *B, float *D)
{
    __shared__ __align__(16) unsigned short sa[16 * 8], sb[8 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 128; i += 32) sa[i] = A[i];
    for (int i = l; i < 64; i += 32) sb[i] = B[i];
    __syncthreads();
    unsigned a[2], b;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(a[0]), "=r"(a[1]) : "r"(smem_u32(&sa[(l % 16) * 8])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(b) : "r"(smem_u32(&sb[(l % 8) * 8])));
    float d[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b));
    int g = l / 4, t = l % 4;
    D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1];
    D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

/* tf32: K = 8 (A 16x8, B 8x8) or K = 4 (A 16x4, B 4x8), fragments by hand, C = 0 */
template <int K>
__global__ void mma_tf32(const float *A, const float *B, float *D)
{
    int l = threadIdx.x, g = l / 4, t = l % 4;
    float d[4] = {0, 0, 0, 0};
    if (K == 8) {
        unsigned a0 = __float_as_uint(A[g * 8 + t]), a1 = __float_as_uint(A[(g + 8) * 8 + t]);
        unsigned a2 = __float_as_uint(A[g * 8 + t + 4]), a3 = __float_as_uint(A[(g + 8) * 8 + t + 4]);
        unsigned b0 = __float_as_uint(B[t * 8 + g]), b1 = __float_as_uint(B[(t + 4) * 8 + g]);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
        unsigned a0 = __float_as_uint(A[g * 4 + t]), a1 = __float_as_uint(A[(g + 8) * 4 + t]);
        unsigned b0 = __float_as_uint(B[t * 8 + g]);
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(a1), "r"(b0));
    }
    D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1];
    D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

/* movmatrix.trans of an 8x8 b16 matrix (lane l holds row l/4, columns 2(l%4), 2(l%4)+1),
 * and the words ldmatrix x4 (plain and .trans) hands each lane from a 32x8 smem array */
__global__ void moves(const unsigned short *M, unsigned *mv, unsigned *ld4, unsigned *ld4t)
{
    __shared__ __align__(16) unsigned short sm[32 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) sm[i] = M[i];
    __syncthreads();
    unsigned x = (unsigned)sm[(l / 4) * 8 + 2 * (l % 4)] | ((unsigned)sm[(l / 4) * 8 + 2 * (l % 4) + 1] << 16), y;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
    mv[l] = y;
    unsigned r[4];
    /* lane l gives the address of row l: matrix i is rows 8i..8i+7 */
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(&sm[l * 8])));
    for (int i = 0; i < 4; i++) ld4[l * 4 + i] = r[i];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(&sm[l * 8])));
    for (int i = 0; i < 4; i++) ld4t[l * 4 + i] = r[i];
}

static float h2f(unsigned short h) { return __half2float(__ushort_as_half(h)); }
static float b2f(unsigned short h) { uint32_t u = (uint32_t)h << 16; return k_u2f(u); }
static float tf32(float f) { return k_u2f(k_f2u(f) & 0xffffe000u); }

static int check_tile(const char *what, const float *got, const double *ref, double tol)
{
    int bad = 0;
    for (int i = 0; i < 128; i++) {
        double e = ref[i], g = got[i];
        if (!(fabs(g - e) <= tol * (1.0 + fabs(e))) && bad++ < 4)
            CHECK_MSG(0, "%s: D[%d][%d] = %.6f, host %.6f", what, i / 8, i % 8, g, e);
    }
    return bad;
}

int main(void)
{
    static unsigned short A[256], B[128], Bnk[128], A8[128], B8[64], M[256], Dh[128];
    static float Af[128], Bf[64], D[128];
    static double ref[128];
    static unsigned mv[32], ld4[128], ld4t[128];
    unsigned short *dA, *dB, *dM, *dDh; float *dAf, *dBf, *dD; unsigned *dmv, *dld4, *dld4t;
    CK(cudaMalloc(&dA, 512)); CK(cudaMalloc(&dB, 256)); CK(cudaMalloc(&dM, 512)); CK(cudaMalloc(&dDh, 256));
    CK(cudaMalloc(&dAf, 512)); CK(cudaMalloc(&dBf, 256)); CK(cudaMalloc(&dD, 512));
    CK(cudaMalloc(&dmv, 128)); CK(cudaMalloc(&dld4, 512)); CK(cudaMalloc(&dld4t, 512));
    const float C0[4] = {1.0f, -2.0f, 0.5f, 3.0f};

    for (int bf = 0; bf < 2; bf++)
        for (int trans = 0; trans < 2; trans++) {
            for (int i = 0; i < 256; i++) {
                float v = (float)((int)(k_rand32() % 33) - 16) / 8.0f;
                A[i] = bf ? (unsigned short)(k_f2u(v) >> 16) : __half_as_ushort(__float2half(v));
            }
            for (int i = 0; i < 128; i++) {   /* B as k x n, and the same matrix as n x k */
                float v = (float)((int)(k_rand32() % 29) - 14) / 4.0f;
                B[i] = bf ? (unsigned short)(k_f2u(v) >> 16) : __half_as_ushort(__float2half(v));
            }
            for (int k = 0; k < 16; k++) for (int n = 0; n < 8; n++) Bnk[n * 16 + k] = B[k * 8 + n];
            for (int m = 0; m < 16; m++)
                for (int n = 0; n < 8; n++) {
                    double s = C0[(m >= 8) * 2 + (n & 1)];
                    for (int k = 0; k < 16; k++)
                        s += (double)(bf ? b2f(A[m * 16 + k]) : h2f(A[m * 16 + k])) * (bf ? b2f(B[k * 8 + n]) : h2f(B[k * 8 + n]));
                    ref[m * 8 + n] = s;
                }
            CK(cudaMemcpy(dA, A, 512, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dB, trans ? B : Bnk, 256, cudaMemcpyHostToDevice));
            CK(cudaMemset(dD, 0xff, 512));
            if (bf) mma16816<1><<<1, 32>>>(dA, dB, trans, dD);
            else mma16816<0><<<1, 32>>>(dA, dB, trans, dD);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost));
            char what[64]; snprintf(what, sizeof what, "m16n8k16 %s %s", bf ? "bf16" : "f16", trans ? "ldmatrix.trans B" : "ldmatrix B");
            CHECK_EQ(check_tile(what, D, ref, 1e-5), 0);   /* small integers / 8: exact in f32 */
        }

    /* f16 accumulators: C = 0.25, the result rounded to f16 */
    for (int i = 0; i < 256; i++) A[i] = __half_as_ushort(__float2half((float)((int)(k_rand32() % 17) - 8) / 16.0f));
    for (int i = 0; i < 128; i++) B[i] = __half_as_ushort(__float2half((float)((int)(k_rand32() % 17) - 8) / 16.0f));
    CK(cudaMemcpy(dA, A, 512, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B, 256, cudaMemcpyHostToDevice));
    mma16816_f16acc<<<1, 32>>>(dA, dB, dDh);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(Dh, dDh, 256, cudaMemcpyDeviceToHost));
    {
        int bad = 0;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 8; n++) {
                double s = 0.25;
                for (int k = 0; k < 16; k++) s += (double)h2f(A[m * 16 + k]) * h2f(B[k * 8 + n]);
                float g = h2f(Dh[m * 8 + n]);
                if (!(fabs(g - s) <= 2e-3 * (1.0 + fabs(s))) && bad++ < 4)
                    CHECK_MSG(0, "m16n8k16 f16 accumulators: D[%d][%d] = %.5f, host %.5f", m, n, g, s);
            }
        CHECK_EQ(bad, 0);
    }

    /* m16n8k8 f16 */
    for (int i = 0; i < 128; i++) A8[i] = __half_as_ushort(__float2half((float)((int)(k_rand32() % 21) - 10) / 4.0f));
    for (int i = 0; i < 64; i++) B8[i] = __half_as_ushort(__float2half((float)((int)(k_rand32() % 21) - 10) / 4.0f));
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            double s = 0;
            for (int k = 0; k < 8; k++) s += (double)h2f(A8[m * 8 + k]) * h2f(B8[k * 8 + n]);
            ref[m * 8 + n] = s;
        }
    CK(cudaMemcpy(dA, A8, 256, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B8, 128, cudaMemcpyHostToDevice));
    mma1688<<<1, 32>>>(dA, dB, dD);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost));
    CHECK_EQ(check_tile("m16n8k8 f16", D, ref, 1e-5), 0);

    /* tf32, K = 8 and 4: inputs with low mantissa bits the unit ignores */
    for (int K = 8; K >= 4; K -= 4) {
        for (int i = 0; i < 16 * K; i++) Af[i] = (float)((int)(k_rand32() % 2001) - 1000) / 997.0f;
        for (int i = 0; i < K * 8; i++) Bf[i] = (float)((int)(k_rand32() % 2001) - 1000) / 991.0f;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 8; n++) {
                double s = 0;
                for (int k = 0; k < K; k++) s += (double)tf32(Af[m * K + k]) * tf32(Bf[k * 8 + n]);
                ref[m * 8 + n] = s;
            }
        CK(cudaMemcpy(dAf, Af, 512, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dBf, Bf, 256, cudaMemcpyHostToDevice));
        if (K == 8) mma_tf32<8><<<1, 32>>>(dAf, dBf, dD);
        else mma_tf32<4><<<1, 32>>>(dAf, dBf, dD);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost));
        CHECK_EQ(check_tile(K == 8 ? "m16n8k8 tf32" : "m16n8k4 tf32", D, ref, 1e-5), 0);
    }

    /* movmatrix and ldmatrix words, bit for bit */
    for (int i = 0; i < 256; i++) M[i] = (unsigned short)(0x1000 + i * 7);
    CK(cudaMemcpy(dM, M, 512, cudaMemcpyHostToDevice));
    moves<<<1, 32>>>(dM, dmv, dld4, dld4t);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(mv, dmv, 128, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ld4, dld4, 512, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ld4t, dld4t, 512, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        unsigned e = (unsigned)M[(2 * t) * 8 + g] | ((unsigned)M[(2 * t + 1) * 8 + g] << 16);
        if (mv[l] != e && bad++ < 4) CHECK_MSG(0, "movmatrix lane %d: %08x vs %08x", l, mv[l], e);
        for (int i = 0; i < 4; i++) {
            const unsigned short *m = &M[i * 64];   /* matrix i: rows 8i..8i+7 */
            unsigned p = (unsigned)m[g * 8 + 2 * t] | ((unsigned)m[g * 8 + 2 * t + 1] << 16);
            unsigned q = (unsigned)m[(2 * t) * 8 + g] | ((unsigned)m[(2 * t + 1) * 8 + g] << 16);
            if (ld4[l * 4 + i] != p && bad++ < 8) CHECK_MSG(0, "ldmatrix x4 lane %d reg %d: %08x vs %08x", l, i, ld4[l * 4 + i], p);
            if (ld4t[l * 4 + i] != q && bad++ < 8) CHECK_MSG(0, "ldmatrix x4.trans lane %d reg %d: %08x vs %08x", l, i, ld4t[l * 4 + i], q);
        }
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
