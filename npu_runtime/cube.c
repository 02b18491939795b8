/*
 * cube.c - the NPU cube: batched GEMM with NPU numerics on top of OpenBLAS (npu_cube.h).
 *
 * DESIGN
 *   npu_cube_gemm_run runs on the calling thread (a stream worker, in stream order); it owns
 *   no queue and takes no lock. OpenBLAS parallelizes each sgemm/dgemm on its own thread
 *   pool, whose idle threads yield while they spin: a 2-thread CPU loop started right after
 *   an sgemm ran as fast as one started after 0.5 s idle (both 0.04-0.09 s, 8 runs), so
 *   kernels that follow a GEMM do not lose the cores. Per-thread scratch (operand copies, the fp32 result tile) lives in a thread-local
 *   buffer that grows on demand and is freed by a pthread key destructor at thread exit, so
 *   a steady stream of GEMMs never pays malloc + first-touch page faults (measured: 1.7 us
 *   per fresh 4 KiB page, i.e. ~7 ms for the 16 MiB fp32 copy of a 2048^2 operand, 8% of a
 *   2048^3 sgemm).
 *
 * Paths (chosen per call, cheapest first):
 *   1. fp32 in/out, no input rounding: cblas_sgemm straight on the caller's pointers (after
 *      copying C into D when they differ and beta != 0). No conversion, no scratch.
 *   2. fp64 / complex double: cblas_dgemm / cblas_zgemm likewise; complex float: cgemm.
 *   3. any other fp32-compute combination: inputs that are not plain fp32 are converted
 *      column by column into packed fp32 scratch (with HF32 / fp16 / bf16 rounding when
 *      asked), one sgemm, then D = round(alpha*AB [+ beta*C] [+ bias], act) column-wise.
 *      When D and C are fp32 the sgemm writes D directly (epilogue in place).
 *   4. int8 -> int32: operands converted to double, dgemm (exact), integer alpha/beta.
 * fp16 <-> fp32 bulk conversion uses F16C (8 lanes per instruction) when the CPU has it,
 * picked once at run time (TRANSFER_TO_NPU_CUBE_NO_SIMD=1 forces the scalar code). Measured on this 2-vCPU Zen 4 guest (4M elements, a 2048^2
 * operand): f16->f32 0.7 ms with F16C vs 9 ms scalar, f32->f16 0.7 ms vs 13-17 ms, against
 * ~84 ms for the 2048^3 sgemm they feed; so conversion stays on one thread (no pool, no
 * hand-off): GemmEx fp16-in / fp32-out ran at 0.80-1.01 of cblas_sgemm's GFLOP/s over four
 * bench/bench_blas runs on this (heavily shared, load 4-10) VM, sgemm through the stream at
 * 0.77-1.32 (same noise either way; no systematic gap in repeated 4096^3 side-by-sides).
 */
#include "npu_cube.h"
#include "npu_obs.h"  /* observability (npu_obs.h) */
#include "kernel/npu_kernel.h"
#include "kernel/exec_internal.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CUBE_X86 1
#endif

/* ------------------------------------------------------------- conversions ---- */
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float npu_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)                                   /* inf / nan */
        return u2f(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        if (man == 0)
            return u2f(sign);
        /* subnormal: man * 2^-24, exact in fp32 */
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t npu_f32_to_f16(float f)
{
    uint32_t u = f2u(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)                               /* nan: keep quiet, keep payload top */
        return sign | 0x7e00 | (uint16_t)((a >> 13) & 0x1ff);
    if (a >= 0x477ff000u)                              /* >= 65520 rounds to inf */
        return sign | 0x7c00;
    if (a < 0x38800000u) {                             /* below 2^-14: subnormal or zero */
        if (a < 0x33000000u)                           /* < 2^-25: rounds to zero (tie at 2^-25 -> 0) */
            return sign;
        uint32_t exp = a >> 23, man = (a & 0x7fffff) | 0x800000;
        uint32_t shift = 126 - exp;                    /* 14..24: value = man * 2^(exp-150) */
        uint32_t q = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return sign | (uint16_t)q;
    }
    uint32_t r = a + 0xfff + ((a >> 13) & 1);          /* round to nearest even at bit 13 */
    return sign | (uint16_t)((r - 0x38000000u) >> 13);
}

float npu_bf16_to_f32(uint16_t h) { return u2f((uint32_t)h << 16); }

uint16_t npu_f32_to_bf16(float f)
{
    uint32_t u = f2u(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

float npu_f32_round_hf32(float f)
{
    uint32_t u = f2u(f);
    if ((u & 0x7f800000u) == 0x7f800000u)              /* inf / nan unchanged */
        return f;
    u = (u + 0xfff + ((u >> 13) & 1)) & ~0x1fffu;
    return u2f(u);
}

static void cvt_f16_f32_scalar(const uint16_t *s, float *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = npu_f16_to_f32(s[i]);
}

static void cvt_f32_f16_scalar(const float *s, uint16_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = npu_f32_to_f16(s[i]);
}

#ifdef CUBE_X86
__attribute__((target("avx,f16c")))
static void cvt_f16_f32_f16c(const uint16_t *s, float *d, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + i))));
    cvt_f16_f32_scalar(s + i, d + i, n - i);
}

__attribute__((target("avx,f16c")))
static void cvt_f32_f16_f16c(const float *s, uint16_t *d, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(d + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
    cvt_f32_f16_scalar(s + i, d + i, n - i);
}

static int have_f16c(void)
{
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")
                 && !npu_env("TRANSFER_TO_NPU_CUBE_NO_SIMD");
    }
    return cached;
}
#endif

void npu_cvt_f16_to_f32(const uint16_t *src, float *dst, size_t n)
{
#ifdef CUBE_X86
    if (have_f16c()) { cvt_f16_f32_f16c(src, dst, n); return; }
#endif
    cvt_f16_f32_scalar(src, dst, n);
}

void npu_cvt_f32_to_f16(const float *src, uint16_t *dst, size_t n)
{
#ifdef CUBE_X86
    if (have_f16c()) { cvt_f32_f16_f16c(src, dst, n); return; }
#endif
    cvt_f32_f16_scalar(src, dst, n);
}

size_t npu_dtype_size(npu_dtype_t t)
{
    switch (t) {
    case NPU_DT_F16: case NPU_DT_BF16: return 2;
    case NPU_DT_F32: case NPU_DT_I32: return 4;
    case NPU_DT_F64: case NPU_DT_C32: return 8;
    case NPU_DT_C64: return 16;
    case NPU_DT_I8: return 1;
    default: return 0;
    }
}

static void round_f32(float *p, size_t n, npu_cube_round_t r)
{
    size_t i;
    switch (r) {
    case NPU_CUBE_ROUND_HF32:
        for (i = 0; i < n; i++) p[i] = npu_f32_round_hf32(p[i]);
        break;
    case NPU_CUBE_ROUND_F16:
        for (i = 0; i < n; i++) p[i] = npu_f16_to_f32(npu_f32_to_f16(p[i]));
        break;
    case NPU_CUBE_ROUND_BF16:
        for (i = 0; i < n; i++) p[i] = npu_bf16_to_f32(npu_f32_to_bf16(p[i]));
        break;
    default:
        break;
    }
}

/* n elements of type t -> fp32 (complex C32: 2n floats). */
static void to_f32(npu_dtype_t t, const void *src, float *dst, size_t n)
{
    size_t i;
    switch (t) {
    case NPU_DT_F16: npu_cvt_f16_to_f32(src, dst, n); break;
    case NPU_DT_BF16: {
        const uint16_t *s = src;
        for (i = 0; i < n; i++) dst[i] = npu_bf16_to_f32(s[i]);
        break;
    }
    case NPU_DT_F32: memcpy(dst, src, n * 4); break;
    case NPU_DT_C32: memcpy(dst, src, n * 8); break;
    case NPU_DT_I8: {
        const int8_t *s = src;
        for (i = 0; i < n; i++) dst[i] = s[i];
        break;
    }
    case NPU_DT_I32: {
        const int32_t *s = src;
        for (i = 0; i < n; i++) dst[i] = (float)s[i];
        break;
    }
    case NPU_DT_F64: {
        const double *s = src;
        for (i = 0; i < n; i++) dst[i] = (float)s[i];
        break;
    }
    default: break;
    }
}

/* n fp32 values -> type t (rounded to nearest even). */
static void from_f32(npu_dtype_t t, const float *src, void *dst, size_t n)
{
    size_t i;
    switch (t) {
    case NPU_DT_F16: npu_cvt_f32_to_f16(src, dst, n); break;
    case NPU_DT_BF16: {
        uint16_t *d = dst;
        for (i = 0; i < n; i++) d[i] = npu_f32_to_bf16(src[i]);
        break;
    }
    case NPU_DT_F32: memcpy(dst, src, n * 4); break;
    case NPU_DT_C32: memcpy(dst, src, n * 8); break;
    default: break;
    }
}

/* ----------------------------------------------------------------- scratch ---- */
typedef struct { void *p; size_t cap; } scratch_t;
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *v)
{
    scratch_t *s = v;
    if (s) { free(s->p); free(s); }
}

static void scratch_init(void) { pthread_key_create(&scratch_key, scratch_free); }

/* Scratch above this size is returned to the OS after each GEMM, so one huge call does not
 * pin its memory on a worker forever; below it the buffer is kept for the next call. */
#define SCRATCH_KEEP_BYTES ((size_t)256 << 20)

static void scratch_trim(void)
{
    scratch_t *s = pthread_getspecific(scratch_key);
    if (s && s->cap > SCRATCH_KEEP_BYTES) {
        free(s->p);
        s->p = NULL;
        s->cap = 0;
    }
}

static void *scratch_get(size_t bytes)
{
    pthread_once(&scratch_once, scratch_init);
    scratch_t *s = pthread_getspecific(scratch_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || pthread_setspecific(scratch_key, s) != 0) { free(s); return NULL; }
    }
    if (s->cap < bytes) {
        free(s->p);
        s->cap = 0;
        size_t cap = (bytes + 4095) & ~(size_t)4095;
        if (posix_memalign(&s->p, 4096, cap) != 0) { s->p = NULL; return NULL; }
        s->cap = cap;
    }
    return s->p;
}

/* ------------------------------------------------------------------ checks ---- */
static int is_real_f32_family(npu_dtype_t t)
{
    return t == NPU_DT_F16 || t == NPU_DT_BF16 || t == NPU_DT_F32;
}

static npu_status_t check_types(const npu_cube_gemm_t *g)
{
    if ((unsigned)g->atype >= NPU_DT_COUNT || (unsigned)g->btype >= NPU_DT_COUNT ||
        (unsigned)g->ctype >= NPU_DT_COUNT || (unsigned)g->dtype >= NPU_DT_COUNT ||
        (unsigned)g->round > NPU_CUBE_ROUND_BF16)
        return NPU_ENOTSUP;
    if (g->atype != g->btype)
        return NPU_ENOTSUP;
    switch (g->compute) {
    case NPU_CUBE_COMPUTE_F32:
        if (g->atype == NPU_DT_C32)
            return (g->ctype == NPU_DT_C32 && g->dtype == NPU_DT_C32 && !g->epilogue)
                   ? NPU_OK : NPU_ENOTSUP;
        if (!is_real_f32_family(g->atype) && g->atype != NPU_DT_I8)
            return NPU_ENOTSUP;
        if (!is_real_f32_family(g->ctype) || !is_real_f32_family(g->dtype))
            return NPU_ENOTSUP;
        if (g->atype == NPU_DT_I8 && g->ctype != NPU_DT_F32)
            return NPU_ENOTSUP;
        break;
    case NPU_CUBE_COMPUTE_F64:
        if (g->atype == NPU_DT_F64)
            return (g->ctype == NPU_DT_F64 && g->dtype == NPU_DT_F64 && g->round == NPU_CUBE_ROUND_NONE)
                   ? NPU_OK : NPU_ENOTSUP;
        if (g->atype == NPU_DT_C64)
            return (g->ctype == NPU_DT_C64 && g->dtype == NPU_DT_C64 && !g->epilogue &&
                    g->round == NPU_CUBE_ROUND_NONE) ? NPU_OK : NPU_ENOTSUP;
        return NPU_ENOTSUP;
    case NPU_CUBE_COMPUTE_I32:
        if (g->atype != NPU_DT_I8 || g->ctype != NPU_DT_I32 || g->dtype != NPU_DT_I32 || g->epilogue)
            return NPU_ENOTSUP;
        break;
    default:
        return NPU_ENOTSUP;
    }
    if ((g->epilogue & NPU_CUBE_EPI_BIAS) && g->bias &&
        !(is_real_f32_family(g->bias_type) || g->bias_type == NPU_DT_F64))
        return NPU_ENOTSUP;
    return NPU_OK;
}

npu_status_t npu_cube_gemm_check(const npu_cube_gemm_t *g)
{
    if (!g)
        return NPU_EINVAL;
    if (g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 0)
        return NPU_EINVAL;
    if ((unsigned)g->opa > NPU_OP_C || (unsigned)g->opb > NPU_OP_C)
        return NPU_EINVAL;
    if (g->epilogue & ~(unsigned)(NPU_CUBE_EPI_BIAS | NPU_CUBE_EPI_RELU | NPU_CUBE_EPI_GELU))
        return NPU_ENOTSUP;
    if ((g->epilogue & NPU_CUBE_EPI_RELU) && (g->epilogue & NPU_CUBE_EPI_GELU))
        return NPU_ENOTSUP;
    npu_status_t st = check_types(g);
    if (st != NPU_OK)
        return st;
    int64_t arows = g->opa == NPU_OP_N ? g->m : g->k;
    int64_t brows = g->opb == NPU_OP_N ? g->k : g->n;
    if (g->lda < (arows > 1 ? arows : 1) || g->ldb < (brows > 1 ? brows : 1) ||
        g->ldc < (g->m > 1 ? g->m : 1) || g->ldd < (g->m > 1 ? g->m : 1))
        return NPU_EINVAL;
    if (g->m > INT32_MAX || g->n > INT32_MAX || g->k > INT32_MAX ||
        g->lda > INT32_MAX || g->ldb > INT32_MAX || g->ldc > INT32_MAX || g->ldd > INT32_MAX)
        return NPU_ENOTSUP;                            /* OpenBLAS here takes 32-bit sizes */
    if (g->m == 0 || g->n == 0 || g->batch == 0)
        return NPU_OK;
    if (g->d_array ? !g->d_array : !g->d)
        return NPU_EINVAL;
    if (g->k > 0 && (g->alpha[0] != 0 || g->alpha[1] != 0)) {
        if (!(g->a_array || g->a) || !(g->b_array || g->b))
            return NPU_EINVAL;
    }
    if ((g->beta[0] != 0 || g->beta[1] != 0) && !(g->c_array || g->c))
        return NPU_EINVAL;
    return NPU_OK;
}

/* ------------------------------------------------------------------ helpers ---- */
static inline const void *batch_ptr(const void *base, const void *const *arr, int64_t i,
                                    int64_t stride, npu_dtype_t t)
{
    if (arr)
        return arr[i];
    return base ? (const char *)base + (size_t)(i * stride) * npu_dtype_size(t) : NULL;
}

/* Pointer-array batches are read when the work runs: each entry must be non-NULL and its
 * matrix must lie inside one allocation (npu_mem_check_range), else the GEMM stops with
 * NPU_EINVAL instead of faulting on the worker. Strided operands are checked by the caller. */
static int entry_ok(const void *p, int64_t rows, int64_t cols, int64_t ld, npu_dtype_t t)
{
    if (rows <= 0 || cols <= 0)
        return 1;
    if (!p)
        return 0;
    return npu_mem_check_range(p, (size_t)((cols - 1) * ld + rows) * npu_dtype_size(t)) == NPU_OK;
}

static int batch_entries_ok(const npu_cube_gemm_t *g, const void *a, const void *b, const void *c,
                            const void *d, int use_ab, int use_c)
{
    if (!(g->a_array || g->b_array || g->c_array || g->d_array))
        return d != NULL && (!use_ab || (a && b)) && (!use_c || c);
    int64_t ar = g->opa == NPU_OP_N ? g->m : g->k, ac = g->opa == NPU_OP_N ? g->k : g->m;
    int64_t br = g->opb == NPU_OP_N ? g->k : g->n, bc = g->opb == NPU_OP_N ? g->n : g->k;
    return entry_ok(d, g->m, g->n, g->ldd, g->dtype) &&
           (!use_ab || (entry_ok(a, ar, ac, g->lda, g->atype) && entry_ok(b, br, bc, g->ldb, g->btype))) &&
           (!use_c || entry_ok(c, g->m, g->n, g->ldc, g->ctype));
}

static inline enum CBLAS_TRANSPOSE cb_op(npu_cube_op_t op)
{
    return op == NPU_OP_N ? CblasNoTrans : op == NPU_OP_T ? CblasTrans : CblasConjTrans;
}

/* Copies C (m x n, ldc) into D (ldd) when they are distinct, element size es. */
static void copy_c_to_d(const void *c, int64_t ldc, void *d, int64_t ldd, int64_t m, int64_t n,
                        size_t es)
{
    if (c == d && ldc == ldd)
        return;
    for (int64_t j = 0; j < n; j++)
        memmove((char *)d + (size_t)(j * ldd) * es, (const char *)c + (size_t)(j * ldc) * es,
                (size_t)m * es);
}

static inline float gelu_f(float x)
{
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

static void act_f32(float *t, int64_t n, unsigned epi)
{
    if (epi & NPU_CUBE_EPI_RELU)
        for (int64_t i = 0; i < n; i++) t[i] = t[i] > 0.0f ? t[i] : 0.0f;
    else if (epi & NPU_CUBE_EPI_GELU)
        for (int64_t i = 0; i < n; i++) t[i] = gelu_f(t[i]);
}

/* bias as fp32: bias_f[i] for a per-row bias (m values) or per-column (n values). */
static int load_bias_f32(const npu_cube_gemm_t *g, int64_t b, float *dst, int64_t len)
{
    if (!(g->epilogue & NPU_CUBE_EPI_BIAS) || !g->bias)
        return 0;
    const char *p = (const char *)g->bias + (size_t)(b * g->bias_stride) * npu_dtype_size(g->bias_type);
    to_f32(g->bias_type, p, dst, (size_t)len);
    return 1;
}

/* fp32 epilogue on a column-major fp32 matrix (bias + activation), in place. */
static void epilogue_f32(float *d, int64_t ld, int64_t m, int64_t n, const float *bias,
                         int per_col, unsigned epi)
{
    for (int64_t j = 0; j < n; j++) {
        float *col = d + j * ld;
        if (bias) {
            if (per_col) { float bj = bias[j]; for (int64_t i = 0; i < m; i++) col[i] += bj; }
            else for (int64_t i = 0; i < m; i++) col[i] += bias[i];
        }
        act_f32(col, m, epi);
    }
}

/* Operand (rows x cols, ld, type t) -> packed fp32 (complex: 2 floats per element). */
static void pack_f32(npu_dtype_t t, const void *src, int64_t ld, int64_t rows, int64_t cols,
                     npu_cube_round_t r, float *dst)
{
    size_t es = npu_dtype_size(t), w = t == NPU_DT_C32 ? 2 : 1;
    for (int64_t j = 0; j < cols; j++) {
        float *col = dst + (size_t)(j * rows) * w;
        to_f32(t, (const char *)src + (size_t)(j * ld) * es, col, (size_t)rows);
        round_f32(col, (size_t)rows * w, r);
    }
}

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* --------------------------------------------------------------- fp32 family ---- */
#define CUBE_SMALL_MACS (1.0 * (1 << 22))
#define CUBE_PANEL_MIN_MACS (1.0 * (1 << 18))   /* below: one thread (OpenBLAS's own threshold) */

/* Mid-size fp32 GEMMs (see CUBE_SMALL_MACS) are split by columns of D into one panel per
 * block runner and run on the kernel executor's pool (npu_exec_grid_checked with a native
 * block function), each panel a single-threaded cblas_sgemm: the GEMM gets both cores without
 * OpenBLAS's own pool, whose helper keeps spinning after every call. */
typedef struct cube_panels {
    enum CBLAS_TRANSPOSE ta, tb;
    int m, n, k, lda, ldb, ldd, np;
    float alpha, beta;
    const float *a, *b;
    float *d;
} cube_panels_t;

static void cube_panel_block(npu_bctx_t *bc, const uint8_t *params)
{
    const cube_panels_t *p;
    memcpy(&p, params, sizeof p);
    int i = (int)bc->ctaid[0];
    int n0 = (int)((int64_t)p->n * i / p->np), n1 = (int)((int64_t)p->n * (i + 1) / p->np);
    if (n1 <= n0)
        return;
    const float *b = p->tb == CblasNoTrans ? p->b + (size_t)n0 * (size_t)p->ldb : p->b + n0;
    cblas_sgemm(CblasColMajor, p->ta, p->tb, p->m, n1 - n0, p->k, p->alpha, p->a, p->lda, b, p->ldb, p->beta,
                p->d + (size_t)n0 * (size_t)p->ldd, p->ldd);
}

static npu_kfunc_info_t cube_panels_info = { .name = "npu_cube_sgemm_panels", .param_size = 8, .block_fn = cube_panel_block };

static void cube_sgemm(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb, float beta, float *d, int ldd)
{
    /* mid-size only: npu_cube_gemm_run holds OpenBLAS to one thread for these */
    double macs = (double)m * (double)n * (double)k;
    int np = macs > CUBE_PANEL_MIN_MACS && macs <= CUBE_SMALL_MACS ? npu_exec_runners() : 1;
    if (np > n / 16) np = n / 16;
    if (np > 1 && k > 0) {
        cube_panels_t job = { ta, tb, m, n, k, lda, ldb, ldd, np, alpha, beta, a, b, d };
        const cube_panels_t *jp = &job;
        uint8_t params[8];
        memcpy(params, &jp, sizeof jp);
        uint32_t grid[3] = { (uint32_t)np, 1, 1 }, block[3] = { 1, 1, 1 };
        if (npu_exec_grid_checked(&cube_panels_info, grid, block, 0, params) == NPU_OK)
            return;
        /* (a failed grid ran no panel twice: fall through and run the whole product) */
    }
    cblas_sgemm(CblasColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, d, ldd);
}

static npu_status_t run_f32(const npu_cube_gemm_t *g)
{
    const int cplx = g->atype == NPU_DT_C32;
    const size_t w = cplx ? 2 : 1;
    const int64_t m = g->m, n = g->n, k = g->k;
    const int64_t arows = g->opa == NPU_OP_N ? m : k, acols = g->opa == NPU_OP_N ? k : m;
    const int64_t brows = g->opb == NPU_OP_N ? k : n, bcols = g->opb == NPU_OP_N ? n : k;
    const int conv_a = g->atype != NPU_DT_F32 && !cplx ? 1 : g->round != NPU_CUBE_ROUND_NONE;
    const int conv_b = conv_a;
    const int direct_out = (g->dtype == NPU_DT_F32 && g->ctype == NPU_DT_F32) || cplx;
    const int has_beta = g->beta[0] != 0 || g->beta[1] != 0;
    const float alpha[2] = { (float)g->alpha[0], (float)g->alpha[1] };
    const float beta[2] = { (float)g->beta[0], (float)g->beta[1] };
    const float zero[2] = { 0, 0 };

    size_t sz_a = conv_a ? ALIGN64((size_t)(arows * acols) * w * 4) : 0;
    size_t sz_b = conv_b ? ALIGN64((size_t)(brows * bcols) * w * 4) : 0;
    size_t sz_t = direct_out ? 0 : ALIGN64((size_t)(m * n) * 4);
    size_t sz_c = direct_out ? 0 : ALIGN64((size_t)m * 4);
    size_t sz_bias = ALIGN64((size_t)(m > n ? m : n) * 4);
    char *scr = scratch_get(sz_a + sz_b + sz_t + sz_c + sz_bias + 64);
    if (!scr)
        return NPU_EHOSTMEM;
    float *pa = (float *)scr, *pb = (float *)(scr + sz_a), *pt = (float *)(scr + sz_a + sz_b);
    float *pc = (float *)(scr + sz_a + sz_b + sz_t);
    float *pbias = (float *)(scr + sz_a + sz_b + sz_t + sz_c);

    for (int64_t bi = 0; bi < g->batch; bi++) {
        const void *a = batch_ptr(g->a, g->a_array, bi, g->stride_a, g->atype);
        const void *b = batch_ptr(g->b, g->b_array, bi, g->stride_b, g->btype);
        const void *c = batch_ptr(g->c, g->c_array, bi, g->stride_c, g->ctype);
        void *d = (void *)batch_ptr(g->d, (const void *const *)g->d_array, bi, g->stride_d, g->dtype);
        const void *ua = a, *ub = b;
        int64_t ulda = g->lda, uldb = g->ldb;
        int do_mul = k > 0 && (alpha[0] != 0 || alpha[1] != 0);   /* else A, B are not read */
        if (!batch_entries_ok(g, a, b, c, d, do_mul, has_beta))
            return NPU_EINVAL;
        if (do_mul && conv_a) { pack_f32(g->atype, a, g->lda, arows, acols, g->round, pa); ua = pa; ulda = arows > 1 ? arows : 1; }
        if (do_mul && conv_b) { pack_f32(g->btype, b, g->ldb, brows, bcols, g->round, pb); ub = pb; uldb = brows > 1 ? brows : 1; }
        int bias = load_bias_f32(g, bi, pbias, g->bias_per_col ? n : m);

        if (direct_out) {
            if (has_beta)
                copy_c_to_d(c, g->ldc, d, g->ldd, m, n, 4 * w);
            if (cplx)
                cblas_cgemm(CblasColMajor, cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, do_mul ? (int)k : 0,
                            alpha, ua, (int)ulda, ub, (int)uldb, has_beta ? beta : zero, d, (int)g->ldd);
            else
                cube_sgemm(cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, do_mul ? (int)k : 0,
                           alpha[0], ua, (int)ulda, ub, (int)uldb, has_beta ? beta[0] : 0.0f,
                           d, (int)g->ldd);
            if (!cplx && g->epilogue)
                epilogue_f32(d, g->ldd, m, n, bias ? pbias : NULL, g->bias_per_col, g->epilogue);
            continue;
        }
        cblas_sgemm(CblasColMajor, cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, do_mul ? (int)k : 0,
                    alpha[0], ua, (int)ulda, ub, (int)uldb, 0.0f, pt, (int)m);
        size_t ces = npu_dtype_size(g->ctype), des = npu_dtype_size(g->dtype);
        for (int64_t j = 0; j < n; j++) {
            float *col = pt + j * m;
            if (has_beta) {
                to_f32(g->ctype, (const char *)c + (size_t)(j * g->ldc) * ces, pc, (size_t)m);
                for (int64_t i = 0; i < m; i++) col[i] += beta[0] * pc[i];
            }
            if (bias) {
                if (g->bias_per_col) { float bj = pbias[j]; for (int64_t i = 0; i < m; i++) col[i] += bj; }
                else for (int64_t i = 0; i < m; i++) col[i] += pbias[i];
            }
            act_f32(col, m, g->epilogue);
            from_f32(g->dtype, col, (char *)d + (size_t)(j * g->ldd) * des, (size_t)m);
        }
    }
    return NPU_OK;
}

/* --------------------------------------------------------------------- fp64 ---- */
static npu_status_t run_f64(const npu_cube_gemm_t *g)
{
    const int cplx = g->atype == NPU_DT_C64;
    const int64_t m = g->m, n = g->n, k = g->k;
    const int has_beta = g->beta[0] != 0 || g->beta[1] != 0;
    const double zero[2] = { 0, 0 };
    double *bias = NULL;
    if ((g->epilogue & NPU_CUBE_EPI_BIAS) && g->bias) {
        int64_t len = g->bias_per_col ? n : m;
        bias = scratch_get((size_t)len * 8 + 64);
        if (!bias)
            return NPU_EHOSTMEM;
    }
    for (int64_t bi = 0; bi < g->batch; bi++) {
        const void *a = batch_ptr(g->a, g->a_array, bi, g->stride_a, g->atype);
        const void *b = batch_ptr(g->b, g->b_array, bi, g->stride_b, g->btype);
        const void *c = batch_ptr(g->c, g->c_array, bi, g->stride_c, g->ctype);
        double *d = (double *)batch_ptr(g->d, (const void *const *)g->d_array, bi, g->stride_d, g->dtype);
        /* alpha == 0 or k == 0: A and B are not read (BLAS), so pass k = 0 to OpenBLAS */
        int use_ab = k > 0 && (g->alpha[0] != 0 || g->alpha[1] != 0);
        if (!batch_entries_ok(g, a, b, c, d, use_ab, has_beta))
            return NPU_EINVAL;
        if (has_beta)
            copy_c_to_d(c, g->ldc, d, g->ldd, m, n, cplx ? 16 : 8);
        if (cplx)
            cblas_zgemm(CblasColMajor, cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, use_ab ? (int)k : 0,
                        g->alpha, a, (int)g->lda, b, (int)g->ldb, has_beta ? g->beta : zero,
                        d, (int)g->ldd);
        else
            cblas_dgemm(CblasColMajor, cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, use_ab ? (int)k : 0,
                        g->alpha[0], a, (int)g->lda, b, (int)g->ldb, has_beta ? g->beta[0] : 0.0,
                        d, (int)g->ldd);
        if (cplx || !g->epilogue)
            continue;
        if (bias) {
            int64_t len = g->bias_per_col ? n : m;
            const char *p = (const char *)g->bias + (size_t)(bi * g->bias_stride) * npu_dtype_size(g->bias_type);
            if (g->bias_type == NPU_DT_F64) memcpy(bias, p, (size_t)len * 8);
            else {
                for (int64_t i = 0; i < len; i++) {
                    float f;
                    to_f32(g->bias_type, p + (size_t)i * npu_dtype_size(g->bias_type), &f, 1);
                    bias[i] = f;
                }
            }
        }
        for (int64_t j = 0; j < n; j++) {
            double *col = d + j * g->ldd;
            for (int64_t i = 0; i < m; i++) {
                double v = col[i];
                if (bias) v += g->bias_per_col ? bias[j] : bias[i];
                if (g->epilogue & NPU_CUBE_EPI_RELU) v = v > 0 ? v : 0;
                else if (g->epilogue & NPU_CUBE_EPI_GELU)
                    v = 0.5 * v * (1.0 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
                col[i] = v;
            }
        }
    }
    return NPU_OK;
}

/* ---------------------------------------------------------------- int8->int32 ---- */
static npu_status_t run_i32(const npu_cube_gemm_t *g)
{
    const int64_t m = g->m, n = g->n, k = g->k;
    const int64_t arows = g->opa == NPU_OP_N ? m : k, acols = g->opa == NPU_OP_N ? k : m;
    const int64_t brows = g->opb == NPU_OP_N ? k : n, bcols = g->opb == NPU_OP_N ? n : k;
    const int64_t alpha = (int64_t)g->alpha[0], beta = (int64_t)g->beta[0];
    size_t sz_a = ALIGN64((size_t)(arows * acols) * 8), sz_b = ALIGN64((size_t)(brows * bcols) * 8);
    size_t sz_t = ALIGN64((size_t)(m * n) * 8);
    char *scr = scratch_get(sz_a + sz_b + sz_t);
    if (!scr)
        return NPU_EHOSTMEM;
    double *pa = (double *)scr, *pb = (double *)(scr + sz_a), *pt = (double *)(scr + sz_a + sz_b);
    for (int64_t bi = 0; bi < g->batch; bi++) {
        const int8_t *a = batch_ptr(g->a, g->a_array, bi, g->stride_a, g->atype);
        const int8_t *b = batch_ptr(g->b, g->b_array, bi, g->stride_b, g->btype);
        const int32_t *c = batch_ptr(g->c, g->c_array, bi, g->stride_c, g->ctype);
        int32_t *d = (int32_t *)batch_ptr(g->d, (const void *const *)g->d_array, bi, g->stride_d, g->dtype);
        if (!batch_entries_ok(g, a, b, c, d, k > 0 && alpha != 0, beta != 0))
            return NPU_EINVAL;
        if (k > 0 && alpha != 0) {
            for (int64_t j = 0; j < acols; j++)
                for (int64_t i = 0; i < arows; i++) pa[i + j * arows] = a[i + j * g->lda];
            for (int64_t j = 0; j < bcols; j++)
                for (int64_t i = 0; i < brows; i++) pb[i + j * brows] = b[i + j * g->ldb];
            cblas_dgemm(CblasColMajor, cb_op(g->opa), cb_op(g->opb), (int)m, (int)n, (int)k, 1.0,
                        pa, (int)(arows > 1 ? arows : 1), pb, (int)(brows > 1 ? brows : 1), 0.0, pt, (int)m);
        } else {
            memset(pt, 0, (size_t)(m * n) * 8);
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                int64_t v = alpha * (int64_t)pt[i + j * m];
                if (beta) v += beta * (int64_t)c[i + j * g->ldc];
                d[i + j * g->ldd] = (int32_t)(uint32_t)v;
            }
    }
    return NPU_OK;
}

/* Small GEMMs run on the calling thread only. OpenBLAS splits any sgemm above 2^18
 * multiply-adds over its thread pool, whose helper then spins (sched_yield) until the next
 * call: with GEMMs every few hundred microseconds (a training step of examples/train_cupy.py
 * has 8 GEMMs of 2^20..2^22 MACs between ~60 kernels) it never sleeps and takes one of the
 * two cores from the kernels and the Python thread. Measured on this 2-vCPU guest, 3 runs
 * each: train_cupy 620-690 steps/s with OpenBLAS held to 1 thread, 432-605 without.
 * openblas_set_num_threads is process-wide, so the switch is made under a lock and undone
 * right after; a large GEMM starting on another stream inside that window runs on one
 * thread (slower, never wrong). Between 2^18 and 2^22 MACs the columns are split over the
 * block runners instead (cube_sgemm): train_cupy's GEMMs 288 -> 235 us per step (104 -> 128
 * GFLOP/s), ~860 -> ~1000 steps/s. */
extern void openblas_set_num_threads(int num_threads);
extern int openblas_get_num_threads(void);
static pthread_mutex_t cube_small_mu = PTHREAD_MUTEX_INITIALIZER;

npu_status_t npu_cube_gemm_run(const npu_cube_gemm_t *g)
{
    NPU_OBS_GEMM_SCOPE(g);  /* observability (npu_obs.h) */
    npu_status_t st = npu_cube_gemm_check(g);
    if (st != NPU_OK)
        return st;
    if (g->m == 0 || g->n == 0 || g->batch == 0)
        return NPU_OK;
    double macs = (double)g->m * (double)g->n * (double)(g->k ? g->k : 1);
    int small = macs <= CUBE_SMALL_MACS, saved = 1;
    if (small) {
        pthread_mutex_lock(&cube_small_mu);
        saved = openblas_get_num_threads();
        if (saved > 1) openblas_set_num_threads(1);
    }
    switch (g->compute) {
    case NPU_CUBE_COMPUTE_F32: st = run_f32(g); break;
    case NPU_CUBE_COMPUTE_F64: st = run_f64(g); break;
    case NPU_CUBE_COMPUTE_I32: st = run_i32(g); break;
    default: st = NPU_ENOTSUP; break;
    }
    if (small) {
        if (saved > 1) openblas_set_num_threads(saved);
        pthread_mutex_unlock(&cube_small_mu);
    }
    pthread_once(&scratch_once, scratch_init);
    scratch_trim();
    return st;
}
