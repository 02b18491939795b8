// SASS decoder corpus: tensor-core instructions (HMMA f16/bf16/tf32, IMMA s8/u8/s4, LDSM,
// HMMA.SP) through wmma and inline mma.sync / ldmatrix, compiled to cubins only, never run.
// Built per SM (PTX compute_75 for sm_75, compute_80 for the others): sm_80-only shapes
// and types are guarded by __CUDA_ARCH__.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void wmma_all(const half *a, const half *b, float *c, const __nv_bfloat16 *ab,
                         const signed char *ia, const unsigned char *ib, int *ic, const float *ta,
                         const float *tb, float *tc)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
    wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
    wmma::fill_fragment(fc, 0.0f); wmma::fill_fragment(fh, 0.0f);
    wmma::mma_sync(fc, fa, fb, fc); wmma::mma_sync(fh, fa, fb, fh);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync((half *)c + 512, fh, 16, wmma::mem_col_major);
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
    wmma::load_matrix_sync(ba, ab, 16); wmma::load_matrix_sync(bb, ab + 256, 16);
    wmma::mma_sync(fc, ba, bb, fc);
    wmma::store_matrix_sync(c + 256, fc, 16, wmma::mem_row_major);
#endif
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> ia_f;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> ib_f;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> ic_f;
    wmma::load_matrix_sync(ia_f, ia, 16); wmma::load_matrix_sync(ib_f, ia + 256, 16);
    wmma::fill_fragment(ic_f, 0);
    wmma::mma_sync(ic_f, ia_f, ib_f, ic_f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> ua_f;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> ub_f;
    wmma::load_matrix_sync(ua_f, ib, 16); wmma::load_matrix_sync(ub_f, ib + 256, 16);
    wmma::mma_sync(ic_f, ua_f, ub_f, ic_f);
    wmma::store_matrix_sync(ic, ic_f, 16, wmma::mem_row_major);
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta_f;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb_f;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc_f;
    wmma::load_matrix_sync(ta_f, ta, 8); wmma::load_matrix_sync(tb_f, tb, 8);
    wmma::fill_fragment(tc_f, 1.0f);
    wmma::mma_sync(tc_f, ta_f, tb_f, tc_f);
    wmma::store_matrix_sync(tc, tc_f, 16, wmma::mem_row_major);
#endif
}

#if __CUDA_ARCH__ >= 800
__global__ void mma_ptx(const unsigned *a, const unsigned *b, float *c, int *ic)
{
    __shared__ unsigned short sm[16 * 64];
    int t = threadIdx.x;
    sm[t] = (unsigned short)a[t];
    __syncthreads();
    unsigned r0, r1, r2, r3;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&sm[(t & 15) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    unsigned q0, q1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(q0), "=r"(q1) : "r"(addr));
    unsigned s0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(s0) : "r"(addr));
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(q0), "r"(q1));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(s0));
    unsigned h0 = 0, h1 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(h0), "+r"(h1) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(q0), "r"(q1));
    int i0 = 0, i1 = 0, i2 = 0, i3 = 0;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(q0), "r"(q1));
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(q0), "r"(q1));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(q0), "r"(q1));
    c[t * 4] = d0; c[t * 4 + 1] = d1; c[t * 4 + 2] = d2; c[t * 4 + 3] = d3;
    ic[t * 6] = i0; ic[t * 6 + 1] = i1; ic[t * 6 + 2] = i2; ic[t * 6 + 3] = i3;
    ic[t * 6 + 4] = (int)h0; ic[t * 6 + 5] = (int)h1;
}
#endif
