/*
 * cublas_ex.c - the mixed-type level-1 "Ex" calls: DotEx, DotcEx, AxpyEx, ScalEx, Nrm2Ex,
 * AsumEx (+ _64). Vectors may be fp16, bf16, fp32, fp64, complex fp32 / fp64 (x and y of one
 * type); every element is widened to (complex) double, accumulated in double and rounded once
 * to the result / output type (round to nearest even), which is at least as accurate as the
 * fp32 execution type cuBLAS documents. Negative increments follow BLAS (start at the end).
 * Runs as one stream work item; host-pointer-mode results wait for the stream.
 */
#include "cublas_internal.h"

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EX_DOT, EX_DOTC, EX_AXPY, EX_SCAL, EX_NRM2, EX_ASUM };

typedef struct ex_work {
    int op;
    npu_dtype_t xt, rt;           /* vector type; result type (dot / nrm2 / asum) */
    int64_t n, incx, incy;
    const void *x;
    void *y, *result;
    blas_scalar_t alpha;
} ex_work_t;

static int ex_type_ok(npu_dtype_t t)
{
    return t == NPU_DT_F16 || t == NPU_DT_BF16 || t == NPU_DT_F32 || t == NPU_DT_F64 ||
           t == NPU_DT_C32 || t == NPU_DT_C64;
}

static double complex ex_load(npu_dtype_t t, const void *p, int64_t i)
{
    switch (t) {
    case NPU_DT_F16: return npu_f16_to_f32(((const uint16_t *)p)[i]);
    case NPU_DT_BF16: return npu_bf16_to_f32(((const uint16_t *)p)[i]);
    case NPU_DT_F32: return ((const float *)p)[i];
    case NPU_DT_F64: return ((const double *)p)[i];
    case NPU_DT_C32: return ((const float complex *)p)[i];
    default: return ((const double complex *)p)[i];
    }
}

static void ex_store(npu_dtype_t t, void *p, int64_t i, double complex v)
{
    switch (t) {
    case NPU_DT_F16: ((uint16_t *)p)[i] = npu_f32_to_f16((float)creal(v)); break;
    case NPU_DT_BF16: ((uint16_t *)p)[i] = npu_f32_to_bf16((float)creal(v)); break;
    case NPU_DT_F32: ((float *)p)[i] = (float)creal(v); break;
    case NPU_DT_F64: ((double *)p)[i] = creal(v); break;
    case NPU_DT_C32: ((float complex *)p)[i] = (float complex)v; break;
    default: ((double complex *)p)[i] = v; break;
    }
}

static npu_status_t ex_run(void *arg)
{
    ex_work_t *w = arg;
    blas_scalar_resolve(&w->alpha);
    double complex al = w->alpha.v[0] + I * w->alpha.v[1], acc = 0;
    double scale = 0, ssq = 1;    /* nrm2: scaled sum of squares, no overflow */
    int64_t ix = w->incx < 0 ? (1 - w->n) * w->incx : 0, iy = w->incy < 0 ? (1 - w->n) * w->incy : 0;
    for (int64_t i = 0; i < w->n; i++, ix += w->incx, iy += w->incy) {
        double complex xv = ex_load(w->xt, w->x, ix);
        switch (w->op) {
        case EX_DOT: acc += xv * ex_load(w->xt, w->y, iy); break;
        case EX_DOTC: acc += conj(xv) * ex_load(w->xt, w->y, iy); break;
        case EX_AXPY: ex_store(w->xt, w->y, iy, ex_load(w->xt, w->y, iy) + al * xv); break;
        case EX_SCAL: ex_store(w->xt, (void *)w->x, ix, al * xv); break;
        case EX_ASUM: acc += fabs(creal(xv)) + fabs(cimag(xv)); break;
        case EX_NRM2: {
            double parts[2] = { fabs(creal(xv)), fabs(cimag(xv)) };
            for (int p = 0; p < 2; p++) {
                if (parts[p] == 0) continue;
                if (scale < parts[p]) { ssq = 1 + ssq * (scale / parts[p]) * (scale / parts[p]); scale = parts[p]; }
                else ssq += (parts[p] / scale) * (parts[p] / scale);
            }
            break;
        }
        default: break;
        }
    }
    if (w->op == EX_NRM2)
        acc = scale * sqrt(ssq);
    if (w->result)
        ex_store(w->rt, w->result, 0, acc);
    return NPU_OK;
}

static cublasStatus_t ex_common(cublasHandle_t h, int op, int64_t n, const void *alpha, cudaDataType at,
                                const void *x, cudaDataType xt, int64_t incx, const void *y,
                                cudaDataType yt, int64_t incy, void *result, cudaDataType rt,
                                cudaDataType exec)
{
    BLAS_CHECK_HANDLE(h);
    int xd = blas_dtype(xt), yd = y ? blas_dtype(yt) : xd, rd = result ? blas_dtype(rt) : xd;
    int ed = blas_dtype(exec), ad = alpha ? blas_dtype(at) : NPU_DT_F32;
    if (xd < 0 || yd < 0 || rd < 0 || ed < 0 || ad < 0 || !ex_type_ok((npu_dtype_t)xd) || xd != yd ||
        !ex_type_ok((npu_dtype_t)rd) || !ex_type_ok((npu_dtype_t)ed) || !ex_type_ok((npu_dtype_t)ad))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    int reduce = op == EX_DOT || op == EX_DOTC || op == EX_NRM2 || op == EX_ASUM;
    if ((reduce && !result) || ((op == EX_AXPY || op == EX_SCAL) && !alpha))
        return CUBLAS_STATUS_INVALID_VALUE;
    ex_work_t w;
    memset(&w, 0, sizeof w);
    w.op = op; w.xt = (npu_dtype_t)xd; w.rt = (npu_dtype_t)rd; w.n = n; w.incx = incx; w.incy = incy;
    w.x = x; w.y = (void *)y; w.result = reduce ? result : NULL;
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.alpha, dev, alpha, (npu_dtype_t)ad);
    int quick = n <= 0 || ((op == EX_SCAL || op == EX_NRM2 || op == EX_ASUM) && incx <= 0);
    if (quick) {
        if (!reduce)
            return CUBLAS_STATUS_SUCCESS;
        w.n = 0;                  /* result 0 */
        if (!dev) {
            ex_store(w.rt, result, 0, 0);
            return CUBLAS_STATUS_SUCCESS;
        }
    } else {
        size_t es = npu_dtype_size(w.xt);
        if (!x || ((op == EX_DOT || op == EX_DOTC || op == EX_AXPY) && (!y || incy == 0)) || incx == 0 ||
            !blas_vec_ok(x, n, incx, es) || (y && !blas_vec_ok(y, n, incy, es)))
            return CUBLAS_STATUS_INVALID_VALUE;
    }
    npu_stream_t *s = blas_stream(h);
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    ex_work_t *c = malloc(sizeof *c);
    if (!c)
        return CUBLAS_STATUS_ALLOC_FAILED;
    *c = w;
    cublasStatus_t st = blas_submit(s, ex_run, c);
    if (st == CUBLAS_STATUS_SUCCESS && reduce && !dev)
        st = blas_wait(s);
    return st;
}

#define EX_DOTS(NAME, OP, I)                                                                       \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *x, cudaDataType xType, I incx,   \
    const void *y, cudaDataType yType, I incy, void *result, cudaDataType resultType,              \
    cudaDataType executionType)                                                                    \
{ NPU_API_SCOPE(__func__); return ex_common(h, OP, n, NULL, CUDA_R_32F, x, xType, incx, y, yType, incy, result, resultType, \
                   executionType); }
EX_DOTS(cublasDotEx, EX_DOT, int)
EX_DOTS(cublasDotEx_64, EX_DOT, int64_t)
EX_DOTS(cublasDotcEx, EX_DOTC, int)
EX_DOTS(cublasDotcEx_64, EX_DOTC, int64_t)

#define EX_AXPY_(NAME, I)                                                                          \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *alpha, cudaDataType alphaType,   \
    const void *x, cudaDataType xType, I incx, void *y, cudaDataType yType, I incy,                \
    cudaDataType executiontype)                                                                    \
{ NPU_API_SCOPE(__func__); return ex_common(h, EX_AXPY, n, alpha, alphaType, x, xType, incx, y, yType, incy, NULL,          \
                   CUDA_R_32F, executiontype); }
EX_AXPY_(cublasAxpyEx, int)
EX_AXPY_(cublasAxpyEx_64, int64_t)

#define EX_SCAL_(NAME, I)                                                                          \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *alpha, cudaDataType alphaType,   \
    void *x, cudaDataType xType, I incx, cudaDataType executionType)                               \
{ NPU_API_SCOPE(__func__); return ex_common(h, EX_SCAL, n, alpha, alphaType, x, xType, incx, NULL, xType, 1, NULL,          \
                   CUDA_R_32F, executionType); }
EX_SCAL_(cublasScalEx, int)
EX_SCAL_(cublasScalEx_64, int64_t)

#define EX_RED(NAME, OP, I)                                                                        \
NPU_EXPORT cublasStatus_t NAME(cublasHandle_t h, I n, const void *x, cudaDataType xType, I incx,   \
    void *result, cudaDataType resultType, cudaDataType executionType)                             \
{ NPU_API_SCOPE(__func__); return ex_common(h, OP, n, NULL, CUDA_R_32F, x, xType, incx, NULL, xType, 1, result, resultType, \
                   executionType); }
EX_RED(cublasNrm2Ex, EX_NRM2, int)
EX_RED(cublasNrm2Ex_64, EX_NRM2, int64_t)
EX_RED(cublasAsumEx, EX_ASUM, int)
EX_RED(cublasAsumEx_64, EX_ASUM, int64_t)
