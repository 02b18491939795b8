/*
 * cublas_gemm.c - cuBLAS v2 level-3 entry points that go to the cube: gemm (S/D/C/Z/H, all
 * transposes), batched and strided-batched gemm, GemmEx / GemmBatchedEx /
 * GemmStridedBatchedEx, SgemmEx / CgemmEx, gemm3m, grouped batched (S/D/Ex), the _64
 * variants; the mixed-precision batched gemvs (HSH/HSS/TST/TSS, run as 1-row gemms); geam
 * and dgmm (elementwise, run as stream work with plain loops).
 *
 * Compute-type mapping (cuBLAS -> cube): 32F / 32F_PEDANTIC -> fp32 (HF32 inputs when the
 * handle's math mode is CUBLAS_TF32_TENSOR_OP_MATH and the compute type is not pedantic);
 * 32F_FAST_TF32 -> HF32 inputs; 32F_FAST_16F / 32F_FAST_16BF -> fp16 / bf16-rounded inputs
 * (CUBLAS_TENSOR_OP_MATH, deprecated, means 32F_FAST_16F); 16F -> fp32 accumulation, fp16
 * output, half scalars; 64F -> fp64; 32I -> int8 x int8 -> int32 with int32 scalars.
 */
#include "cublas_internal.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>

static npu_status_t gemm_run(void *arg)
{
    blas_gemm_work_t *w = arg;
    blas_scalar_resolve(&w->alpha);
    blas_scalar_resolve(&w->beta);
    memcpy(w->g.alpha, w->alpha.v, sizeof w->g.alpha);
    memcpy(w->g.beta, w->beta.v, sizeof w->g.beta);
    return npu_cube_gemm_run(&w->g);
}

/* Operands of a strided (non pointer-array) gemm stay inside their allocations. */
static int gemm_ranges_ok(const npu_cube_gemm_t *g)
{
    const npu_cube_gemm_t *x = g;
    int64_t ar = x->opa == NPU_OP_N ? x->m : x->k, ac = x->opa == NPU_OP_N ? x->k : x->m;
    int64_t br = x->opb == NPU_OP_N ? x->k : x->n, bc = x->opb == NPU_OP_N ? x->n : x->k;
    int use_ab = x->k > 0 && (x->alpha[0] != 0 || x->alpha[1] != 0);
    int use_c = x->beta[0] != 0 || x->beta[1] != 0;
    if (x->a_array || x->b_array || x->c_array || x->d_array)
        return 1;                 /* pointer arrays are device data, read when the work runs */
    return (!use_ab || (blas_range_ok(x->a, ar, ac, x->lda, x->stride_a, x->batch, npu_dtype_size(x->atype)) &&
                        blas_range_ok(x->b, br, bc, x->ldb, x->stride_b, x->batch, npu_dtype_size(x->btype)))) &&
           (!use_c || blas_range_ok(x->c, x->m, x->n, x->ldc, x->stride_c, x->batch, npu_dtype_size(x->ctype))) &&
           blas_range_ok(x->d, x->m, x->n, x->ldd, x->stride_d, x->batch, npu_dtype_size(x->dtype)) &&
           (!(x->epilogue & NPU_CUBE_EPI_BIAS) || blas_range_ok(x->bias, x->bias_per_col ? x->n : x->m, 1, 1,
                                                                x->bias_stride, x->batch, npu_dtype_size(x->bias_type)));
}

cublasStatus_t blas_gemm_submit(npu_stream_t *s, const blas_gemm_work_t *w)
{
    /* validate with placeholder scalars: a device scalar may be anything at run time */
    npu_cube_gemm_t chk = w->g;
    chk.alpha[0] = w->alpha.dev ? 1 : w->alpha.v[0];
    chk.alpha[1] = w->alpha.dev ? 0 : w->alpha.v[1];
    chk.beta[0] = w->beta.dev ? (chk.c || chk.c_array ? 1 : 0) : w->beta.v[0];
    chk.beta[1] = w->beta.dev ? 0 : w->beta.v[1];
    npu_status_t st = npu_cube_gemm_check(&chk);
    if (st == NPU_ENOTSUP)
        NPU_INFO("cublas: gemm with A/B/C/D types %d/%d/%d/%d, compute %d, epilogue %u is not supported by the cube",
                 (int)chk.atype, (int)chk.btype, (int)chk.ctype, (int)chk.dtype, (int)chk.compute, chk.epilogue);
    if (st != NPU_OK)
        return st == NPU_ENOTSUP ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_INVALID_VALUE;
    if (w->g.m == 0 || w->g.n == 0 || w->g.batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!gemm_ranges_ok(&chk))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    blas_gemm_work_t *copy = malloc(sizeof *copy);
    if (!copy)
        return CUBLAS_STATUS_ALLOC_FAILED;
    *copy = *w;
    return blas_submit(s, gemm_run, copy);
}

int blas_compute_map(cublasMath_t math_mode, cublasComputeType_t ct, npu_dtype_t atype,
                     npu_cube_compute_t *cc, npu_cube_round_t *rnd, npu_dtype_t *scalar)
{
    int fp32_in = atype == NPU_DT_F32 || atype == NPU_DT_C32;
    int cplx = atype == NPU_DT_C32 || atype == NPU_DT_C64;
    unsigned math = (unsigned)math_mode & 0xf;
    *rnd = NPU_CUBE_ROUND_NONE;
    switch ((int)ct) {
    case CUBLAS_COMPUTE_32F:
        *cc = NPU_CUBE_COMPUTE_F32;
        *scalar = cplx ? NPU_DT_C32 : NPU_DT_F32;
        if (fp32_in && math == CUBLAS_TF32_TENSOR_OP_MATH) *rnd = NPU_CUBE_ROUND_HF32;
        if (fp32_in && math == CUBLAS_TENSOR_OP_MATH) *rnd = NPU_CUBE_ROUND_F16;
        return 1;
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:
        *cc = NPU_CUBE_COMPUTE_F32;
        *scalar = cplx ? NPU_DT_C32 : NPU_DT_F32;
        return 1;
    case CUBLAS_COMPUTE_32F_FAST_TF32:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
        if (!fp32_in)
            return 0;
        *cc = NPU_CUBE_COMPUTE_F32;
        *scalar = cplx ? NPU_DT_C32 : NPU_DT_F32;
        *rnd = ct == CUBLAS_COMPUTE_32F_FAST_TF32 ? NPU_CUBE_ROUND_HF32 :
               ct == CUBLAS_COMPUTE_32F_FAST_16F ? NPU_CUBE_ROUND_F16 : NPU_CUBE_ROUND_BF16;
        return 1;
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        if (atype != NPU_DT_F16)
            return 0;
        *cc = NPU_CUBE_COMPUTE_F32;
        *scalar = NPU_DT_F16;
        return 1;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
        *cc = NPU_CUBE_COMPUTE_F64;
        *scalar = cplx ? NPU_DT_C64 : NPU_DT_F64;
        return 1;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
        *cc = NPU_CUBE_COMPUTE_I32;
        *scalar = NPU_DT_I32;
        return 1;
    default:
        return 0;
    }
}

/* One entry for every gemm flavour. Pointer arrays (batched) or strides (strided). */
static cublasStatus_t gemm_common(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                  int64_t m, int64_t n, int64_t k, const void *alpha,
                                  const void *A, int at, int64_t lda, long long sa,
                                  const void *B, int bt, int64_t ldb, long long sb,
                                  const void *beta, const void *C, int ct, int64_t ldc, long long sc,
                                  int64_t batch, cublasComputeType_t comp, int arrays)
{
    BLAS_CHECK_HANDLE(h);
    if (!blas_op_ok(ta) || !blas_op_ok(tb) || m < 0 || n < 0 || k < 0 || batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (at < 0 || bt < 0 || ct < 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    blas_gemm_work_t w;
    memset(&w, 0, sizeof w);
    npu_dtype_t scalar;
    if (!blas_compute_map(h->math, comp, (npu_dtype_t)at, &w.g.compute, &w.g.round, &scalar))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if ((comp == CUBLAS_COMPUTE_16F || comp == CUBLAS_COMPUTE_16F_PEDANTIC) && ct != NPU_DT_F16)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if ((comp == CUBLAS_COMPUTE_32F_FAST_TF32 || comp == CUBLAS_COMPUTE_32F_FAST_16F ||
         comp == CUBLAS_COMPUTE_32F_FAST_16BF) && ct != at)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (!alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    w.g.opa = blas_op(ta); w.g.opb = blas_op(tb);
    w.g.m = m; w.g.n = n; w.g.k = k;
    w.g.atype = (npu_dtype_t)at; w.g.btype = (npu_dtype_t)bt;
    w.g.ctype = w.g.dtype = (npu_dtype_t)ct;
    w.g.lda = lda; w.g.ldb = ldb; w.g.ldc = ldc; w.g.ldd = ldc;
    if (arrays) {
        w.g.a_array = (const void *const *)A; w.g.b_array = (const void *const *)B;
        w.g.c_array = (const void *const *)C; w.g.d_array = (void *const *)C;
    } else {
        w.g.a = A; w.g.b = B; w.g.c = C; w.g.d = (void *)C;
        w.g.stride_a = sa; w.g.stride_b = sb; w.g.stride_c = sc; w.g.stride_d = sc;
    }
    w.g.batch = batch;
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.alpha, dev, alpha, scalar);
    blas_scalar_capture(&w.beta, dev, beta, scalar);
    /* cuBLAS: the result matrix is never NULL-checked on a GPU, but reading it here would
     * fault on the worker: refuse it up front. */
    if (m && n && batch && !C)
        return CUBLAS_STATUS_INVALID_VALUE;
    return blas_gemm_submit(blas_stream(h), &w);
}

/* ------------------------------------------------------------ typed gemms ---- */
#define GEMM_TYPED(NAME, T, DT, COMP, I)                                                        \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                               I m, I n, I k, const T *alpha, const T *A, I lda, const T *B,     \
                               I ldb, const T *beta, T *C, I ldc)                                \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, DT, lda, 0, B, DT, ldb, 0, beta, C, DT, ldc,  \
                     0, 1, COMP, 0); }
#define GEMM_BATCHED(NAME, T, DT, COMP, I)                                                      \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                               I m, I n, I k, const T *alpha, const T *const A[], I lda,         \
                               const T *const B[], I ldb, const T *beta, T *const C[], I ldc,    \
                               I batch)                                                          \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, DT, lda, 0, B, DT, ldb, 0, beta, C, DT, ldc,  \
                     0, batch, COMP, 1); }
#define GEMM_STRIDED(NAME, T, DT, COMP, I)                                                      \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                               I m, I n, I k, const T *alpha, const T *A, I lda, long long sa,   \
                               const T *B, I ldb, long long sb, const T *beta, T *C, I ldc,      \
                               long long sc, I batch)                                            \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, DT, lda, sa, B, DT, ldb, sb, beta, C, DT,     \
                     ldc, sc, batch, COMP, 0); }
#define GEMM_ALL(P, T, DT, COMP)                                                                 \
    GEMM_TYPED(cublas##P##gemm_v2, T, DT, COMP, int)                                             \
    GEMM_TYPED(cublas##P##gemm_v2_64, T, DT, COMP, int64_t)                                      \
    GEMM_BATCHED(cublas##P##gemmBatched, T, DT, COMP, int)                                       \
    GEMM_BATCHED(cublas##P##gemmBatched_64, T, DT, COMP, int64_t)                                \
    GEMM_STRIDED(cublas##P##gemmStridedBatched, T, DT, COMP, int)                                \
    GEMM_STRIDED(cublas##P##gemmStridedBatched_64, T, DT, COMP, int64_t)

GEMM_ALL(S, float, NPU_DT_F32, CUBLAS_COMPUTE_32F)
GEMM_ALL(D, double, NPU_DT_F64, CUBLAS_COMPUTE_64F)
GEMM_ALL(C, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F)
GEMM_ALL(Z, cuDoubleComplex, NPU_DT_C64, CUBLAS_COMPUTE_64F)
/* gemm3m: the Gauss 3-multiplication algorithm is a GPU speed trick; same result contract. */
GEMM_TYPED(cublasCgemm3m, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int)
GEMM_TYPED(cublasCgemm3m_64, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int64_t)
GEMM_TYPED(cublasZgemm3m, cuDoubleComplex, NPU_DT_C64, CUBLAS_COMPUTE_64F, int)
GEMM_TYPED(cublasZgemm3m_64, cuDoubleComplex, NPU_DT_C64, CUBLAS_COMPUTE_64F, int64_t)
GEMM_BATCHED(cublasCgemm3mBatched, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int)
GEMM_BATCHED(cublasCgemm3mBatched_64, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int64_t)
GEMM_STRIDED(cublasCgemm3mStridedBatched, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int)
GEMM_STRIDED(cublasCgemm3mStridedBatched_64, cuComplex, NPU_DT_C32, CUBLAS_COMPUTE_32F, int64_t)
/* Hgemm: __half is a C++ type; its ABI is a 16-bit value, which uint16_t matches. */
GEMM_TYPED(cublasHgemm, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int)
GEMM_TYPED(cublasHgemm_64, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int64_t)
GEMM_BATCHED(cublasHgemmBatched, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int)
GEMM_BATCHED(cublasHgemmBatched_64, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int64_t)
GEMM_STRIDED(cublasHgemmStridedBatched, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int)
GEMM_STRIDED(cublasHgemmStridedBatched_64, uint16_t, NPU_DT_F16, CUBLAS_COMPUTE_16F, int64_t)

/* --------------------------------------------------------------- Ex gemms ---- */
#define GEMM_EX(NAME, I)                                                                         \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
    I m, I n, I k, const void *alpha, const void *A, cudaDataType Atype, I lda, const void *B,   \
    cudaDataType Btype, I ldb, const void *beta, void *C, cudaDataType Ctype, I ldc,             \
    cublasComputeType_t computeType, cublasGemmAlgo_t algo)                                      \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, blas_dtype(Atype), lda, 0, B,                 \
                     blas_dtype(Btype), ldb, 0, beta, C, blas_dtype(Ctype), ldc, 0, 1,            \
                     computeType, 0); }
GEMM_EX(cublasGemmEx, int)
GEMM_EX(cublasGemmEx_64, int64_t)

#define GEMM_BATCHED_EX(NAME, I)                                                                 \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
    I m, I n, I k, const void *alpha, const void *const A[], cudaDataType Atype, I lda,          \
    const void *const B[], cudaDataType Btype, I ldb, const void *beta, void *const C[],         \
    cudaDataType Ctype, I ldc, I batch, cublasComputeType_t computeType, cublasGemmAlgo_t algo)  \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, blas_dtype(Atype), lda, 0, B,                 \
                     blas_dtype(Btype), ldb, 0, beta, C, blas_dtype(Ctype), ldc, 0, batch,       \
                     computeType, 1); }
GEMM_BATCHED_EX(cublasGemmBatchedEx, int)
GEMM_BATCHED_EX(cublasGemmBatchedEx_64, int64_t)

#define GEMM_STRIDED_EX(NAME, I)                                                                 \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
    I m, I n, I k, const void *alpha, const void *A, cudaDataType Atype, I lda, long long sa,    \
    const void *B, cudaDataType Btype, I ldb, long long sb, const void *beta, void *C,           \
    cudaDataType Ctype, I ldc, long long sc, I batch, cublasComputeType_t computeType,           \
    cublasGemmAlgo_t algo)                                                                       \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, blas_dtype(Atype), lda, sa, B,                \
                     blas_dtype(Btype), ldb, sb, beta, C, blas_dtype(Ctype), ldc, sc, batch,     \
                     computeType, 0); }
GEMM_STRIDED_EX(cublasGemmStridedBatchedEx, int)
GEMM_STRIDED_EX(cublasGemmStridedBatchedEx_64, int64_t)

/* cublasSgemmEx / cublasCgemmEx: typed inputs, fp32 (complex fp32) compute and scalars. */
#define GEMM_SEX(NAME, I, COMPLEXT)                                                              \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
    I m, I n, I k, const COMPLEXT *alpha, const void *A, cudaDataType Atype, I lda,              \
    const void *B, cudaDataType Btype, I ldb, const COMPLEXT *beta, void *C, cudaDataType Ctype, \
    I ldc)                                                                                       \
{ NPU_API_SCOPE(__func__); return gemm_common(h, ta, tb, m, n, k, alpha, A, blas_dtype(Atype), lda, 0, B,                 \
                     blas_dtype(Btype), ldb, 0, beta, C, blas_dtype(Ctype), ldc, 0, 1,            \
                     CUBLAS_COMPUTE_32F, 0); }
GEMM_SEX(cublasSgemmEx, int, float)
GEMM_SEX(cublasSgemmEx_64, int64_t, float)
GEMM_SEX(cublasCgemmEx, int, cuComplex)
GEMM_SEX(cublasCgemmEx_64, int64_t, cuComplex)

/* ------------------------------------------------------- grouped batched ---- */
/* Group g multiplies group_size[g] problems of one shape. Every group is validated before
 * any is submitted, so a bad group leaves all outputs untouched; then one pointer-array
 * batched gemm per group, in order, on the handle's stream. alpha/beta arrays follow the
 * pointer mode (element g is captured, or read at run time). */
#define GROUPED(NAME, I, SCALART, PT, SIG_TYPES, AT, BT, CT, COMP)                                 \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, const cublasOperation_t ta[],                     \
    const cublasOperation_t tb[], const I m[], const I n[], const I k[], const SCALART *alpha,     \
    const PT *const A[] SIG_TYPES(Atype), const I lda[], const PT *const B[] SIG_TYPES(Btype),     \
    const I ldb[], const SCALART *beta, PT *const C[] SIG_TYPES(Ctype), const I ldc[],             \
    I groups, const I gsize[] GROUPED_COMP_##COMP)                                                 \
{                                                                                                  \
    NPU_API_SCOPE(__func__);                                                                        \
    BLAS_CHECK_HANDLE(h);                                                                          \
    if (groups < 0 || (groups > 0 && (!ta || !tb || !m || !n || !k || !alpha || !lda || !ldb ||   \
        !beta || !ldc || !gsize)))                                                                 \
        return CUBLAS_STATUS_INVALID_VALUE;                                                        \
    npu_dtype_t sct;                                                                               \
    npu_cube_compute_t cc; npu_cube_round_t rnd;                                                   \
    if ((AT) < 0 || !blas_compute_map(h->math, COMP, (npu_dtype_t)(AT), &cc, &rnd, &sct))          \
        return CUBLAS_STATUS_NOT_SUPPORTED;                                                        \
    for (I g = 0; g < groups; g++) {                                                               \
        int64_t ar = ta[g] == CUBLAS_OP_N ? m[g] : k[g], br = tb[g] == CUBLAS_OP_N ? k[g] : n[g];  \
        if (!blas_op_ok(ta[g]) || !blas_op_ok(tb[g]) || m[g] < 0 || n[g] < 0 || k[g] < 0 ||        \
            gsize[g] < 0 || lda[g] < (ar > 1 ? ar : 1) || ldb[g] < (br > 1 ? br : 1) ||            \
            ldc[g] < (m[g] > 1 ? m[g] : 1))                                                        \
            return CUBLAS_STATUS_INVALID_VALUE;                                                    \
    }                                                                                              \
    size_t ses = npu_dtype_size(sct);                                                              \
    int64_t off = 0;                                                                               \
    for (I g = 0; g < groups; g++) {                                                               \
        cublasStatus_t st = gemm_common(h, ta[g], tb[g], m[g], n[g], k[g],                         \
            (const char *)alpha + g * ses, A ? (const void *)(A + off) : NULL, AT, lda[g], 0,      \
            B ? (const void *)(B + off) : NULL, BT, ldb[g], 0, (const char *)beta + g * ses,       \
            C ? (const void *)(C + off) : NULL, CT, ldc[g], 0, gsize[g], COMP, 1);                 \
        if (st != CUBLAS_STATUS_SUCCESS)                                                           \
            return st;                                                                             \
        off += gsize[g];                                                                           \
    }                                                                                              \
    return CUBLAS_STATUS_SUCCESS;                                                                  \
}
#define NO_TYPE(x)
#define WITH_TYPE(x) , cudaDataType x
#define GROUPED_COMP_CUBLAS_COMPUTE_32F
#define GROUPED_COMP_CUBLAS_COMPUTE_64F
#define GROUPED_COMP_computeType , cublasComputeType_t computeType
GROUPED(cublasSgemmGroupedBatched, int, float, float, NO_TYPE, NPU_DT_F32, NPU_DT_F32, NPU_DT_F32, CUBLAS_COMPUTE_32F)
GROUPED(cublasSgemmGroupedBatched_64, int64_t, float, float, NO_TYPE, NPU_DT_F32, NPU_DT_F32, NPU_DT_F32, CUBLAS_COMPUTE_32F)
GROUPED(cublasDgemmGroupedBatched, int, double, double, NO_TYPE, NPU_DT_F64, NPU_DT_F64, NPU_DT_F64, CUBLAS_COMPUTE_64F)
GROUPED(cublasDgemmGroupedBatched_64, int64_t, double, double, NO_TYPE, NPU_DT_F64, NPU_DT_F64, NPU_DT_F64, CUBLAS_COMPUTE_64F)
GROUPED(cublasGemmGroupedBatchedEx, int, void, void, WITH_TYPE, blas_dtype(Atype), blas_dtype(Btype), blas_dtype(Ctype), computeType)
GROUPED(cublasGemmGroupedBatchedEx_64, int64_t, void, void, WITH_TYPE, blas_dtype(Atype), blas_dtype(Btype), blas_dtype(Ctype), computeType)

/* ------------------------------------------- mixed-precision batched gemv ---- */
/* cublas{HSH,HSS,TST,TSS}gemv{Batched,StridedBatched}: fp16 / bf16 A and x, y in fp16 / bf16
 * or fp32, fp32 scalars and accumulation. Run on the cube as the gemm
 *   y^T (1 x ly, ld incy) = x^T (1 x lx, ld incx) op(A)^T
 * so strided vectors need no copy; non-positive increments are NOT_SUPPORTED here. */
static cublasStatus_t gemv_mixed(cublasHandle_t h, cublasOperation_t tr, int64_t m, int64_t n,
                                 const float *alpha, const void *A, int64_t lda, long long sa,
                                 const void *x, int64_t incx, long long sx, const float *beta, void *y,
                                 int64_t incy, long long sy, int64_t batch, int arrays,
                                 npu_dtype_t abt, npu_dtype_t yt)
{
    BLAS_CHECK_HANDLE(h);
    if (!blas_op_ok(tr) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 ||
        batch < 0 || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (incx < 0 || incy < 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    int64_t lx = tr == CUBLAS_OP_N ? n : m, ly = tr == CUBLAS_OP_N ? m : n;
    blas_gemm_work_t w;
    memset(&w, 0, sizeof w);
    w.g.compute = NPU_CUBE_COMPUTE_F32;
    w.g.opa = NPU_OP_N;
    w.g.opb = tr == CUBLAS_OP_N ? NPU_OP_T : NPU_OP_N;
    w.g.m = 1; w.g.n = ly; w.g.k = lx;
    w.g.atype = w.g.btype = abt;
    w.g.ctype = w.g.dtype = yt;
    w.g.lda = incx; w.g.ldb = lda; w.g.ldc = w.g.ldd = incy;
    if (arrays) {
        w.g.a_array = (const void *const *)x; w.g.b_array = (const void *const *)A;
        w.g.c_array = (const void *const *)y; w.g.d_array = (void *const *)y;
    } else {
        w.g.a = x; w.g.b = A; w.g.c = y; w.g.d = y;
        w.g.stride_a = sx; w.g.stride_b = sa; w.g.stride_c = w.g.stride_d = sy;
    }
    w.g.batch = batch;
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.alpha, dev, alpha, NPU_DT_F32);
    blas_scalar_capture(&w.beta, dev, beta, NPU_DT_F32);
    if (m && n && batch && (!A || !x || !y))
        return CUBLAS_STATUS_INVALID_VALUE;
    return blas_gemm_submit(blas_stream(h), &w);
}

#define GEMV_MIXED(P, TAB, DTAB, TY, DTY, I, SUF)                                                  \
NPU_EXPORT cublasStatus_t cublas##P##gemvBatched##SUF(cublasHandle_t h, cublasOperation_t tr, I m, \
    I n, const float *alpha, const TAB *const A[], I lda, const TAB *const x[], I incx,            \
    const float *beta, TY *const y[], I incy, I batch)                                             \
{ NPU_API_SCOPE(__func__); return gemv_mixed(h, tr, m, n, alpha, A, lda, 0, x, incx, 0, beta, (void *)y, incy, 0, batch, 1, \
                    DTAB, DTY); }                                                                  \
NPU_EXPORT cublasStatus_t cublas##P##gemvStridedBatched##SUF(cublasHandle_t h, cublasOperation_t tr,\
    I m, I n, const float *alpha, const TAB *A, I lda, long long sa, const TAB *x, I incx,         \
    long long sx, const float *beta, TY *y, I incy, long long sy, I batch)                         \
{ NPU_API_SCOPE(__func__); return gemv_mixed(h, tr, m, n, alpha, A, lda, sa, x, incx, sx, beta, y, incy, sy, batch, 0,      \
                    DTAB, DTY); }
/* __half and __nv_bfloat16 are C++ types; their ABI is a 16-bit value (uint16_t here). */
GEMV_MIXED(HSH, uint16_t, NPU_DT_F16, uint16_t, NPU_DT_F16, int, )
GEMV_MIXED(HSH, uint16_t, NPU_DT_F16, uint16_t, NPU_DT_F16, int64_t, _64)
GEMV_MIXED(HSS, uint16_t, NPU_DT_F16, float, NPU_DT_F32, int, )
GEMV_MIXED(HSS, uint16_t, NPU_DT_F16, float, NPU_DT_F32, int64_t, _64)
GEMV_MIXED(TST, uint16_t, NPU_DT_BF16, uint16_t, NPU_DT_BF16, int, )
GEMV_MIXED(TST, uint16_t, NPU_DT_BF16, uint16_t, NPU_DT_BF16, int64_t, _64)
GEMV_MIXED(TSS, uint16_t, NPU_DT_BF16, float, NPU_DT_F32, int, )
GEMV_MIXED(TSS, uint16_t, NPU_DT_BF16, float, NPU_DT_F32, int64_t, _64)

/* ----------------------------------------------------------- geam, dgmm ---- */
typedef struct ew_work {
    int kind;                     /* 0 geam, 1 dgmm */
    npu_dtype_t t;
    int64_t m, n;
    npu_cube_op_t opa, opb;
    int side_right;
    const char *a, *b;            /* geam: A, B; dgmm: A, x */
    char *c;
    int64_t lda, ldb, ldc, incx;
    blas_scalar_t alpha, beta;
} ew_work_t;

/* Element access as double complex, whatever the storage type. */
static inline double complex ld_el(npu_dtype_t t, const char *p, int64_t i)
{
    switch (t) {
    case NPU_DT_F32: return ((const float *)p)[i];
    case NPU_DT_F64: return ((const double *)p)[i];
    case NPU_DT_C32: return ((const float complex *)p)[i];
    default: return ((const double complex *)p)[i];
    }
}

static inline void st_el(npu_dtype_t t, char *p, int64_t i, double complex v)
{
    switch (t) {
    case NPU_DT_F32: ((float *)p)[i] = (float)creal(v); break;
    case NPU_DT_F64: ((double *)p)[i] = creal(v); break;
    case NPU_DT_C32: ((float complex *)p)[i] = (float complex)v; break;
    default: ((double complex *)p)[i] = v; break;
    }
}

static inline double complex op_el(npu_dtype_t t, const char *p, int64_t ld, npu_cube_op_t op,
                                   int64_t i, int64_t j)
{
    double complex v = op == NPU_OP_N ? ld_el(t, p, i + j * ld) : ld_el(t, p, j + i * ld);
    return op == NPU_OP_C ? conj(v) : v;
}

static npu_status_t ew_run(void *arg)
{
    ew_work_t *w = arg;
    blas_scalar_resolve(&w->alpha);
    blas_scalar_resolve(&w->beta);
    int single = w->t == NPU_DT_F32 || w->t == NPU_DT_C32;
    if (w->kind == 0) {
        double complex al = w->alpha.v[0] + I * w->alpha.v[1], be = w->beta.v[0] + I * w->beta.v[1];
        int use_a = al != 0, use_b = be != 0;
        if (single) { al = (float complex)al; be = (float complex)be; }
        /* B may alias C (in place, no transpose): each element is read before written */
        for (int64_t j = 0; j < w->n; j++)
            for (int64_t i = 0; i < w->m; i++) {
                double complex v = 0;
                if (use_a) v += al * op_el(w->t, w->a, w->lda, w->opa, i, j);
                if (use_b) v += be * op_el(w->t, w->b, w->ldb, w->opb, i, j);
                st_el(w->t, w->c, i + j * w->ldc, v);
            }
    } else {
        int64_t len = w->side_right ? w->n : w->m;
        int64_t inc = w->incx, x0 = inc < 0 ? (1 - len) * inc : 0;
        for (int64_t j = 0; j < w->n; j++)
            for (int64_t i = 0; i < w->m; i++) {
                int64_t xi = x0 + (w->side_right ? j : i) * inc;
                st_el(w->t, w->c, i + j * w->ldc, ld_el(w->t, w->a, i + j * w->lda) * ld_el(w->t, w->b, xi));
            }
    }
    return NPU_OK;
}

static cublasStatus_t geam_common(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                  int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                                  const void *beta, const void *B, int64_t ldb, void *C, int64_t ldc,
                                  npu_dtype_t t)
{
    BLAS_CHECK_HANDLE(h);
    if (!blas_op_ok(ta) || !blas_op_ok(tb) || m < 0 || n < 0 || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    int64_t ra = ta == CUBLAS_OP_N ? m : n, rb = tb == CUBLAS_OP_N ? m : n;
    if (lda < (ra > 1 ? ra : 1) || ldb < (rb > 1 ? rb : 1) || ldc < (m > 1 ? m : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    /* in place only without transpose and with matching leading dimension */
    if ((C == A && (ta != CUBLAS_OP_N || lda != ldc)) || (C == B && (tb != CUBLAS_OP_N || ldb != ldc)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    ew_work_t *w = calloc(1, sizeof *w);
    if (!w)
        return CUBLAS_STATUS_ALLOC_FAILED;
    w->kind = 0; w->t = t; w->m = m; w->n = n; w->opa = blas_op(ta); w->opb = blas_op(tb);
    w->a = A; w->b = B; w->c = C; w->lda = lda; w->ldb = ldb; w->ldc = ldc;
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w->alpha, dev, alpha, t);
    blas_scalar_capture(&w->beta, dev, beta, t);
    if (!C || (!A && (dev || !blas_scalar_is_zero(&w->alpha))) || (!B && (dev || !blas_scalar_is_zero(&w->beta))) ||
        !blas_range_ok(A, ra, ta == CUBLAS_OP_N ? n : m, lda, 0, 1, npu_dtype_size(t)) ||
        !blas_range_ok(B, rb, tb == CUBLAS_OP_N ? n : m, ldb, 0, 1, npu_dtype_size(t)) ||
        !blas_range_ok(C, m, n, ldc, 0, 1, npu_dtype_size(t))) {
        free(w);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    return blas_submit(blas_stream(h), ew_run, w);
}

static cublasStatus_t dgmm_common(cublasHandle_t h, cublasSideMode_t side, int64_t m, int64_t n,
                                  const void *A, int64_t lda, const void *x, int64_t incx, void *C,
                                  int64_t ldc, npu_dtype_t t)
{
    BLAS_CHECK_HANDLE(h);
    if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) || m < 0 || n < 0 ||
        lda < (m > 1 ? m : 1) || ldc < (m > 1 ? m : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!A || !x || !C || !blas_range_ok(A, m, n, lda, 0, 1, npu_dtype_size(t)) ||
        !blas_range_ok(C, m, n, ldc, 0, 1, npu_dtype_size(t)) ||
        !blas_vec_ok(x, side == CUBLAS_SIDE_RIGHT ? n : m, incx, npu_dtype_size(t)))
        return CUBLAS_STATUS_INVALID_VALUE;
    ew_work_t *w = calloc(1, sizeof *w);
    if (!w)
        return CUBLAS_STATUS_ALLOC_FAILED;
    w->kind = 1; w->t = t; w->m = m; w->n = n; w->side_right = side == CUBLAS_SIDE_RIGHT;
    w->a = A; w->b = x; w->c = C; w->lda = lda; w->ldc = ldc; w->incx = incx;
    return blas_submit(blas_stream(h), ew_run, w);
}

#define GEAM(P, T, DT, I)                                                                        \
NPU_EXPORT cublasStatus_t cublas##P##geam##I(cublasHandle_t h, cublasOperation_t ta,              \
    cublasOperation_t tb, IT##I m, IT##I n, const T *alpha, const T *A, IT##I lda, const T *beta, \
    const T *B, IT##I ldb, T *C, IT##I ldc)                                                      \
{ NPU_API_SCOPE(__func__); return geam_common(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, DT); }               \
NPU_EXPORT cublasStatus_t cublas##P##dgmm##I(cublasHandle_t h, cublasSideMode_t mode, IT##I m,    \
    IT##I n, const T *A, IT##I lda, const T *x, IT##I incx, T *C, IT##I ldc)                      \
{ NPU_API_SCOPE(__func__); return dgmm_common(h, mode, m, n, A, lda, x, incx, C, ldc, DT); }
#define IT int
#define IT_64 int64_t
GEAM(S, float, NPU_DT_F32, )
GEAM(S, float, NPU_DT_F32, _64)
GEAM(D, double, NPU_DT_F64, )
GEAM(D, double, NPU_DT_F64, _64)
GEAM(C, cuComplex, NPU_DT_C32, )
GEAM(C, cuComplex, NPU_DT_C32, _64)
GEAM(Z, cuDoubleComplex, NPU_DT_C64, )
GEAM(Z, cuDoubleComplex, NPU_DT_C64, _64)
