/*
 * cublas_handle.c - cuBLAS v2 handles, settings, versions, status names, the registry of
 * live handles, Set/Get Vector/Matrix (+Async, _64), and the shared submit/scalar helpers.
 *
 * DESIGN
 *   Queues: none of its own. Every BLAS call becomes one work item on the handle's stream
 *   (npu_stream_submit); the stream's worker (or a host thread waiting on the stream) runs it,
 *   so BLAS work is ordered with kernels, copies and events on that stream.
 *   Locks: reg_lock guards only the registry (a uthash set of live cuBLAS and cuBLASLt
 *   handle pointers); it is never held while calling the runtime. A destroyed or garbage
 *   handle is thus detected without dereferencing it (CUBLAS_STATUS_NOT_INITIALIZED).
 *   Work items own a malloc'ed copy of their arguments (scalars captured in host pointer
 *   mode, device-scalar addresses otherwise) and free it in their cleanup.
 *   Completion: stream completion. Calls that return a value to host memory (dot, nrm2 ...
 *   in host pointer mode, Set/Get Vector/Matrix) wait with npu_stream_sync.
 * Measured on this VM: cublasGetPointerMode (check + read) costs 16 ns; a whole async
 * 4x4x4 cublasSgemm call (check, malloc'ed work item, submit) 0.3-0.5 us.
 */
#include "cublas_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* ---------------------------------------------------------------- registry ---- */
typedef struct reg_entry { const void *key; UT_hash_handle hh; } reg_entry_t;
static reg_entry_t *reg_set;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

int blas_registry_add(const void *h)
{
    reg_entry_t *e = malloc(sizeof *e);
    if (!e)
        return 0;
    e->key = h;
    pthread_mutex_lock(&reg_lock);
    HASH_ADD_PTR(reg_set, key, e);
    pthread_mutex_unlock(&reg_lock);
    return 1;
}

void blas_registry_remove(const void *h)
{
    reg_entry_t *e;
    pthread_mutex_lock(&reg_lock);
    HASH_FIND_PTR(reg_set, &h, e);
    if (e)
        HASH_DEL(reg_set, e);
    pthread_mutex_unlock(&reg_lock);
    free(e);
}

int blas_registry_has(const void *h)
{
    reg_entry_t *e;
    if (!h)
        return 0;
    pthread_mutex_lock(&reg_lock);
    HASH_FIND_PTR(reg_set, &h, e);
    pthread_mutex_unlock(&reg_lock);
    return e != NULL;
}

/* ----------------------------------------------------------------- helpers ---- */
int blas_dtype(cudaDataType t)
{
    switch (t) {
    case CUDA_R_16F: return NPU_DT_F16;
    case CUDA_R_16BF: return NPU_DT_BF16;
    case CUDA_R_32F: return NPU_DT_F32;
    case CUDA_R_64F: return NPU_DT_F64;
    case CUDA_C_32F: return NPU_DT_C32;
    case CUDA_C_64F: return NPU_DT_C64;
    case CUDA_R_8I: return NPU_DT_I8;
    case CUDA_R_32I: return NPU_DT_I32;
    default: return -1;
    }
}

static void scalar_read(blas_scalar_t *s, const void *p)
{
    s->v[0] = s->v[1] = 0;
    switch (s->type) {
    case NPU_DT_F16: s->v[0] = npu_f16_to_f32(*(const uint16_t *)p); break;
    case NPU_DT_BF16: s->v[0] = npu_bf16_to_f32(*(const uint16_t *)p); break;
    case NPU_DT_F32: s->v[0] = *(const float *)p; break;
    case NPU_DT_F64: s->v[0] = *(const double *)p; break;
    case NPU_DT_C32: s->v[0] = ((const float *)p)[0]; s->v[1] = ((const float *)p)[1]; break;
    case NPU_DT_C64: s->v[0] = ((const double *)p)[0]; s->v[1] = ((const double *)p)[1]; break;
    case NPU_DT_I32: s->v[0] = *(const int32_t *)p; break;
    case NPU_DT_I8: s->v[0] = *(const int8_t *)p; break;
    default: break;
    }
}

void blas_scalar_capture(blas_scalar_t *s, int device_mode, const void *p, npu_dtype_t t)
{
    s->type = t;
    s->dev = NULL;
    s->v[0] = s->v[1] = 0;
    if (!p)
        return;
    if (device_mode)
        s->dev = p;
    else
        scalar_read(s, p);
}

void blas_scalar_resolve(blas_scalar_t *s)
{
    if (s->dev) {
        scalar_read(s, s->dev);
        s->dev = NULL;
    }
}

int blas_range_ok(const void *p, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                  int64_t batch, size_t es)
{
    if (!p || rows <= 0 || cols <= 0 || batch <= 0 || stride < 0 || ld < 0)
        return 1;
    /* elements from the first to one past the last: (cols-1)*ld + rows, plus the batches */
    uint64_t elems = (uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows;
    elems += (uint64_t)(batch - 1) * (uint64_t)stride;
    if (elems > (uint64_t)INT64_MAX / 16)
        return 0;
    return npu_mem_check_range(p, (size_t)elems * es) == NPU_OK;
}

npu_stream_t *blas_stream(cublasHandle_t h)
{
    int cur = npu_device_current();
    if (cur != h->device)
        npu_device_set_current(h->device);
    npu_stream_t *s = shim_stream(h->stream, 0);
    if (cur != h->device)
        npu_device_set_current(cur);
    return s;
}

cublasStatus_t blas_submit(npu_stream_t *s, npu_work_fn fn, void *arg)
{
    if (!s) {
        free(arg);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    npu_status_t st = npu_stream_submit(s, fn, free, arg);
    if (st != NPU_OK) {
        free(arg);
        return st == NPU_EHANDLE ? CUBLAS_STATUS_INVALID_VALUE : shim_cublas_status(st);
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_wait(npu_stream_t *s)
{
    npu_status_t st = npu_stream_sync(s);
    return st == NPU_OK ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

/* ----------------------------------------------------------------- handles ---- */
NPU_EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    NPU_API_SCOPE(__func__);
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (npu_init() != NPU_OK)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    struct cublasContext *h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = BLAS_HANDLE_MAGIC;
    h->device = npu_device_current();
    h->stream = NULL;
    h->pmode = CUBLAS_POINTER_MODE_HOST;
    h->math = CUBLAS_DEFAULT_MATH;
    h->atomics = CUBLAS_ATOMICS_NOT_ALLOWED;
    if (!blas_registry_add(h)) {
        free(h);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    /* cuBLAS synchronizes before releasing the handle's resources; work already queued
     * carries copies of everything it needs, so waiting is only for the semantics. */
    npu_stream_t *s = blas_stream(handle);
    if (s)
        npu_stream_sync(s);
    blas_registry_remove(handle);
    handle->magic = 0;
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    cudaStream_t old = handle->stream;
    handle->stream = streamId;
    if (!blas_stream(handle)) {
        handle->stream = old;
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    handle->workspace = NULL;       /* cuBLAS: setting a stream resets the user workspace */
    handle->workspace_size = 0;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!streamId)
        return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pmode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pmode;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    unsigned base = (unsigned)mode & 0xf, flags = (unsigned)mode & ~0xfu;
    if (base > CUBLAS_FP32_EMULATED_BF16X9_MATH && base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (flags & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->atomics = mode;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t *mode)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->atomics;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (smCountTarget < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->sm_count_target = smCountTarget;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int *smCountTarget)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!smCountTarget)
        return CUBLAS_STATUS_INVALID_VALUE;
    *smCountTarget = handle->sm_count_target;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (workspaceSizeInBytes && !workspace)
        return CUBLAS_STATUS_INVALID_VALUE;
    /* The cube keeps its own scratch; the user workspace is recorded, never needed. */
    handle->workspace = workspace;
    handle->workspace_size = workspaceSizeInBytes;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- versions ---- */
NPU_EXPORT cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
    NPU_API_SCOPE(__func__);
    BLAS_CHECK_HANDLE(handle);
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

/* legacy cublas.h form, no handle (cublas_v2.h renames the token to the _v2 form) */
#undef cublasGetVersion
NPU_EXPORT cublasStatus_t cublasGetVersion(int *version)
{
    NPU_API_SCOPE(__func__);
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
    NPU_API_SCOPE(__func__);
    if (!value)
        return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT size_t cublasGetCudartVersion(void) { NPU_API_SCOPE(__func__); return CUDART_VERSION; }

static const char *status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}

static const char *status_string(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    default: return "unknown error";
    }
}

NPU_EXPORT const char *cublasGetStatusName(cublasStatus_t status) { NPU_API_SCOPE(__func__); return status_name(status); }
NPU_EXPORT const char *cublasGetStatusString(cublasStatus_t status) { NPU_API_SCOPE(__func__); return status_string(status); }
NPU_EXPORT const char *cublasLtGetStatusName(cublasStatus_t status) { NPU_API_SCOPE(__func__); return status_name(status); }
NPU_EXPORT const char *cublasLtGetStatusString(cublasStatus_t status) { NPU_API_SCOPE(__func__); return status_string(status); }

/* --------------------------------------------------- Set/Get Vector/Matrix ---- */
/* rows x cols elements of elem bytes; column j of the source starts at src + j*lds*elem.
 * A vector with increments is rows = 1, cols = n, ld = inc. */
typedef struct copy_work {
    int64_t rows, cols, elem, lds, ldd;
    const char *src;
    char *dst;
} copy_work_t;

static npu_status_t copy_run(void *arg)
{
    const copy_work_t *w = arg;
    size_t bytes = (size_t)(w->rows * w->elem);
    if (w->rows == w->lds && w->rows == w->ldd) {
        memmove(w->dst, w->src, bytes * (size_t)w->cols);
        return NPU_OK;
    }
    for (int64_t j = 0; j < w->cols; j++)
        memmove(w->dst + (size_t)(j * w->ldd * w->elem), w->src + (size_t)(j * w->lds * w->elem), bytes);
    return NPU_OK;
}

static cublasStatus_t copy_submit(int64_t rows, int64_t cols, int64_t elem, const void *src,
                                  int64_t lds, void *dst, int64_t ldd, cudaStream_t stream, int sync)
{
    if (npu_init() != NPU_OK)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (rows == 0 || cols == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!src || !dst)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!blas_range_ok(src, rows, cols, lds, 0, 1, (size_t)elem) ||
        !blas_range_ok(dst, rows, cols, ldd, 0, 1, (size_t)elem))
        return CUBLAS_STATUS_INVALID_VALUE;
    npu_stream_t *s = shim_stream(stream, 0);
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    copy_work_t *w = malloc(sizeof *w);
    if (!w)
        return CUBLAS_STATUS_ALLOC_FAILED;
    *w = (copy_work_t){ rows, cols, elem, lds, ldd, src, dst };
    cublasStatus_t st = blas_submit(s, copy_run, w);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st == CUBLAS_STATUS_INVALID_VALUE ? CUBLAS_STATUS_MAPPING_ERROR : st;
    if (sync && blas_wait(s) != CUBLAS_STATUS_SUCCESS)
        return CUBLAS_STATUS_MAPPING_ERROR;
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t vector_copy(int64_t n, int64_t elem, const void *x, int64_t incx, void *y,
                                  int64_t incy, cudaStream_t stream, int sync)
{
    if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    return copy_submit(1, n, elem, x, incx, y, incy, stream, sync);
}

static cublasStatus_t matrix_copy(int64_t rows, int64_t cols, int64_t elem, const void *a, int64_t lda,
                                  void *b, int64_t ldb, cudaStream_t stream, int sync)
{
    if (rows < 0 || cols < 0 || elem <= 0 || lda < (rows > 1 ? rows : 1) || ldb < (rows > 1 ? rows : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    return copy_submit(rows, cols, elem, a, lda, b, ldb, stream, sync);
}

NPU_EXPORT cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, x, incx, devicePtr, incy, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasSetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *devicePtr, int64_t incy)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, x, incx, devicePtr, incy, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, x, incx, y, incy, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasGetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx, void *y, int64_t incy)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, x, incx, y, incy, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B, int64_t ldb)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, NULL, 1); }
NPU_EXPORT cublasStatus_t cublasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B, int64_t ldb)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, NULL, 1); }

NPU_EXPORT cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr, int incy, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, hostPtr, incx, devicePtr, incy, stream, 0); }
NPU_EXPORT cublasStatus_t cublasSetVectorAsync_64(int64_t n, int64_t elemSize, const void *hostPtr, int64_t incx, void *devicePtr, int64_t incy, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, hostPtr, incx, devicePtr, incy, stream, 0); }
NPU_EXPORT cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr, int incy, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, devicePtr, incx, hostPtr, incy, stream, 0); }
NPU_EXPORT cublasStatus_t cublasGetVectorAsync_64(int64_t n, int64_t elemSize, const void *devicePtr, int64_t incx, void *hostPtr, int64_t incy, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return vector_copy(n, elemSize, devicePtr, incx, hostPtr, incy, stream, 0); }
NPU_EXPORT cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, stream, 0); }
NPU_EXPORT cublasStatus_t cublasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B, int64_t ldb, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, stream, 0); }
NPU_EXPORT cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, stream, 0); }
NPU_EXPORT cublasStatus_t cublasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A, int64_t lda, void *B, int64_t ldb, cudaStream_t stream)
{ NPU_API_SCOPE(__func__); return matrix_copy(rows, cols, elemSize, A, lda, B, ldb, stream, 0); }
