/*
 * cublas_level12.c - cuBLAS v2 level 1 (axpy, scal, dot, dotu/dotc, nrm2, asum, iamax,
 * iamin, copy, swap, rot, rotg, rotm, rotmg), level 2 (gemv, ger/geru/gerc), trsm and
 * trsmBatched, S/D/C/Z and _64 forms.
 *
 * Each call becomes one stream work item that calls OpenBLAS (cblas_*) on the device
 * pointers (device memory is host memory). Scalars follow the handle's pointer mode
 * (host: copied now; device: read when the work runs). Results (dot, nrm2, asum, i*max) go
 * to *result when the work runs; in host pointer mode the call waits for the stream, as
 * cuBLAS does. Documented quick returns: n <= 0 (or incx <= 0 for nrm2/asum/scal/i*max)
 * write 0 to the result and touch nothing else. OpenBLAS here takes 32-bit sizes: _64 calls
 * beyond INT_MAX return CUBLAS_STATUS_NOT_SUPPORTED.
 */
#include "cublas_internal.h"

#include <cblas.h>
#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OP_AXPY, OP_SCAL, OP_DOT, OP_DOTC, OP_NRM2, OP_ASUM, OP_IAMAX, OP_IAMIN, OP_COPY,
       OP_SWAP, OP_ROT, OP_GEMV, OP_GER, OP_GERC, OP_TRSM, OP_ZERO,
       OP_ROTG, OP_ROTM, OP_ROTMG };

typedef struct l12_work {
    int op;
    npu_dtype_t t;                /* element type of x / A */
    npu_dtype_t rtype;            /* result type (dot, nrm2, asum: t or its real part; i*: I32 / 64-bit) */
    int result64;                 /* i*max/_64: int64_t result */
    int64_t m, n, incx, incy, lda, ldb;
    int trans, side, uplo, diag;
    const void *x;
    void *y, *a, *b;
    void *result;
    const void *const *a_array;   /* trsmBatched / gemvBatched: device arrays of pointers, */
    void *const *b_array;         /* read at run time (b_array: B of trsm, y of gemv) */
    const void *const *x_array;
    int64_t batch;                /* gemv: > 0 for the batched forms */
    int64_t stride_a, stride_x, stride_y;
    blas_scalar_t s1, s2;         /* alpha/beta, or c/s for rot */
} l12_work_t;

static int too_big(int64_t v) { return v > INT_MAX || v < INT_MIN; }

static enum CBLAS_TRANSPOSE cbt(int t)
{
    return t == CUBLAS_OP_N ? CblasNoTrans : t == CUBLAS_OP_T ? CblasTrans : CblasConjTrans;
}

static void put_result(l12_work_t *w, double re, double im)
{
    switch (w->rtype) {
    case NPU_DT_F32: *(float *)w->result = (float)re; break;
    case NPU_DT_F64: *(double *)w->result = re; break;
    case NPU_DT_C32: ((float *)w->result)[0] = (float)re; ((float *)w->result)[1] = (float)im; break;
    case NPU_DT_C64: ((double *)w->result)[0] = re; ((double *)w->result)[1] = im; break;
    default:
        if (w->result64) *(int64_t *)w->result = (int64_t)re;
        else *(int *)w->result = (int)re;
        break;
    }
}

/* |x_i| as BLAS's i*amax measures it: |re| + |im| for complex */
static double absel(npu_dtype_t t, const void *x, int64_t i)
{
    switch (t) {
    case NPU_DT_F32: return fabsf(((const float *)x)[i]);
    case NPU_DT_F64: return fabs(((const double *)x)[i]);
    case NPU_DT_C32: return fabsf(((const float *)x)[2 * i]) + fabsf(((const float *)x)[2 * i + 1]);
    default: return fabs(((const double *)x)[2 * i]) + fabs(((const double *)x)[2 * i + 1]);
    }
}

/* Complex Givens rotation, reference BLAS crotg/zrotg: [c s; -conj(s) c] [a; b] = [r; 0]. */
static void rotg_complex(npu_dtype_t t, void *pa, const void *pb, void *pc, void *ps)
{
    double complex a, b;
    if (t == NPU_DT_C32) { a = *(float complex *)pa; b = *(const float complex *)pb; }
    else { a = *(double complex *)pa; b = *(const double complex *)pb; }
    double c;
    double complex s;
    if (cabs(a) == 0) {
        c = 0; s = 1; a = b;
    } else {
        double scale = cabs(a) + cabs(b);
        double norm = scale * sqrt(pow(cabs(a / scale), 2) + pow(cabs(b / scale), 2));
        double complex alpha = a / cabs(a);
        c = cabs(a) / norm;
        s = alpha * conj(b) / norm;
        a = alpha * norm;
    }
    if (t == NPU_DT_C32) {
        *(float complex *)pa = (float complex)a; *(float *)pc = (float)c; *(float complex *)ps = (float complex)s;
    } else {
        *(double complex *)pa = a; *(double *)pc = c; *(double complex *)ps = s;
    }
}

static npu_status_t l12_run(void *arg)
{
    l12_work_t *w = arg;
    blas_scalar_resolve(&w->s1);
    blas_scalar_resolve(&w->s2);
    const int n = (int)w->n, m = (int)w->m, incx = (int)w->incx, incy = (int)w->incy;
    const float f1 = (float)w->s1.v[0], f2 = (float)w->s2.v[0];
    const double d1 = w->s1.v[0], d2 = w->s2.v[0];
    const float c1[2] = { (float)w->s1.v[0], (float)w->s1.v[1] }, c2[2] = { (float)w->s2.v[0], (float)w->s2.v[1] };
    const double z1[2] = { w->s1.v[0], w->s1.v[1] }, z2[2] = { w->s2.v[0], w->s2.v[1] };
    const npu_dtype_t t = w->t;

    switch (w->op) {
    case OP_AXPY:
        if (t == NPU_DT_F32) cblas_saxpy(n, f1, w->x, incx, w->y, incy);
        else if (t == NPU_DT_F64) cblas_daxpy(n, d1, w->x, incx, w->y, incy);
        else if (t == NPU_DT_C32) cblas_caxpy(n, c1, w->x, incx, w->y, incy);
        else cblas_zaxpy(n, z1, w->x, incx, w->y, incy);
        break;
    case OP_SCAL:                 /* s1.type tells a real scalar on complex data (Csscal) */
        if (t == NPU_DT_F32) cblas_sscal(n, f1, w->y, incx);
        else if (t == NPU_DT_F64) cblas_dscal(n, d1, w->y, incx);
        else if (t == NPU_DT_C32) {
            if (w->s1.type == NPU_DT_F32) cblas_csscal(n, f1, w->y, incx);
            else cblas_cscal(n, c1, w->y, incx);
        } else {
            if (w->s1.type == NPU_DT_F64) cblas_zdscal(n, d1, w->y, incx);
            else cblas_zscal(n, z1, w->y, incx);
        }
        break;
    case OP_DOT:
    case OP_DOTC:
        if (t == NPU_DT_F32) put_result(w, cblas_sdot(n, w->x, incx, w->y, incy), 0);
        else if (t == NPU_DT_F64) put_result(w, cblas_ddot(n, w->x, incx, w->y, incy), 0);
        else if (t == NPU_DT_C32) {
            float r[2];
            if (w->op == OP_DOTC) cblas_cdotc_sub(n, w->x, incx, w->y, incy, r);
            else cblas_cdotu_sub(n, w->x, incx, w->y, incy, r);
            put_result(w, r[0], r[1]);
        } else {
            double r[2];
            if (w->op == OP_DOTC) cblas_zdotc_sub(n, w->x, incx, w->y, incy, r);
            else cblas_zdotu_sub(n, w->x, incx, w->y, incy, r);
            put_result(w, r[0], r[1]);
        }
        break;
    case OP_NRM2:
        if (t == NPU_DT_F32) put_result(w, cblas_snrm2(n, w->x, incx), 0);
        else if (t == NPU_DT_F64) put_result(w, cblas_dnrm2(n, w->x, incx), 0);
        else if (t == NPU_DT_C32) put_result(w, cblas_scnrm2(n, w->x, incx), 0);
        else put_result(w, cblas_dznrm2(n, w->x, incx), 0);
        break;
    case OP_ASUM:
        if (t == NPU_DT_F32) put_result(w, cblas_sasum(n, w->x, incx), 0);
        else if (t == NPU_DT_F64) put_result(w, cblas_dasum(n, w->x, incx), 0);
        else if (t == NPU_DT_C32) put_result(w, cblas_scasum(n, w->x, incx), 0);
        else put_result(w, cblas_dzasum(n, w->x, incx), 0);
        break;
    case OP_IAMAX:
    case OP_IAMIN: {              /* first index of the extreme value, 1-based */
        int64_t best = 0;
        double bv = absel(t, w->x, 0);
        for (int64_t i = 1; i < w->n; i++) {
            double v = absel(t, w->x, i * w->incx);
            if (w->op == OP_IAMAX ? (v > bv || (isnan(bv) && !isnan(v))) : (v < bv || (isnan(bv) && !isnan(v)))) {
                bv = v;
                best = i;
            }
        }
        put_result(w, (double)(best + 1), 0);
        break;
    }
    case OP_COPY:
        if (t == NPU_DT_F32) cblas_scopy(n, w->x, incx, w->y, incy);
        else if (t == NPU_DT_F64) cblas_dcopy(n, w->x, incx, w->y, incy);
        else if (t == NPU_DT_C32) cblas_ccopy(n, w->x, incx, w->y, incy);
        else cblas_zcopy(n, w->x, incx, w->y, incy);
        break;
    case OP_SWAP:
        if (t == NPU_DT_F32) cblas_sswap(n, (void *)w->x, incx, w->y, incy);
        else if (t == NPU_DT_F64) cblas_dswap(n, (void *)w->x, incx, w->y, incy);
        else if (t == NPU_DT_C32) cblas_cswap(n, (void *)w->x, incx, w->y, incy);
        else cblas_zswap(n, (void *)w->x, incx, w->y, incy);
        break;
    case OP_ROT:
        if (t == NPU_DT_F32) cblas_srot(n, (void *)w->x, incx, w->y, incy, f1, f2);
        else if (t == NPU_DT_F64) cblas_drot(n, (void *)w->x, incx, w->y, incy, d1, d2);
        else if (w->s2.type == NPU_DT_F32 && t == NPU_DT_C32) cblas_csrot(n, w->x, incx, w->y, incy, f1, f2);
        else if (w->s2.type == NPU_DT_F64 && t == NPU_DT_C64) cblas_zdrot(n, w->x, incx, w->y, incy, d1, d2);
        else {                    /* complex s: x' = c x + s y, y' = -conj(s) x + c y */
            double complex s = w->s2.v[0] + I * w->s2.v[1];
            double c = w->s1.v[0];
            int64_t ix = incx < 0 ? (1 - w->n) * incx : 0, iy = incy < 0 ? (1 - w->n) * incy : 0;
            for (int64_t i = 0; i < w->n; i++, ix += incx, iy += incy) {
                if (t == NPU_DT_C32) {
                    float complex *x = (float complex *)w->x, *y = w->y;
                    float complex xv = x[ix], yv = y[iy], sf = (float complex)s;
                    x[ix] = (float)c * xv + sf * yv;
                    y[iy] = -conjf(sf) * xv + (float)c * yv;
                } else {
                    double complex *x = (double complex *)w->x, *y = w->y;
                    double complex xv = x[ix], yv = y[iy];
                    x[ix] = c * xv + s * yv;
                    y[iy] = -conj(s) * xv + c * yv;
                }
            }
        }
        break;
    case OP_GEMV:
        if (w->batch > 0) {       /* batched: pointer arrays or strides, one gemv per entry */
            size_t es = npu_dtype_size(t);
            int64_t lx = w->trans == CUBLAS_OP_N ? w->n : w->m, ly = w->trans == CUBLAS_OP_N ? w->m : w->n;
            l12_work_t one = *w;
            one.batch = 0;
            for (int64_t i = 0; i < w->batch; i++) {
                if (w->a_array) {
                    one.a = (void *)w->a_array[i];
                    one.x = w->x_array[i];
                    one.y = w->b_array[i];
                } else {
                    one.a = (char *)w->a + (size_t)(i * w->stride_a) * es;
                    one.x = (const char *)w->x + (size_t)(i * w->stride_x) * es;
                    one.y = (char *)w->y + (size_t)(i * w->stride_y) * es;
                }
                if (!one.a || !one.x || !one.y || !blas_range_ok(one.a, w->m, w->n, w->lda, 0, 1, es) ||
                    !blas_vec_ok(one.x, lx, w->incx, es) || !blas_vec_ok(one.y, ly, w->incy, es))
                    return NPU_EINVAL;
                npu_status_t st = l12_run(&one);
                if (st != NPU_OK)
                    return st;
            }
            break;
        }
        if (t == NPU_DT_F32) cblas_sgemv(CblasColMajor, cbt(w->trans), m, n, f1, w->a, (int)w->lda, w->x, incx, f2, w->y, incy);
        else if (t == NPU_DT_F64) cblas_dgemv(CblasColMajor, cbt(w->trans), m, n, d1, w->a, (int)w->lda, w->x, incx, d2, w->y, incy);
        else if (t == NPU_DT_C32) cblas_cgemv(CblasColMajor, cbt(w->trans), m, n, c1, w->a, (int)w->lda, w->x, incx, c2, w->y, incy);
        else cblas_zgemv(CblasColMajor, cbt(w->trans), m, n, z1, w->a, (int)w->lda, w->x, incx, z2, w->y, incy);
        break;
    case OP_GER:
    case OP_GERC:
        if (t == NPU_DT_F32) cblas_sger(CblasColMajor, m, n, f1, w->x, incx, w->y, incy, w->a, (int)w->lda);
        else if (t == NPU_DT_F64) cblas_dger(CblasColMajor, m, n, d1, w->x, incx, w->y, incy, w->a, (int)w->lda);
        else if (t == NPU_DT_C32) {
            if (w->op == OP_GERC) cblas_cgerc(CblasColMajor, m, n, c1, w->x, incx, w->y, incy, w->a, (int)w->lda);
            else cblas_cgeru(CblasColMajor, m, n, c1, w->x, incx, w->y, incy, w->a, (int)w->lda);
        } else {
            if (w->op == OP_GERC) cblas_zgerc(CblasColMajor, m, n, z1, w->x, incx, w->y, incy, w->a, (int)w->lda);
            else cblas_zgeru(CblasColMajor, m, n, z1, w->x, incx, w->y, incy, w->a, (int)w->lda);
        }
        break;
    case OP_TRSM: {
        enum CBLAS_SIDE sd = w->side == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight;
        enum CBLAS_UPLO ul = w->uplo == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper;
        enum CBLAS_DIAG dg = w->diag == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit;
        if (w->a_array) {         /* batched: one solve per entry, entries checked first */
            int64_t ka = w->side == CUBLAS_SIDE_LEFT ? w->m : w->n;
            l12_work_t one = *w;
            one.a_array = NULL;
            one.b_array = NULL;
            for (int64_t i = 0; i < w->batch; i++) {
                one.a = (void *)w->a_array[i];
                one.b = w->b_array[i];
                if (!one.a || !one.b || !blas_range_ok(one.a, ka, ka, w->lda, 0, 1, npu_dtype_size(t)) ||
                    !blas_range_ok(one.b, w->m, w->n, w->ldb, 0, 1, npu_dtype_size(t)))
                    return NPU_EINVAL;
                npu_status_t st = l12_run(&one);
                if (st != NPU_OK)
                    return st;
            }
            break;
        }
        if (t == NPU_DT_F32) cblas_strsm(CblasColMajor, sd, ul, cbt(w->trans), dg, m, n, f1, w->a, (int)w->lda, w->b, (int)w->ldb);
        else if (t == NPU_DT_F64) cblas_dtrsm(CblasColMajor, sd, ul, cbt(w->trans), dg, m, n, d1, w->a, (int)w->lda, w->b, (int)w->ldb);
        else if (t == NPU_DT_C32) cblas_ctrsm(CblasColMajor, sd, ul, cbt(w->trans), dg, m, n, c1, w->a, (int)w->lda, w->b, (int)w->ldb);
        else cblas_ztrsm(CblasColMajor, sd, ul, cbt(w->trans), dg, m, n, z1, w->a, (int)w->lda, w->b, (int)w->ldb);
        break;
    }
    case OP_ZERO:
        put_result(w, 0, 0);
        break;
    case OP_ROTG:                 /* a = y, b = a (matrix slot), c = b slot, s = result slot */
        if (t == NPU_DT_F32) cblas_srotg(w->y, w->a, w->b, w->result);
        else if (t == NPU_DT_F64) cblas_drotg(w->y, w->a, w->b, w->result);
        else rotg_complex(t, w->y, w->a, w->b, w->result);
        break;
    case OP_ROTM:                 /* param in w->b */
        if (t == NPU_DT_F32) cblas_srotm(n, (void *)w->x, incx, w->y, incy, w->b);
        else cblas_drotm(n, (void *)w->x, incx, w->y, incy, w->b);
        break;
    case OP_ROTMG:                /* d1 = y, d2 = a, x1 = b, y1 = x, param = result */
        if (t == NPU_DT_F32) cblas_srotmg(w->y, w->a, w->b, *(const float *)w->x, w->result);
        else cblas_drotmg(w->y, w->a, w->b, *(const double *)w->x, w->result);
        break;
    default:
        return NPU_EINTERNAL;
    }
    return NPU_OK;
}

/* Submits w (a stack template); waits when a result goes to host memory. */
static cublasStatus_t l12_submit(cublasHandle_t h, const l12_work_t *tmpl)
{
    npu_stream_t *s = blas_stream(h);
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    l12_work_t *w = malloc(sizeof *w);
    if (!w)
        return CUBLAS_STATUS_ALLOC_FAILED;
    *w = *tmpl;
    int wait = w->result && h->pmode == CUBLAS_POINTER_MODE_HOST;
    cublasStatus_t st = blas_submit(s, l12_run, w);
    if (st == CUBLAS_STATUS_SUCCESS && wait)
        st = blas_wait(s);
    return st;
}

static cublasStatus_t reduce_common(cublasHandle_t h, int op, npu_dtype_t t, npu_dtype_t rt, int r64,
                                    int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                                    void *result)
{
    BLAS_CHECK_HANDLE(h);
    if (!result)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (too_big(n) || too_big(incx) || too_big(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = op; w.t = t; w.rtype = rt; w.result64 = r64; w.n = n; w.x = x; w.y = (void *)y;
    w.incx = incx; w.incy = incy; w.result = result;
    if (op == OP_IAMAX || op == OP_IAMIN) w.rtype = NPU_DT_I32;
    int quick = n <= 0 || ((op == OP_NRM2 || op == OP_ASUM || op == OP_IAMAX || op == OP_IAMIN) && incx <= 0);
    if (quick) {                  /* documented quick return: the result is 0 */
        w.op = OP_ZERO;
        if (h->pmode == CUBLAS_POINTER_MODE_HOST) {
            put_result(&w, 0, 0);
            return CUBLAS_STATUS_SUCCESS;
        }
        return l12_submit(h, &w);
    }
    if (!x || ((op == OP_DOT || op == OP_DOTC) && (!y || incx == 0 || incy == 0)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!blas_vec_ok(x, n, incx, npu_dtype_size(t)) || (y && !blas_vec_ok(y, n, incy, npu_dtype_size(t))))
        return CUBLAS_STATUS_INVALID_VALUE;
    return l12_submit(h, &w);
}

static cublasStatus_t vec2_common(cublasHandle_t h, int op, npu_dtype_t t, int64_t n,
                                  const void *s1, npu_dtype_t s1t, const void *s2, npu_dtype_t s2t,
                                  const void *x, int64_t incx, void *y, int64_t incy)
{
    BLAS_CHECK_HANDLE(h);
    if (too_big(n) || too_big(incx) || too_big(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (n <= 0 || (op == OP_SCAL && incx <= 0))
        return CUBLAS_STATUS_SUCCESS;
    if ((op == OP_AXPY || op == OP_SCAL || op == OP_ROT) && !s1)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (op == OP_ROT && !s2)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!y || (op != OP_SCAL && !x))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!blas_vec_ok(y, n, incy, npu_dtype_size(t)) || (x && !blas_vec_ok(x, n, incx, npu_dtype_size(t))))
        return CUBLAS_STATUS_INVALID_VALUE;
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = op; w.t = t; w.n = n; w.x = x; w.y = y; w.incx = incx; w.incy = incy;
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.s1, dev, s1, s1t);
    blas_scalar_capture(&w.s2, dev, s2, s2t);
    return l12_submit(h, &w);
}

/* ------------------------------------------------------------- level 1 exports ---- */

#define L1_AXPY(P, T, DT)                                                                          \
NPU_EXPORT cublasStatus_t cublas##P##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x,  \
                                             int incx, T *y, int incy)                             \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_AXPY, DT, n, alpha, DT, NULL, DT, x, incx, y, incy); }                  \
NPU_EXPORT cublasStatus_t cublas##P##axpy_v2_64(cublasHandle_t h, int64_t n, const T *alpha,       \
                                                const T *x, int64_t incx, T *y, int64_t incy)      \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_AXPY, DT, n, alpha, DT, NULL, DT, x, incx, y, incy); }                  \
NPU_EXPORT cublasStatus_t cublas##P##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y,  \
                                             int incy)                                             \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_COPY, DT, n, NULL, DT, NULL, DT, x, incx, y, incy); }                   \
NPU_EXPORT cublasStatus_t cublas##P##copy_v2_64(cublasHandle_t h, int64_t n, const T *x,           \
                                                int64_t incx, T *y, int64_t incy)                  \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_COPY, DT, n, NULL, DT, NULL, DT, x, incx, y, incy); }                   \
NPU_EXPORT cublasStatus_t cublas##P##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y,        \
                                             int incy)                                             \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_SWAP, DT, n, NULL, DT, NULL, DT, x, incx, y, incy); }                   \
NPU_EXPORT cublasStatus_t cublas##P##swap_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx,   \
                                                T *y, int64_t incy)                                \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_SWAP, DT, n, NULL, DT, NULL, DT, x, incx, y, incy); }

L1_AXPY(S, float, NPU_DT_F32)
L1_AXPY(D, double, NPU_DT_F64)
L1_AXPY(C, cuComplex, NPU_DT_C32)
L1_AXPY(Z, cuDoubleComplex, NPU_DT_C64)

#define L1_SCAL(NAME, ST, SDT, T, DT)                                                              \
NPU_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, const ST *alpha, T *x, int incx)      \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_SCAL, DT, n, alpha, SDT, NULL, DT, NULL, incx, x, incx); }              \
NPU_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const ST *alpha, T *x,         \
                                       int64_t incx)                                               \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_SCAL, DT, n, alpha, SDT, NULL, DT, NULL, incx, x, incx); }
L1_SCAL(cublasSscal, float, NPU_DT_F32, float, NPU_DT_F32)
L1_SCAL(cublasDscal, double, NPU_DT_F64, double, NPU_DT_F64)
L1_SCAL(cublasCscal, cuComplex, NPU_DT_C32, cuComplex, NPU_DT_C32)
L1_SCAL(cublasCsscal, float, NPU_DT_F32, cuComplex, NPU_DT_C32)
L1_SCAL(cublasZscal, cuDoubleComplex, NPU_DT_C64, cuDoubleComplex, NPU_DT_C64)
L1_SCAL(cublasZdscal, double, NPU_DT_F64, cuDoubleComplex, NPU_DT_C64)

#define L1_ROT(NAME, T, DT, CT, CDT, SType, SDT)                                                  \
NPU_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,       \
                                    const CT *c, const SType *s)                                   \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_ROT, DT, n, c, CDT, s, SDT, x, incx, y, incy); }                        \
NPU_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,      \
                                       int64_t incy, const CT *c, const SType *s)                  \
{ NPU_API_SCOPE(__func__); return vec2_common(h, OP_ROT, DT, n, c, CDT, s, SDT, x, incx, y, incy); }
L1_ROT(cublasSrot, float, NPU_DT_F32, float, NPU_DT_F32, float, NPU_DT_F32)
L1_ROT(cublasDrot, double, NPU_DT_F64, double, NPU_DT_F64, double, NPU_DT_F64)
L1_ROT(cublasCrot, cuComplex, NPU_DT_C32, float, NPU_DT_F32, cuComplex, NPU_DT_C32)
L1_ROT(cublasCsrot, cuComplex, NPU_DT_C32, float, NPU_DT_F32, float, NPU_DT_F32)
L1_ROT(cublasZrot, cuDoubleComplex, NPU_DT_C64, double, NPU_DT_F64, cuDoubleComplex, NPU_DT_C64)
L1_ROT(cublasZdrot, cuDoubleComplex, NPU_DT_C64, double, NPU_DT_F64, double, NPU_DT_F64)

#define L1_DOT(NAME, OP, T, DT, R, RDT)                                                            \
NPU_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, const T *x, int incx, const T *y,     \
                                    int incy, R *result)                                           \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, RDT, 0, n, x, incx, y, incy, result); }                          \
NPU_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx,      \
                                       const T *y, int64_t incy, R *result)                        \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, RDT, 0, n, x, incx, y, incy, result); }
L1_DOT(cublasSdot, OP_DOT, float, NPU_DT_F32, float, NPU_DT_F32)
L1_DOT(cublasDdot, OP_DOT, double, NPU_DT_F64, double, NPU_DT_F64)
L1_DOT(cublasCdotu, OP_DOT, cuComplex, NPU_DT_C32, cuComplex, NPU_DT_C32)
L1_DOT(cublasCdotc, OP_DOTC, cuComplex, NPU_DT_C32, cuComplex, NPU_DT_C32)
L1_DOT(cublasZdotu, OP_DOT, cuDoubleComplex, NPU_DT_C64, cuDoubleComplex, NPU_DT_C64)
L1_DOT(cublasZdotc, OP_DOTC, cuDoubleComplex, NPU_DT_C64, cuDoubleComplex, NPU_DT_C64)

#define L1_RED(NAME, OP, T, DT, R, RDT)                                                            \
NPU_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, const T *x, int incx, R *result)      \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, RDT, 0, n, x, incx, NULL, 1, result); }                          \
NPU_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx,      \
                                       R *result)                                                  \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, RDT, 0, n, x, incx, NULL, 1, result); }
L1_RED(cublasSnrm2, OP_NRM2, float, NPU_DT_F32, float, NPU_DT_F32)
L1_RED(cublasDnrm2, OP_NRM2, double, NPU_DT_F64, double, NPU_DT_F64)
L1_RED(cublasScnrm2, OP_NRM2, cuComplex, NPU_DT_C32, float, NPU_DT_F32)
L1_RED(cublasDznrm2, OP_NRM2, cuDoubleComplex, NPU_DT_C64, double, NPU_DT_F64)
L1_RED(cublasSasum, OP_ASUM, float, NPU_DT_F32, float, NPU_DT_F32)
L1_RED(cublasDasum, OP_ASUM, double, NPU_DT_F64, double, NPU_DT_F64)
L1_RED(cublasScasum, OP_ASUM, cuComplex, NPU_DT_C32, float, NPU_DT_F32)
L1_RED(cublasDzasum, OP_ASUM, cuDoubleComplex, NPU_DT_C64, double, NPU_DT_F64)

#define L1_IDX(NAME, OP, T, DT)                                                                    \
NPU_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)    \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, NPU_DT_I32, 0, n, x, incx, NULL, 1, result); }                   \
NPU_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx,      \
                                       int64_t *result)                                            \
{ NPU_API_SCOPE(__func__); return reduce_common(h, OP, DT, NPU_DT_I32, 1, n, x, incx, NULL, 1, result); }
L1_IDX(cublasIsamax, OP_IAMAX, float, NPU_DT_F32)
L1_IDX(cublasIdamax, OP_IAMAX, double, NPU_DT_F64)
L1_IDX(cublasIcamax, OP_IAMAX, cuComplex, NPU_DT_C32)
L1_IDX(cublasIzamax, OP_IAMAX, cuDoubleComplex, NPU_DT_C64)
L1_IDX(cublasIsamin, OP_IAMIN, float, NPU_DT_F32)
L1_IDX(cublasIdamin, OP_IAMIN, double, NPU_DT_F64)
L1_IDX(cublasIcamin, OP_IAMIN, cuComplex, NPU_DT_C32)
L1_IDX(cublasIzamin, OP_IAMIN, cuDoubleComplex, NPU_DT_C64)

/* rotg / rotm / rotmg: every argument follows the pointer mode; host mode waits (outputs
 * go to host memory), device mode runs in stream order. */
static cublasStatus_t rot_misc(cublasHandle_t h, int op, npu_dtype_t t, int64_t n, void *p1, void *p2,
                               void *p3, void *p4, const void *p5, int64_t incx, int64_t incy)
{
    BLAS_CHECK_HANDLE(h);
    if (too_big(n) || too_big(incx) || too_big(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = op; w.t = t;
    if (op == OP_ROTM) {
        if (n <= 0)
            return CUBLAS_STATUS_SUCCESS;
        if (!p1 || !p2 || !p5 || !blas_vec_ok(p1, n, incx, npu_dtype_size(t)) || !blas_vec_ok(p2, n, incy, npu_dtype_size(t)))
            return CUBLAS_STATUS_INVALID_VALUE;
        w.n = n; w.x = p1; w.incx = incx; w.y = p2; w.incy = incy; w.b = (void *)p5;
    } else {
        if (!p1 || !p2 || !p3 || !p4 || (op == OP_ROTMG && !p5))
            return CUBLAS_STATUS_INVALID_VALUE;
        w.y = p1; w.a = p2; w.b = p3; w.result = p4; w.x = p5;
    }
    npu_stream_t *s = blas_stream(h);
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    l12_work_t *c = malloc(sizeof *c);
    if (!c)
        return CUBLAS_STATUS_ALLOC_FAILED;
    *c = w;
    cublasStatus_t st = blas_submit(s, l12_run, c);
    if (st == CUBLAS_STATUS_SUCCESS && h->pmode == CUBLAS_POINTER_MODE_HOST)
        st = blas_wait(s);
    return st;
}

NPU_EXPORT cublasStatus_t cublasSrotg_v2(cublasHandle_t h, float *a, float *b, float *c, float *s)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTG, NPU_DT_F32, 0, a, b, c, s, NULL, 0, 0); }
NPU_EXPORT cublasStatus_t cublasDrotg_v2(cublasHandle_t h, double *a, double *b, double *c, double *s)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTG, NPU_DT_F64, 0, a, b, c, s, NULL, 0, 0); }
NPU_EXPORT cublasStatus_t cublasCrotg_v2(cublasHandle_t h, cuComplex *a, cuComplex *b, float *c, cuComplex *s)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTG, NPU_DT_C32, 0, a, b, c, s, NULL, 0, 0); }
NPU_EXPORT cublasStatus_t cublasZrotg_v2(cublasHandle_t h, cuDoubleComplex *a, cuDoubleComplex *b, double *c, cuDoubleComplex *s)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTG, NPU_DT_C64, 0, a, b, c, s, NULL, 0, 0); }
NPU_EXPORT cublasStatus_t cublasSrotm_v2(cublasHandle_t h, int n, float *x, int incx, float *y, int incy, const float *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTM, NPU_DT_F32, n, x, y, NULL, NULL, param, incx, incy); }
NPU_EXPORT cublasStatus_t cublasSrotm_v2_64(cublasHandle_t h, int64_t n, float *x, int64_t incx, float *y, int64_t incy, const float *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTM, NPU_DT_F32, n, x, y, NULL, NULL, param, incx, incy); }
NPU_EXPORT cublasStatus_t cublasDrotm_v2(cublasHandle_t h, int n, double *x, int incx, double *y, int incy, const double *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTM, NPU_DT_F64, n, x, y, NULL, NULL, param, incx, incy); }
NPU_EXPORT cublasStatus_t cublasDrotm_v2_64(cublasHandle_t h, int64_t n, double *x, int64_t incx, double *y, int64_t incy, const double *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTM, NPU_DT_F64, n, x, y, NULL, NULL, param, incx, incy); }
NPU_EXPORT cublasStatus_t cublasSrotmg_v2(cublasHandle_t h, float *d1, float *d2, float *x1, const float *y1, float *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTMG, NPU_DT_F32, 0, d1, d2, x1, param, y1, 0, 0); }
NPU_EXPORT cublasStatus_t cublasDrotmg_v2(cublasHandle_t h, double *d1, double *d2, double *x1, const double *y1, double *param)
{ NPU_API_SCOPE(__func__); return rot_misc(h, OP_ROTMG, NPU_DT_F64, 0, d1, d2, x1, param, y1, 0, 0); }

/* ---------------------------------------------------------------- level 2 ---- */
/* gemv; batch < 0: the plain form; batch >= 0: batched (arrays != 0: pointer arrays in
 * A / x / y, else strides sa / sx / sy in elements). */
static cublasStatus_t gemv_any(cublasHandle_t h, cublasOperation_t tr, int64_t m, int64_t n,
                               const void *alpha, const void *A, int64_t lda, int64_t sa, const void *x,
                               int64_t incx, int64_t sx, const void *beta, void *y, int64_t incy, int64_t sy,
                               npu_dtype_t t, int64_t batch, int arrays)
{
    BLAS_CHECK_HANDLE(h);
    if (!blas_op_ok(tr) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 ||
        !alpha || !beta || (batch < 0 && batch != -1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (too_big(m) || too_big(n) || too_big(lda) || too_big(incx) || too_big(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    size_t es = npu_dtype_size(t);
    int64_t lx = tr == CUBLAS_OP_N ? n : m, ly = tr == CUBLAS_OP_N ? m : n;
    if (!A || !x || !y)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!arrays) {
        int64_t nb = batch < 0 ? 1 : batch;
        int64_t ax = (lx - 1) * (incx < 0 ? -incx : incx) + 1, ay = (ly - 1) * (incy < 0 ? -incy : incy) + 1;
        if (sa < 0 || sx < 0 || sy < 0 || !blas_range_ok(A, m, n, lda, sa, nb, es) ||
            !blas_range_ok(x, ax, 1, ax, sx, nb, es) || !blas_range_ok(y, ay, 1, ay, sy, nb, es))
            return CUBLAS_STATUS_INVALID_VALUE;
    }
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = OP_GEMV; w.t = t; w.trans = tr; w.m = m; w.n = n; w.lda = lda; w.incx = incx; w.incy = incy;
    w.batch = batch < 0 ? 0 : batch;
    if (arrays) {
        w.a_array = A; w.x_array = x; w.b_array = y;
    } else {
        w.a = (void *)A; w.x = x; w.y = y; w.stride_a = sa; w.stride_x = sx; w.stride_y = sy;
    }
    int dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.s1, dev, alpha, t);
    blas_scalar_capture(&w.s2, dev, beta, t);
    return l12_submit(h, &w);
}

static cublasStatus_t gemv_common(cublasHandle_t h, cublasOperation_t tr, int64_t m, int64_t n,
                                  const void *alpha, const void *A, int64_t lda, const void *x,
                                  int64_t incx, const void *beta, void *y, int64_t incy, npu_dtype_t t)
{
    return gemv_any(h, tr, m, n, alpha, A, lda, 0, x, incx, 0, beta, y, incy, 0, t, -1, 0);
}

#define GEMV_BATCHED(P, T, DT, I, SUF)                                                             \
NPU_EXPORT cublasStatus_t cublas##P##gemvBatched##SUF(cublasHandle_t h, cublasOperation_t tr, I m, \
    I n, const T *alpha, const T *const A[], I lda, const T *const x[], I incx, const T *beta,     \
    T *const y[], I incy, I batch)                                                                 \
{ NPU_API_SCOPE(__func__); return gemv_any(h, tr, m, n, alpha, A, lda, 0, x, incx, 0, beta, (void *)y, incy, 0, DT,         \
                  batch < 0 ? -2 : batch, 1); }                                                    \
NPU_EXPORT cublasStatus_t cublas##P##gemvStridedBatched##SUF(cublasHandle_t h, cublasOperation_t tr,\
    I m, I n, const T *alpha, const T *A, I lda, long long sa, const T *x, I incx, long long sx,    \
    const T *beta, T *y, I incy, long long sy, I batch)                                            \
{ NPU_API_SCOPE(__func__); return gemv_any(h, tr, m, n, alpha, A, lda, sa, x, incx, sx, beta, y, incy, sy, DT,              \
                  batch < 0 ? -2 : batch, 0); }
GEMV_BATCHED(S, float, NPU_DT_F32, int, )
GEMV_BATCHED(S, float, NPU_DT_F32, int64_t, _64)
GEMV_BATCHED(D, double, NPU_DT_F64, int, )
GEMV_BATCHED(D, double, NPU_DT_F64, int64_t, _64)
GEMV_BATCHED(C, cuComplex, NPU_DT_C32, int, )
GEMV_BATCHED(C, cuComplex, NPU_DT_C32, int64_t, _64)
GEMV_BATCHED(Z, cuDoubleComplex, NPU_DT_C64, int, )
GEMV_BATCHED(Z, cuDoubleComplex, NPU_DT_C64, int64_t, _64)

static cublasStatus_t ger_common(cublasHandle_t h, int op, int64_t m, int64_t n, const void *alpha,
                                 const void *x, int64_t incx, const void *y, int64_t incy, void *A,
                                 int64_t lda, npu_dtype_t t)
{
    BLAS_CHECK_HANDLE(h);
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || !alpha)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (too_big(m) || too_big(n) || too_big(lda) || too_big(incx) || too_big(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!A || !x || !y || !blas_range_ok(A, m, n, lda, 0, 1, npu_dtype_size(t)) ||
        !blas_vec_ok(x, m, incx, npu_dtype_size(t)) || !blas_vec_ok(y, n, incy, npu_dtype_size(t)))
        return CUBLAS_STATUS_INVALID_VALUE;
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = op; w.t = t; w.m = m; w.n = n; w.a = A; w.lda = lda;
    w.x = x; w.incx = incx; w.y = (void *)y; w.incy = incy;
    blas_scalar_capture(&w.s1, h->pmode == CUBLAS_POINTER_MODE_DEVICE, alpha, t);
    return l12_submit(h, &w);
}

static cublasStatus_t trsm_any(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                               cublasOperation_t tr, cublasDiagType_t diag, int64_t m, int64_t n,
                               const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb,
                               npu_dtype_t t, int64_t batch, int arrays)
{
    BLAS_CHECK_HANDLE(h);
    int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;
    if ((side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT) ||
        (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) || !blas_op_ok(tr) ||
        (diag != CUBLAS_DIAG_UNIT && diag != CUBLAS_DIAG_NON_UNIT) || m < 0 || n < 0 ||
        lda < (ka > 1 ? ka : 1) || ldb < (m > 1 ? m : 1) || !alpha || batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (too_big(m) || too_big(n) || too_big(lda) || too_big(ldb))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!A || !B || (!arrays && (!blas_range_ok(A, ka, ka, lda, 0, 1, npu_dtype_size(t)) ||
                                 !blas_range_ok(B, m, n, ldb, 0, 1, npu_dtype_size(t)))))
        return CUBLAS_STATUS_INVALID_VALUE;
    l12_work_t w;
    memset(&w, 0, sizeof w);
    w.op = OP_TRSM; w.t = t; w.side = side; w.uplo = uplo; w.trans = tr; w.diag = diag;
    w.m = m; w.n = n; w.lda = lda; w.ldb = ldb; w.batch = batch;
    if (arrays) { w.a_array = A; w.b_array = B; }
    else { w.a = (void *)A; w.b = B; }
    blas_scalar_capture(&w.s1, h->pmode == CUBLAS_POINTER_MODE_DEVICE, alpha, t);
    return l12_submit(h, &w);
}

static cublasStatus_t trsm_common(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                                  cublasOperation_t tr, cublasDiagType_t diag, int64_t m, int64_t n,
                                  const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb,
                                  npu_dtype_t t)
{
    return trsm_any(h, side, uplo, tr, diag, m, n, alpha, A, lda, B, ldb, t, 1, 0);
}

#define TRSM_BATCHED(P, T, DT, I, SUF)                                                             \
NPU_EXPORT cublasStatus_t cublas##P##trsmBatched##SUF(cublasHandle_t h, cublasSideMode_t side,     \
    cublasFillMode_t uplo, cublasOperation_t tr, cublasDiagType_t diag, I m, I n, const T *alpha,  \
    const T *const A[], I lda, T *const B[], I ldb, I batch)                                       \
{ NPU_API_SCOPE(__func__); return trsm_any(h, side, uplo, tr, diag, m, n, alpha, A, lda, (void *)B, ldb, DT, batch, 1); }
TRSM_BATCHED(S, float, NPU_DT_F32, int, )
TRSM_BATCHED(S, float, NPU_DT_F32, int64_t, _64)
TRSM_BATCHED(D, double, NPU_DT_F64, int, )
TRSM_BATCHED(D, double, NPU_DT_F64, int64_t, _64)
TRSM_BATCHED(C, cuComplex, NPU_DT_C32, int, )
TRSM_BATCHED(C, cuComplex, NPU_DT_C32, int64_t, _64)
TRSM_BATCHED(Z, cuDoubleComplex, NPU_DT_C64, int, )
TRSM_BATCHED(Z, cuDoubleComplex, NPU_DT_C64, int64_t, _64)

#define L2(P, T, DT, I, SUF)                                                                       \
NPU_EXPORT cublasStatus_t cublas##P##gemv##SUF(cublasHandle_t h, cublasOperation_t tr, I m, I n,   \
    const T *alpha, const T *A, I lda, const T *x, I incx, const T *beta, T *y, I incy)            \
{ NPU_API_SCOPE(__func__); return gemv_common(h, tr, m, n, alpha, A, lda, x, incx, beta, y, incy, DT); }                    \
NPU_EXPORT cublasStatus_t cublas##P##trsm##SUF(cublasHandle_t h, cublasSideMode_t side,            \
    cublasFillMode_t uplo, cublasOperation_t tr, cublasDiagType_t diag, I m, I n, const T *alpha,  \
    const T *A, I lda, T *B, I ldb)                                                                \
{ NPU_API_SCOPE(__func__); return trsm_common(h, side, uplo, tr, diag, m, n, alpha, A, lda, B, ldb, DT); }
L2(S, float, NPU_DT_F32, int, _v2)
L2(S, float, NPU_DT_F32, int64_t, _v2_64)
L2(D, double, NPU_DT_F64, int, _v2)
L2(D, double, NPU_DT_F64, int64_t, _v2_64)
L2(C, cuComplex, NPU_DT_C32, int, _v2)
L2(C, cuComplex, NPU_DT_C32, int64_t, _v2_64)
L2(Z, cuDoubleComplex, NPU_DT_C64, int, _v2)
L2(Z, cuDoubleComplex, NPU_DT_C64, int64_t, _v2_64)

#define GER(NAME, OP, T, DT, I, SUF)                                                               \
NPU_EXPORT cublasStatus_t NAME##SUF(cublasHandle_t h, I m, I n, const T *alpha, const T *x,        \
                                    I incx, const T *y, I incy, T *A, I lda)                       \
{ NPU_API_SCOPE(__func__); return ger_common(h, OP, m, n, alpha, x, incx, y, incy, A, lda, DT); }
GER(cublasSger, OP_GER, float, NPU_DT_F32, int, _v2)
GER(cublasSger, OP_GER, float, NPU_DT_F32, int64_t, _v2_64)
GER(cublasDger, OP_GER, double, NPU_DT_F64, int, _v2)
GER(cublasDger, OP_GER, double, NPU_DT_F64, int64_t, _v2_64)
GER(cublasCgeru, OP_GER, cuComplex, NPU_DT_C32, int, _v2)
GER(cublasCgeru, OP_GER, cuComplex, NPU_DT_C32, int64_t, _v2_64)
GER(cublasCgerc, OP_GERC, cuComplex, NPU_DT_C32, int, _v2)
GER(cublasCgerc, OP_GERC, cuComplex, NPU_DT_C32, int64_t, _v2_64)
GER(cublasZgeru, OP_GER, cuDoubleComplex, NPU_DT_C64, int, _v2)
GER(cublasZgeru, OP_GER, cuDoubleComplex, NPU_DT_C64, int64_t, _v2_64)
GER(cublasZgerc, OP_GERC, cuDoubleComplex, NPU_DT_C64, int, _v2)
GER(cublasZgerc, OP_GERC, cuDoubleComplex, NPU_DT_C64, int64_t, _v2_64)
