/*
 * cublasLt_api.c - cuBLASLt on the cube: handle, MatmulDesc, MatrixLayout, MatmulPreference
 * (create / init / destroy / set / get attribute), AlgoGetHeuristic, AlgoGetIds / Init /
 * Check, cublasLtMatmul, versions.
 *
 * Descriptors live in memory the caller may own (the *Init_internal forms place them in a
 * cublasLt*Opaque_t), so each struct fits the opaque size (static asserts) and carries a
 * magic word; a destroyed heap descriptor has its magic cleared.
 *
 * Layout mapping. cuBLASLt matrices may be column- or row-major (CUBLASLT_ORDER_COL/ROW).
 * A row-major r x c matrix with leading dimension ld is the column-major c x r matrix
 * with the same ld, i.e. its transpose. The cube works column-major, so:
 *   - D (and C, which must share D's order) row-major: compute D^T = op(B)^T op(A)^T,
 *     i.e. swap A and B, swap m and n, and the bias runs along columns;
 *   - an operand whose order differs from D's flips its op (N <-> T; a conjugate
 *     transpose would become a conjugate without transpose: NOT_SUPPORTED).
 * Epilogues: DEFAULT, RELU, BIAS, RELU_BIAS, GELU, GELU_BIAS; others NOT_SUPPORTED.
 * The only algorithm is "the cube" (id 0); heuristics return it when the problem is supported.
 */
#include "cublas_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define LT_HANDLE_MAGIC 0x4c54485f4e505531ull   /* "LTH_NPU1" */
#define LT_LAYOUT_MAGIC 0x4c41594fu
#define LT_DESC_MAGIC 0x44455343u
#define LT_PREF_MAGIC 0x50524546u
#define LT_ALGO_MAGIC 0x4e50552d43554245ull     /* "NPU-CUBE" */

struct cublasLtContext {
    uint64_t magic;
    int device;
};

typedef struct lt_layout {
    uint32_t magic;
    uint32_t type;                /* cudaDataType */
    int32_t order;
    int32_t batch;
    uint64_t rows, cols;
    int64_t ld;
    int64_t stride;
    int64_t plane_offset;
    uint32_t batch_mode;
} lt_layout_t;

typedef struct lt_desc {
    uint32_t magic;
    int32_t compute, scale_type, pointer_mode, transa, transb, transc, fill_mode;
    uint32_t epilogue;
    int32_t sm_count, aux_type, bias_type;
    int32_t scale_mode[5];        /* A, B, C, D, AUX scale modes (31..35) */
    int32_t d_out_scale_mode;
    int8_t fast_accum;
    const void *bias;
    void *aux;
    void *a_scale, *b_scale, *c_scale, *d_scale, *amax_d, *aux_scale, *aux_amax, *d_out_scale;
    void *emulation;
    int64_t bias_batch_stride, aux_ld, aux_batch_stride, alpha_vec_batch_stride;
} lt_desc_t;

typedef struct lt_pref {
    uint32_t magic;
    uint32_t search_mode;
    uint64_t max_workspace;
    uint32_t reduction_mask;
    uint32_t align[4];
    float max_waves;
    uint64_t impl_mask;
} lt_pref_t;

_Static_assert(sizeof(lt_layout_t) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout fits");
_Static_assert(sizeof(lt_desc_t) <= sizeof(cublasLtMatmulDescOpaque_t), "desc fits");
_Static_assert(sizeof(lt_pref_t) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "pref fits");

#define LAYOUT(p) ((lt_layout_t *)(void *)(p))
#define DESC(p) ((lt_desc_t *)(void *)(p))
#define PREF(p) ((lt_pref_t *)(void *)(p))

static int layout_ok(const void *p) { return p && LAYOUT(p)->magic == LT_LAYOUT_MAGIC; }
static int desc_ok(const void *p) { return p && DESC(p)->magic == LT_DESC_MAGIC; }
static int pref_ok(const void *p) { return p && PREF(p)->magic == LT_PREF_MAGIC; }

/* An Lt handle, or a cuBLAS handle cast to one (cuBLAS documents that this works). */
static int lt_handle_device(cublasLtHandle_t h, int *dev)
{
    if (!h || !blas_registry_has(h))
        return 0;
    if (((struct cublasLtContext *)h)->magic == LT_HANDLE_MAGIC) {
        *dev = ((struct cublasLtContext *)h)->device;
        return 1;
    }
    cublasHandle_t bh = (cublasHandle_t)(void *)h;
    if (bh->magic == BLAS_HANDLE_MAGIC) {
        *dev = bh->device;
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------- attribute tables ---- */
typedef struct attr_slot { int id; size_t off, size; } attr_slot_t;

static const attr_slot_t *find_slot(const attr_slot_t *t, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].id == id)
            return &t[i];
    return NULL;
}

static cublasStatus_t attr_set(void *obj, const attr_slot_t *t, size_t n, int id, const void *buf, size_t size)
{
    const attr_slot_t *s = find_slot(t, n, id);
    if (!s || !buf || size != s->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy((char *)obj + s->off, buf, size);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t attr_get(const void *obj, const attr_slot_t *t, size_t n, int id, void *buf,
                               size_t size, size_t *written)
{
    const attr_slot_t *s = find_slot(t, n, id);
    if (!s)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size == 0) {
        if (!written)
            return CUBLAS_STATUS_INVALID_VALUE;
        *written = s->size;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || size != s->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, (const char *)obj + s->off, s->size);
    if (written)
        *written = s->size;
    return CUBLAS_STATUS_SUCCESS;
}

#define SLOT(id, T, f) { id, offsetof(T, f), sizeof(((T *)0)->f) }
static const attr_slot_t layout_slots[] = {
    SLOT(CUBLASLT_MATRIX_LAYOUT_TYPE, lt_layout_t, type),
    SLOT(CUBLASLT_MATRIX_LAYOUT_ORDER, lt_layout_t, order),
    SLOT(CUBLASLT_MATRIX_LAYOUT_ROWS, lt_layout_t, rows),
    SLOT(CUBLASLT_MATRIX_LAYOUT_COLS, lt_layout_t, cols),
    SLOT(CUBLASLT_MATRIX_LAYOUT_LD, lt_layout_t, ld),
    SLOT(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, lt_layout_t, batch),
    SLOT(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, lt_layout_t, stride),
    SLOT(CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, lt_layout_t, plane_offset),
    SLOT(CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, lt_layout_t, batch_mode),
};
static const attr_slot_t desc_slots[] = {
    SLOT(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, lt_desc_t, compute),
    SLOT(CUBLASLT_MATMUL_DESC_SCALE_TYPE, lt_desc_t, scale_type),
    SLOT(CUBLASLT_MATMUL_DESC_POINTER_MODE, lt_desc_t, pointer_mode),
    SLOT(CUBLASLT_MATMUL_DESC_TRANSA, lt_desc_t, transa),
    SLOT(CUBLASLT_MATMUL_DESC_TRANSB, lt_desc_t, transb),
    SLOT(CUBLASLT_MATMUL_DESC_TRANSC, lt_desc_t, transc),
    SLOT(CUBLASLT_MATMUL_DESC_FILL_MODE, lt_desc_t, fill_mode),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE, lt_desc_t, epilogue),
    SLOT(CUBLASLT_MATMUL_DESC_BIAS_POINTER, lt_desc_t, bias),
    SLOT(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, lt_desc_t, bias_batch_stride),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, lt_desc_t, aux),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, lt_desc_t, aux_ld),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, lt_desc_t, aux_batch_stride),
    SLOT(CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, lt_desc_t, alpha_vec_batch_stride),
    SLOT(CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, lt_desc_t, sm_count),
    SLOT(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, lt_desc_t, a_scale),
    SLOT(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, lt_desc_t, b_scale),
    SLOT(CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, lt_desc_t, c_scale),
    SLOT(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, lt_desc_t, d_scale),
    SLOT(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, lt_desc_t, amax_d),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, lt_desc_t, aux_type),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, lt_desc_t, aux_scale),
    SLOT(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, lt_desc_t, aux_amax),
    SLOT(CUBLASLT_MATMUL_DESC_FAST_ACCUM, lt_desc_t, fast_accum),
    SLOT(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, lt_desc_t, bias_type),
    { CUBLASLT_MATMUL_DESC_A_SCALE_MODE, offsetof(lt_desc_t, scale_mode) + 0, 4 },
    { CUBLASLT_MATMUL_DESC_B_SCALE_MODE, offsetof(lt_desc_t, scale_mode) + 4, 4 },
    { CUBLASLT_MATMUL_DESC_C_SCALE_MODE, offsetof(lt_desc_t, scale_mode) + 8, 4 },
    { CUBLASLT_MATMUL_DESC_D_SCALE_MODE, offsetof(lt_desc_t, scale_mode) + 12, 4 },
    { CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, offsetof(lt_desc_t, scale_mode) + 16, 4 },
    SLOT(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, lt_desc_t, d_out_scale),
    SLOT(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, lt_desc_t, d_out_scale_mode),
    SLOT(CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, lt_desc_t, emulation),
};
static const attr_slot_t pref_slots[] = {
    SLOT(CUBLASLT_MATMUL_PREF_SEARCH_MODE, lt_pref_t, search_mode),
    SLOT(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, lt_pref_t, max_workspace),
    SLOT(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, lt_pref_t, reduction_mask),
    { CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, offsetof(lt_pref_t, align) + 0, 4 },
    { CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, offsetof(lt_pref_t, align) + 4, 4 },
    { CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, offsetof(lt_pref_t, align) + 8, 4 },
    { CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, offsetof(lt_pref_t, align) + 12, 4 },
    SLOT(CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT, lt_pref_t, max_waves),
    SLOT(CUBLASLT_MATMUL_PREF_IMPL_MASK, lt_pref_t, impl_mask),
};
#define NSLOTS(t) (sizeof(t) / sizeof((t)[0]))

/* ------------------------------------------------------------- handle ---- */
NPU_EXPORT cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle)
{
    NPU_API_SCOPE(__func__);
    if (!lightHandle)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (npu_init() != NPU_OK)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    struct cublasLtContext *h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = LT_HANDLE_MAGIC;
    h->device = npu_device_current();
    if (!blas_registry_add(h)) {
        free(h);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    *lightHandle = h;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev) || lightHandle->magic != LT_HANDLE_MAGIC)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    blas_registry_remove(lightHandle);
    lightHandle->magic = 0;
    free(lightHandle);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT size_t cublasLtGetVersion(void) { NPU_API_SCOPE(__func__); return CUBLAS_VERSION; }
NPU_EXPORT size_t cublasLtGetCudartVersion(void) { NPU_API_SCOPE(__func__); return CUDART_VERSION; }

NPU_EXPORT cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value)
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

/* ------------------------------------------------------------- layout ---- */
static void layout_init(lt_layout_t *l, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld)
{
    memset(l, 0, sizeof *l);
    l->magic = LT_LAYOUT_MAGIC;
    l->type = (uint32_t)type;
    l->order = CUBLASLT_ORDER_COL;
    l->batch = 1;
    l->rows = rows;
    l->cols = cols;
    l->ld = ld;
}

NPU_EXPORT cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size,
                                                            cudaDataType type, uint64_t rows, uint64_t cols,
                                                            int64_t ld)
{
    NPU_API_SCOPE(__func__);
    if (!matLayout)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size < sizeof(lt_layout_t))
        return CUBLAS_STATUS_ALLOC_FAILED;
    layout_init(LAYOUT(matLayout), type, rows, cols, ld);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type,
                                                     uint64_t rows, uint64_t cols, int64_t ld)
{
    NPU_API_SCOPE(__func__);
    if (!matLayout)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatrixLayoutOpaque_t *p = calloc(1, sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    layout_init(LAYOUT(p), type, rows, cols, ld);
    *matLayout = p;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout)
{
    NPU_API_SCOPE(__func__);
    if (!matLayout)
        return CUBLAS_STATUS_SUCCESS;
    if (!layout_ok(matLayout))
        return CUBLAS_STATUS_INVALID_VALUE;
    LAYOUT(matLayout)->magic = 0;
    free(matLayout);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                           cublasLtMatrixLayoutAttribute_t attr,
                                                           const void *buf, size_t sizeInBytes)
{
    NPU_API_SCOPE(__func__);
    if (!layout_ok(matLayout))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_set(matLayout, layout_slots, NSLOTS(layout_slots), attr, buf, sizeInBytes);
}

NPU_EXPORT cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                           cublasLtMatrixLayoutAttribute_t attr,
                                                           void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
    NPU_API_SCOPE(__func__);
    if (!layout_ok(matLayout))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_get(matLayout, layout_slots, NSLOTS(layout_slots), attr, buf, sizeInBytes, sizeWritten);
}

/* --------------------------------------------------------- matmul desc ---- */
static void desc_init(lt_desc_t *d, cublasComputeType_t compute, cudaDataType_t scale)
{
    memset(d, 0, sizeof *d);
    d->magic = LT_DESC_MAGIC;
    d->compute = compute;
    d->scale_type = scale;
    d->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    d->transa = d->transb = d->transc = CUBLAS_OP_N;
    d->fill_mode = CUBLAS_FILL_MODE_FULL;
    d->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    d->bias_type = -1;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                                          cublasComputeType_t computeType, cudaDataType_t scaleType)
{
    NPU_API_SCOPE(__func__);
    if (!matmulDesc)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size < sizeof(lt_desc_t))
        return CUBLAS_STATUS_ALLOC_FAILED;
    desc_init(DESC(matmulDesc), computeType, scaleType);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc,
                                                   cublasComputeType_t computeType, cudaDataType_t scaleType)
{
    NPU_API_SCOPE(__func__);
    if (!matmulDesc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulDescOpaque_t *p = calloc(1, sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    desc_init(DESC(p), computeType, scaleType);
    *matmulDesc = p;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc)
{
    NPU_API_SCOPE(__func__);
    if (!matmulDesc)
        return CUBLAS_STATUS_SUCCESS;
    if (!desc_ok(matmulDesc))
        return CUBLAS_STATUS_INVALID_VALUE;
    DESC(matmulDesc)->magic = 0;
    free(matmulDesc);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                         cublasLtMatmulDescAttributes_t attr,
                                                         const void *buf, size_t sizeInBytes)
{
    NPU_API_SCOPE(__func__);
    if (!desc_ok(matmulDesc))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_set(matmulDesc, desc_slots, NSLOTS(desc_slots), attr, buf, sizeInBytes);
}

NPU_EXPORT cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                         cublasLtMatmulDescAttributes_t attr, void *buf,
                                                         size_t sizeInBytes, size_t *sizeWritten)
{
    NPU_API_SCOPE(__func__);
    if (!desc_ok(matmulDesc))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_get(matmulDesc, desc_slots, NSLOTS(desc_slots), attr, buf, sizeInBytes, sizeWritten);
}

/* --------------------------------------------------------- preference ---- */
static void pref_init(lt_pref_t *p)
{
    memset(p, 0, sizeof *p);
    p->magic = LT_PREF_MAGIC;
    p->search_mode = CUBLASLT_SEARCH_BEST_FIT;
    p->reduction_mask = CUBLASLT_REDUCTION_SCHEME_MASK;
    for (int i = 0; i < 4; i++) p->align[i] = 256;
    p->impl_mask = UINT64_MAX;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size)
{
    NPU_API_SCOPE(__func__);
    if (!pref)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size < sizeof(lt_pref_t))
        return CUBLAS_STATUS_ALLOC_FAILED;
    pref_init(PREF(pref));
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
    NPU_API_SCOPE(__func__);
    if (!pref)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulPreferenceOpaque_t *p = calloc(1, sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    pref_init(PREF(p));
    *pref = p;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)
{
    NPU_API_SCOPE(__func__);
    if (!pref)
        return CUBLAS_STATUS_SUCCESS;
    if (!pref_ok(pref))
        return CUBLAS_STATUS_INVALID_VALUE;
    PREF(pref)->magic = 0;
    free(pref);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                               cublasLtMatmulPreferenceAttributes_t attr,
                                                               const void *buf, size_t sizeInBytes)
{
    NPU_API_SCOPE(__func__);
    if (!pref_ok(pref))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_set(pref, pref_slots, NSLOTS(pref_slots), attr, buf, sizeInBytes);
}

NPU_EXPORT cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                               cublasLtMatmulPreferenceAttributes_t attr,
                                                               void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
    NPU_API_SCOPE(__func__);
    if (!pref_ok(pref))
        return CUBLAS_STATUS_INVALID_VALUE;
    return attr_get(pref, pref_slots, NSLOTS(pref_slots), attr, buf, sizeInBytes, sizeWritten);
}

/* ---------------------------------------------------------- the problem ---- */
/* Builds the cube problem (column-major) from descriptors; pointers may be NULL (heuristics).
 * Returns SUCCESS, INVALID_VALUE or NOT_SUPPORTED. */
static cublasStatus_t lt_build(const lt_desc_t *d, const lt_layout_t *la, const lt_layout_t *lb,
                               const lt_layout_t *lc, const lt_layout_t *ld, const void *A,
                               const void *B, const void *C, void *D, blas_gemm_work_t *w,
                               npu_dtype_t *scalar_out)
{
    memset(w, 0, sizeof *w);
    if (!blas_op_ok(d->transa) || !blas_op_ok(d->transb) || d->transc != CUBLAS_OP_N)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST && d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    const lt_layout_t *ls[4] = { la, lb, lc, ld };
    for (int i = 0; i < 4; i++) {
        if ((ls[i]->order != CUBLASLT_ORDER_COL && ls[i]->order != CUBLASLT_ORDER_ROW) ||
            ls[i]->plane_offset != 0 || ls[i]->batch_mode != 0)
            return CUBLAS_STATUS_NOT_SUPPORTED;
        if (ls[i]->batch < 1)
            return CUBLAS_STATUS_INVALID_VALUE;
        uint64_t lead = ls[i]->order == CUBLASLT_ORDER_COL ? ls[i]->rows : ls[i]->cols;
        if (ls[i]->rows > INT64_MAX / 2 || ls[i]->cols > INT64_MAX / 2 || ls[i]->ld < 1 ||
            (uint64_t)ls[i]->ld < lead)
            return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (lc->order != ld->order || lc->rows != ld->rows || lc->cols != ld->cols)
        return lc->order != ld->order ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_INVALID_VALUE;
    int64_t m = (int64_t)ld->rows, n = (int64_t)ld->cols;
    int64_t k = d->transa == CUBLAS_OP_N ? (int64_t)la->cols : (int64_t)la->rows;
    int64_t am = d->transa == CUBLAS_OP_N ? (int64_t)la->rows : (int64_t)la->cols;
    int64_t bk = d->transb == CUBLAS_OP_N ? (int64_t)lb->rows : (int64_t)lb->cols;
    int64_t bn = d->transb == CUBLAS_OP_N ? (int64_t)lb->cols : (int64_t)lb->rows;
    if (am != m || bk != k || bn != n)
        return CUBLAS_STATUS_INVALID_VALUE;
    int64_t batch = ld->batch;
    if ((la->batch != batch && la->batch != 1) || (lb->batch != batch && lb->batch != 1) || lc->batch != batch)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (C == D && C && (lc->ld != ld->ld || lc->stride != ld->stride))
        return CUBLAS_STATUS_INVALID_VALUE;

    int at = blas_dtype((cudaDataType)la->type), bt = blas_dtype((cudaDataType)lb->type);
    int ct = blas_dtype((cudaDataType)lc->type), dt = blas_dtype((cudaDataType)ld->type);
    if (at < 0 || bt < 0 || ct < 0 || dt < 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    npu_dtype_t scalar;
    if (!blas_compute_map(CUBLAS_DEFAULT_MATH, (cublasComputeType_t)d->compute, (npu_dtype_t)at,
                          &w->g.compute, &w->g.round, &scalar))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    int st = blas_dtype((cudaDataType)d->scale_type);
    if (st < 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    *scalar_out = (npu_dtype_t)st;
    if ((d->compute == CUBLAS_COMPUTE_16F || d->compute == CUBLAS_COMPUTE_16F_PEDANTIC) && dt != NPU_DT_F16)
        return CUBLAS_STATUS_NOT_SUPPORTED;

    unsigned epi = 0;
    switch (d->epilogue) {
    case CUBLASLT_EPILOGUE_DEFAULT: break;
    case CUBLASLT_EPILOGUE_RELU: epi = NPU_CUBE_EPI_RELU; break;
    case CUBLASLT_EPILOGUE_BIAS: epi = NPU_CUBE_EPI_BIAS; break;
    case CUBLASLT_EPILOGUE_RELU_BIAS: epi = NPU_CUBE_EPI_RELU | NPU_CUBE_EPI_BIAS; break;
    case CUBLASLT_EPILOGUE_GELU: epi = NPU_CUBE_EPI_GELU; break;
    case CUBLASLT_EPILOGUE_GELU_BIAS: epi = NPU_CUBE_EPI_GELU | NPU_CUBE_EPI_BIAS; break;
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    w->g.epilogue = epi;
    if (epi & NPU_CUBE_EPI_BIAS) {
        int bty = d->bias_type == -1 ? dt : blas_dtype((cudaDataType)d->bias_type);
        if (bty < 0)
            return CUBLAS_STATUS_NOT_SUPPORTED;
        w->g.bias = d->bias;
        w->g.bias_type = (npu_dtype_t)bty;
        w->g.bias_stride = d->bias_batch_stride;
    }

    /* orientation: see the header comment */
    int drow = ld->order == CUBLASLT_ORDER_ROW;
    npu_cube_op_t opa = blas_op(d->transa), opb = blas_op(d->transb);
    int flip_a = (la->order == CUBLASLT_ORDER_ROW) != drow, flip_b = (lb->order == CUBLASLT_ORDER_ROW) != drow;
    if ((flip_a && opa == NPU_OP_C && (at == NPU_DT_C32 || at == NPU_DT_C64)) ||
        (flip_b && opb == NPU_OP_C && (bt == NPU_DT_C32 || bt == NPU_DT_C64)))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (flip_a) opa = opa == NPU_OP_N ? NPU_OP_T : NPU_OP_N;
    if (flip_b) opb = opb == NPU_OP_N ? NPU_OP_T : NPU_OP_N;
    int64_t sa = la->batch == 1 ? 0 : la->stride, sb = lb->batch == 1 ? 0 : lb->stride;
    if (!drow) {
        w->g.opa = opa; w->g.opb = opb; w->g.m = m; w->g.n = n;
        w->g.atype = (npu_dtype_t)at; w->g.btype = (npu_dtype_t)bt;
        w->g.a = A; w->g.lda = la->ld; w->g.stride_a = sa;
        w->g.b = B; w->g.ldb = lb->ld; w->g.stride_b = sb;
    } else {
        w->g.opa = opb; w->g.opb = opa; w->g.m = n; w->g.n = m;
        w->g.atype = (npu_dtype_t)bt; w->g.btype = (npu_dtype_t)at;
        w->g.a = B; w->g.lda = lb->ld; w->g.stride_a = sb;
        w->g.b = A; w->g.ldb = la->ld; w->g.stride_b = sa;
        w->g.bias_per_col = 1;
    }
    w->g.k = k;
    w->g.ctype = (npu_dtype_t)ct; w->g.dtype = (npu_dtype_t)dt;
    w->g.c = C; w->g.ldc = lc->ld; w->g.stride_c = lc->stride;
    w->g.d = D; w->g.ldd = ld->ld; w->g.stride_d = ld->stride;
    w->g.batch = batch;
    return CUBLAS_STATUS_SUCCESS;
}

/* Type / shape validation for heuristics (no pointers, unit scalars). */
static cublasStatus_t lt_check_problem(const lt_desc_t *d, const lt_layout_t *la, const lt_layout_t *lb,
                                       const lt_layout_t *lc, const lt_layout_t *ld)
{
    blas_gemm_work_t w;
    npu_dtype_t scalar;
    static char dummy[16];
    cublasStatus_t st = lt_build(d, la, lb, lc, ld, dummy, dummy, dummy, dummy, &w, &scalar);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    w.g.alpha[0] = 1;
    w.g.beta[0] = 1;
    if (w.g.epilogue & NPU_CUBE_EPI_BIAS)
        w.g.bias = dummy;
    npu_status_t ns = npu_cube_gemm_check(&w.g);
    return ns == NPU_OK ? CUBLAS_STATUS_SUCCESS : ns == NPU_ENOTSUP ? CUBLAS_STATUS_NOT_SUPPORTED
                                                                    : CUBLAS_STATUS_INVALID_VALUE;
}

static void algo_fill(cublasLtMatmulAlgo_t *algo)
{
    memset(algo, 0, sizeof *algo);
    algo->data[0] = LT_ALGO_MAGIC;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle,
                                                         cublasLtMatmulDesc_t operationDesc,
                                                         cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                                         cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                                         cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                                         cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                                         int *returnAlgoCount)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (requestedAlgoCount <= 0 || !heuristicResultsArray || !returnAlgoCount || !desc_ok(operationDesc) ||
        !layout_ok(Adesc) || !layout_ok(Bdesc) || !layout_ok(Cdesc) || !layout_ok(Ddesc) ||
        (preference && !pref_ok(preference)))
        return CUBLAS_STATUS_INVALID_VALUE;
    *returnAlgoCount = 0;
    cublasStatus_t st = lt_check_problem(DESC(operationDesc), LAYOUT(Adesc), LAYOUT(Bdesc), LAYOUT(Cdesc),
                                         LAYOUT(Ddesc));
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    memset(&heuristicResultsArray[0], 0, sizeof heuristicResultsArray[0]);
    algo_fill(&heuristicResultsArray[0].algo);
    heuristicResultsArray[0].workspaceSize = 0;
    heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
    heuristicResultsArray[0].wavesCount = 1.0f;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                                   cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                                   cudaDataType_t Ctype, cudaDataType_t Dtype, int requestedAlgoCount,
                                                   int algoIdsArray[], int *returnAlgoCount)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (requestedAlgoCount <= 0 || !algoIdsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    algoIdsArray[0] = 0;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                                 cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                                 cudaDataType_t Ctype, cudaDataType_t Dtype, int algoId,
                                                 cublasLtMatmulAlgo_t *algo)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!algo || algoId != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    algo_fill(algo);
    return CUBLAS_STATUS_SUCCESS;
}

NPU_EXPORT cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                                  cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                                  cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                                  const cublasLtMatmulAlgo_t *algo,
                                                  cublasLtMatmulHeuristicResult_t *result)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!algo || !result || !desc_ok(operationDesc) || !layout_ok(Adesc) || !layout_ok(Bdesc) ||
        !layout_ok(Cdesc) || !layout_ok(Ddesc))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (algo->data[0] != LT_ALGO_MAGIC)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasStatus_t st = lt_check_problem(DESC(operationDesc), LAYOUT(Adesc), LAYOUT(Bdesc), LAYOUT(Cdesc),
                                         LAYOUT(Ddesc));
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    memset(result, 0, sizeof *result);
    result->algo = *algo;
    result->state = CUBLAS_STATUS_SUCCESS;
    result->wavesCount = 1.0f;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- matmul ---- */
NPU_EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                         const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                                         const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
                                         const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                                         cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
                                         void *workspace, size_t workspaceSizeInBytes, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    int dev;
    if (!lt_handle_device(lightHandle, &dev))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!desc_ok(computeDesc) || !layout_ok(Adesc) || !layout_ok(Bdesc) || !layout_ok(Ddesc) ||
        (Cdesc && !layout_ok(Cdesc)) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (algo && algo->data[0] != LT_ALGO_MAGIC)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!Cdesc) {                 /* Cdesc may be omitted when C is not used */
        if (C)
            return CUBLAS_STATUS_INVALID_VALUE;
        Cdesc = Ddesc;
    }
    const lt_desc_t *d = DESC(computeDesc);
    blas_gemm_work_t w;
    npu_dtype_t scalar;
    cublasStatus_t st = lt_build(d, LAYOUT(Adesc), LAYOUT(Bdesc), LAYOUT(Cdesc), LAYOUT(Ddesc), A, B, C, D, &w, &scalar);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if ((w.g.epilogue & NPU_CUBE_EPI_BIAS) && !w.g.bias && w.g.m && w.g.n)
        return CUBLAS_STATUS_INVALID_VALUE;
    int devmode = d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
    blas_scalar_capture(&w.alpha, devmode, alpha, scalar);
    blas_scalar_capture(&w.beta, devmode, beta, scalar);
    if (!C && (devmode || !blas_scalar_is_zero(&w.beta)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (w.g.m && w.g.n && w.g.batch && !D)
        return CUBLAS_STATUS_INVALID_VALUE;
    int cur = npu_device_current();
    if (cur != dev)
        npu_device_set_current(dev);
    npu_stream_t *s = shim_stream(stream, 0);
    if (cur != dev)
        npu_device_set_current(cur);
    return blas_gemm_submit(s, &w);
}
