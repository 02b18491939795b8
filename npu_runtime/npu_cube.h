/*
 * npu_cube.h - the NPU "cube": the GEMM engine (OpenBLAS underneath, NPU numerics on top).
 *
 * Numerics (what a caller may rely on, checked bit-exactly by tests/unit/test_cube.c):
 *   - fp16 / bf16 / int8 inputs are converted exactly to fp32; products accumulate in fp32
 *     (cblas_sgemm); the result is rounded once to the output type, round to nearest even.
 *   - input rounding NPU_CUBE_ROUND_HF32 rounds fp32 inputs to a 10-bit mantissa (the NPU's
 *     HF32, CUDA's TF32) before multiplying, round to nearest even; _F16 / _BF16 round fp32
 *     inputs through fp16 / bf16 (cuBLAS's 32F_FAST_16F / 32F_FAST_16BF compute types).
 *   - NPU_CUBE_COMPUTE_I32: int8 x int8 -> int32, exact (accumulated in double, which holds
 *     every partial sum exactly since |sum| <= k * 2^14 < 2^53); alpha/beta are integers.
 *   - fp64 and complex types go straight to dgemm / cgemm / zgemm.
 *   - D = epilogue(alpha * op(A) op(B) + beta * C + bias), computed in fp32 (or the compute
 *     type), then rounded to D's type. beta == 0: C is not read. C and D may differ.
 * Matrices are column-major with a leading dimension; a batch is either strided (element
 * strides) or given by arrays of pointers (read when the work runs).
 *
 * Thread-safety: npu_cube_gemm_run may run on several threads at once; it keeps per-thread
 * scratch buffers (freed at thread exit). It runs synchronously on the calling thread: the
 * caller (interpose/cublas) puts it on a stream with npu_stream_submit.
 */
#ifndef NPU_CUBE_H
#define NPU_CUBE_H

#include <stddef.h>
#include <stdint.h>
#include "npu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum npu_dtype {
    NPU_DT_F16 = 0, NPU_DT_BF16, NPU_DT_F32, NPU_DT_F64,
    NPU_DT_C32,                   /* complex float (re, im) */
    NPU_DT_C64,                   /* complex double */
    NPU_DT_I8, NPU_DT_I32,
    NPU_DT_COUNT
} npu_dtype_t;

typedef enum npu_cube_compute {
    NPU_CUBE_COMPUTE_F32 = 0,     /* fp32 accumulate (also used for cuBLAS COMPUTE_16F) */
    NPU_CUBE_COMPUTE_F64,
    NPU_CUBE_COMPUTE_I32
} npu_cube_compute_t;

typedef enum npu_cube_round {
    NPU_CUBE_ROUND_NONE = 0,
    NPU_CUBE_ROUND_HF32,          /* 10-bit mantissa (TF32) */
    NPU_CUBE_ROUND_F16,
    NPU_CUBE_ROUND_BF16
} npu_cube_round_t;

typedef enum npu_cube_op { NPU_OP_N = 0, NPU_OP_T = 1, NPU_OP_C = 2 } npu_cube_op_t;

enum {                            /* epilogue bits, applied in this order: bias, relu / gelu */
    NPU_CUBE_EPI_BIAS = 1,
    NPU_CUBE_EPI_RELU = 2,
    NPU_CUBE_EPI_GELU = 4         /* tanh approximation, as cuBLASLt */
};

typedef struct npu_cube_gemm {
    npu_cube_op_t opa, opb;
    int64_t m, n, k;              /* op(A) is m x k, op(B) k x n, C and D m x n */
    npu_dtype_t atype, btype, ctype, dtype;
    npu_cube_compute_t compute;
    npu_cube_round_t round;       /* rounding of fp32 inputs before the product */
    const void *a, *b, *c;
    void *d;                      /* may equal c (then ldc must equal ldd) */
    int64_t lda, ldb, ldc, ldd;
    int64_t stride_a, stride_b, stride_c, stride_d; /* elements between batch entries */
    /* Pointer-array batches (cublas*gemmBatched): when non-NULL, replace a/b/c/d. */
    const void *const *a_array, *const *b_array, *const *c_array;
    void *const *d_array;
    int64_t batch;                /* >= 1 */
    double alpha[2], beta[2];     /* (re, im); exact for every supported scalar type */
    unsigned epilogue;            /* NPU_CUBE_EPI_* (real types only) */
    const void *bias;             /* bias vector, one value per row of D (per column when
                                   * bias_per_col); NULL: no bias */
    npu_dtype_t bias_type;
    int64_t bias_stride;          /* elements between batch entries */
    int bias_per_col;
} npu_cube_gemm_t;

size_t npu_dtype_size(npu_dtype_t t);

/* Validates sizes, leading dimensions, pointers and the type combination without touching
 * memory: NPU_EINVAL (negative size, ld too small, missing pointer), NPU_ENOTSUP (type or
 * compute combination the cube does not implement). */
npu_status_t npu_cube_gemm_check(const npu_cube_gemm_t *g);

/* Runs the (batched) GEMM now, on this thread. Calls npu_cube_gemm_check first. */
npu_status_t npu_cube_gemm_run(const npu_cube_gemm_t *g);

/* Element conversions (round to nearest even; NaN stays NaN, overflow gives inf). */
float npu_f16_to_f32(uint16_t h);
uint16_t npu_f32_to_f16(float f);
float npu_bf16_to_f32(uint16_t h);
uint16_t npu_f32_to_bf16(float f);
float npu_f32_round_hf32(float f);

/* Bulk conversions used by the cube (vectorized where the CPU allows). */
void npu_cvt_f16_to_f32(const uint16_t *src, float *dst, size_t n);
void npu_cvt_f32_to_f16(const float *src, uint16_t *dst, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* NPU_CUBE_H */
