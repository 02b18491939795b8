/*
 * cublas_internal.h - shared machinery of the cuBLAS v2 / cuBLASLt shims (interpose/cublas).
 *
 * A cuBLAS call is: check the handle (registry of live handles), check the arguments as
 * cuBLAS documents (INVALID_VALUE / NOT_SUPPORTED, nothing written), capture scalars
 * (pointer mode host: read now; device: read when the work runs), then submit one work item
 * to the handle's stream (npu_stream_submit). The work item owns a malloc'ed argument block
 * and frees it in its cleanup. Calls that return a result to host memory wait for their
 * stream, as cuBLAS does.
 * Thread-safety: a handle may be used from any thread (the registry has its own lock);
 * calls on one handle from several threads at once race on its settings, as in cuBLAS.
 */
#ifndef CUBLAS_INTERNAL_H
#define CUBLAS_INTERNAL_H

#include <cublas_v2.h>
#include <cublasLt.h>
#include <stdint.h>
#include "interpose/common/shim.h"
#include "npu_runtime/npu_cube.h"

#define BLAS_HANDLE_MAGIC 0x424c41534e505531ull   /* "BLASNPU1" */

struct cublasContext {
    uint64_t magic;
    int device;
    cudaStream_t stream;
    cublasPointerMode_t pmode;
    cublasMath_t math;
    cublasAtomicsMode_t atomics;
    void *workspace;
    size_t workspace_size;
    int sm_count_target;
};

/* Registry of live handles (cuBLAS and cuBLASLt share it; keys are the handle pointers). */
int blas_registry_add(const void *h);
void blas_registry_remove(const void *h);
int blas_registry_has(const void *h);

/* A scalar captured at call time (host mode: value) or to be read at run time (device). */
typedef struct blas_scalar {
    const void *dev;              /* non-NULL: read from here when the work runs */
    npu_dtype_t type;
    double v[2];
} blas_scalar_t;

void blas_scalar_capture(blas_scalar_t *s, int device_mode, const void *p, npu_dtype_t t);
void blas_scalar_resolve(blas_scalar_t *s);       /* at run time; no-op for host scalars */
static inline int blas_scalar_is_zero(const blas_scalar_t *s)
{
    return !s->dev && s->v[0] == 0 && s->v[1] == 0;
}

/* cudaDataType -> npu_dtype_t; -1 when the cube has no such type. */
int blas_dtype(cudaDataType t);

/* The handle's runtime stream; NULL when its cudaStream_t is no longer valid. */
npu_stream_t *blas_stream(cublasHandle_t h);

/* Submits fn(arg) (then free(arg)) on stream s; frees arg itself when submission fails. */
cublasStatus_t blas_submit(npu_stream_t *s, npu_work_fn fn, void *arg);

/* Waits for s (results written to host memory); maps an async error. */
cublasStatus_t blas_wait(npu_stream_t *s);

/* 1 when the operand (rows x cols, ld, batch entries stride elements apart, es bytes per
 * element) lies inside one live allocation, or in memory the runtime does not manage (plain
 * host memory passes, as the emulation shares one address space); 0 when it would run past
 * the end of a device allocation. Nothing to check for NULL or empty operands. */
int blas_range_ok(const void *p, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                  int64_t batch, size_t es);
/* Same for a vector of n elements with increment inc. */
static inline int blas_vec_ok(const void *p, int64_t n, int64_t inc, size_t es)
{
    return n <= 0 || blas_range_ok(p, 1, n, inc < 0 ? -inc : inc, 0, 1, es);
}

/* A gemm work item: cube descriptor plus scalars that may live in device memory. */
typedef struct blas_gemm_work {
    npu_cube_gemm_t g;
    blas_scalar_t alpha, beta;
} blas_gemm_work_t;

/* cuBLAS compute type (+ math mode) -> cube compute, input rounding, scalar type; 0 when
 * the compute type is unknown or does not fit the input type. */
int blas_compute_map(cublasMath_t math, cublasComputeType_t ct, npu_dtype_t atype,
                     npu_cube_compute_t *cc, npu_cube_round_t *rnd, npu_dtype_t *scalar);

/* Checks, then submits a gemm on stream s (takes a copy of *w). */
cublasStatus_t blas_gemm_submit(npu_stream_t *s, const blas_gemm_work_t *w);

static inline int blas_handle_ok(cublasHandle_t h)
{
    return h && blas_registry_has(h) && h->magic == BLAS_HANDLE_MAGIC;
}

#define BLAS_CHECK_HANDLE(h) do { if (!blas_handle_ok(h)) return CUBLAS_STATUS_NOT_INITIALIZED; } while (0)

static inline npu_cube_op_t blas_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? NPU_OP_N : op == CUBLAS_OP_T ? NPU_OP_T : NPU_OP_C;
}
static inline int blas_op_ok(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C || op == CUBLAS_OP_HERMITAN;
}

#endif
