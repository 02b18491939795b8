// NVCC_FLAGS: -lcublas -lcublasLt
// cuBLASLt against a double-precision host reference: D = epilogue(alpha op(A) op(B) + beta C
// + bias) with D != C (C untouched), transposes, column- and row-major layouts (also mixed),
// fp32 / fp16 / bf16 types, epilogues RELU / BIAS / RELU_BIAS / GELU / GELU_BIAS, strided
// batches, pointer mode device, heuristics, descriptor attributes, and bad input.
#include "blas_util.h"
#include <math.h>

static double gelu(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

static double ld_t(cudaDataType t, const std::vector<char> &v, long i)
{
    if (t == CUDA_R_16F) return h2d(((const __half *)v.data())[i]);
    if (t == CUDA_R_16BF) return b2d(((const __nv_bfloat16 *)v.data())[i]);
    return ((const float *)v.data())[i];
}
static void st_t(cudaDataType t, std::vector<char> &v, long i, double x)
{
    if (t == CUDA_R_16F) ((__half *)v.data())[i] = __float2half((float)x);
    else if (t == CUDA_R_16BF) ((__nv_bfloat16 *)v.data())[i] = __float2bfloat16((float)x);
    else ((float *)v.data())[i] = (float)x;
}
static size_t es(cudaDataType t) { return t == CUDA_R_32F ? 4 : 2; }

struct LtCase {
    cudaDataType ab, cd;
    int ta, tb;                   // 0 N, 1 T
    int orderA, orderB, orderD;   // 0 COL, 1 ROW
    cublasLtEpilogue_t epi;
    int batch;
    int devptr;
    double tol;
    const char *name;
};

static void run_case(cublasLtHandle_t lt, const LtCase &c)
{
    const long m = 19, n = 13, k = 27;
    long ar = c.ta ? k : m, ac = c.ta ? m : k, br = c.tb ? n : k, bc = c.tb ? k : n;
    // leading dimensions with padding, in the layout's own order
    long lda = (c.orderA ? ac : ar) + 3, ldb = (c.orderB ? bc : br) + 2, ldd = (c.orderD ? n : m) + 4;
    long sizeA = lda * (c.orderA ? ar : ac), sizeB = ldb * (c.orderB ? br : bc), sizeD = ldd * (c.orderD ? m : n);
    long sa = sizeA + 5, sb = sizeB + 3, sd = sizeD + 6;
    int B_ = c.batch;
    std::vector<char> hA(sa * B_ * es(c.ab)), hB(sb * B_ * es(c.ab)), hC(sd * B_ * es(c.cd)), hD(sd * B_ * es(c.cd));
    for (long i = 0; i < sa * B_; i++) st_t(c.ab, hA, i, rnd());
    for (long i = 0; i < sb * B_; i++) st_t(c.ab, hB, i, rnd());
    for (long i = 0; i < sd * B_; i++) { st_t(c.cd, hC, i, rnd()); st_t(c.cd, hD, i, 42.0); }
    std::vector<char> hbias(m * B_ * es(c.cd));
    for (long i = 0; i < m * B_; i++) st_t(c.cd, hbias, i, rnd());
    char *dA = upload(hA), *dB = upload(hB), *dC = upload(hC), *dD = upload(hD), *dbias = upload(hbias);
    // element (i, j) of a stored matrix in its order
    auto at = [](int order, long ld, long i, long j) { return order ? i * ld + j : i + j * ld; };

    cublasLtMatmulDesc_t desc;
    BK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t opa = c.ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = c.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &c.epi, sizeof c.epi));
    bool hasbias = c.epi == CUBLASLT_EPILOGUE_BIAS || c.epi == CUBLASLT_EPILOGUE_RELU_BIAS || c.epi == CUBLASLT_EPILOGUE_GELU_BIAS;
    if (hasbias) {
        BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias, sizeof dbias));
        int64_t bstride = m;
        if (B_ > 1) BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &bstride, sizeof bstride));
    }
    if (c.devptr) {
        cublasLtPointerMode_t pm = CUBLASLT_POINTER_MODE_DEVICE;
        BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, sizeof pm));
    }
    cublasLtMatrixLayout_t la, lb, lc, ld;
    BK(cublasLtMatrixLayoutCreate(&la, c.ab, ar, ac, lda));
    BK(cublasLtMatrixLayoutCreate(&lb, c.ab, br, bc, ldb));
    BK(cublasLtMatrixLayoutCreate(&lc, c.cd, m, n, ldd));
    BK(cublasLtMatrixLayoutCreate(&ld, c.cd, m, n, ldd));
    cublasLtOrder_t row = CUBLASLT_ORDER_ROW;
    if (c.orderA) BK(cublasLtMatrixLayoutSetAttribute(la, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row));
    if (c.orderB) BK(cublasLtMatrixLayoutSetAttribute(lb, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row));
    if (c.orderD) {
        BK(cublasLtMatrixLayoutSetAttribute(lc, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row));
        BK(cublasLtMatrixLayoutSetAttribute(ld, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row));
    }
    if (B_ > 1) {
        int32_t bc32 = B_;
        int64_t strides[3] = { sa, sb, sd };
        cublasLtMatrixLayout_t ls[4] = { la, lb, lc, ld };
        for (int i = 0; i < 4; i++) {
            BK(cublasLtMatrixLayoutSetAttribute(ls[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc32, sizeof bc32));
            BK(cublasLtMatrixLayoutSetAttribute(ls[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &strides[i < 2 ? i : 2], 8));
        }
    }
    cublasLtMatmulPreference_t pref;
    BK(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t ws = 1 << 22;
    BK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    cublasLtMatmulHeuristicResult_t res[4];
    int nres = 0;
    cublasStatus_t hst = cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 4, res, &nres);
    if (hst == CUBLAS_STATUS_NOT_SUPPORTED && !on_npu() && (c.orderA || c.orderB || c.orderD)) {
        printf("%s: row-major layout not supported by this cuBLASLt, skipped\n", c.name);   // real GPUs only
        nres = -1;
    } else {
        BK(hst);
        CHECK_MSG(nres >= 1, "%s: no algorithm", c.name);
    }
    void *work = dalloc<char>(ws);
    float alpha = 0.75f, beta = -0.5f;
    float *dscal = NULL;
    const void *pa = &alpha, *pb = &beta;
    if (c.devptr) {
        std::vector<float> sv = { alpha, beta };
        dscal = upload(sv);
        pa = dscal; pb = dscal + 1;
    }
    if (nres < 0) {
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(lc); cublasLtMatrixLayoutDestroy(ld);
        cublasLtMatmulDescDestroy(desc);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD); cudaFree(dbias); cudaFree(work);
        if (dscal) cudaFree(dscal);
        return;
    }
    if (nres >= 1)
        BK(cublasLtMatmul(lt, desc, pa, dA, la, dB, lb, pb, dC, lc, dD, ld, &res[0].algo, work, ws, 0));
    CK(cudaDeviceSynchronize());
    std::vector<char> gD(hD.size()), gC(hC.size());
    CK(cudaMemcpy(gD.data(), dD, gD.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gC.data(), dC, gC.size(), cudaMemcpyDeviceToHost));
    int bad = 0, pad = 0;
    for (int b = 0; b < B_; b++) {
        for (long i = 0; i < m; i++) for (long j = 0; j < n; j++) {
            double s = 0, sabs = 0;
            for (long p = 0; p < k; p++) {
                double av = c.ta ? ld_t(c.ab, hA, b * sa + at(c.orderA, lda, p, i)) : ld_t(c.ab, hA, b * sa + at(c.orderA, lda, i, p));
                double bv = c.tb ? ld_t(c.ab, hB, b * sb + at(c.orderB, ldb, j, p)) : ld_t(c.ab, hB, b * sb + at(c.orderB, ldb, p, j));
                s += av * bv; sabs += fabs(av * bv);
            }
            long o = b * sd + at(c.orderD, ldd, i, j);
            double v = alpha * s + beta * ld_t(c.cd, hC, o);
            if (hasbias) v += ld_t(c.cd, hbias, b * m + i);
            if (c.epi == CUBLASLT_EPILOGUE_RELU || c.epi == CUBLASLT_EPILOGUE_RELU_BIAS) v = v > 0 ? v : 0;
            if (c.epi == CUBLASLT_EPILOGUE_GELU || c.epi == CUBLASLT_EPILOGUE_GELU_BIAS) v = gelu(v);
            if (fabs(ld_t(c.cd, gD, o) - v) > c.tol * (sabs + fabs(v) + 1)) bad++;
        }
        for (long i = 0; i < sd; i++) {
            long o = b * sd + i;
            bool inside = c.orderD ? (i < sizeD && i % ldd < n) : (i < sizeD && i % ldd < m);
            if (!inside && ld_t(c.cd, gD, o) != 42.0) pad++;
            if (ld_t(c.cd, gC, o) != ld_t(c.cd, hC, o)) pad++;   // C is never written
        }
    }
    CHECK_MSG(bad == 0 && pad == 0, "%s: %d wrong, %d outside writes", c.name, bad, pad);
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc); cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD); cudaFree(dbias); cudaFree(work);
    if (dscal) cudaFree(dscal);
}

static void test_attributes_and_errors(cublasLtHandle_t lt)
{
    cublasLtMatmulDescOpaque_t dop;       // Init form: descriptor in caller memory
    cublasLtMatmulDesc_t desc = &dop;
    BK(cublasLtMatmulDescInit(desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    size_t wr = 0;
    int32_t ct = 0;
    BK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, NULL, 0, &wr));
    CHECK_EQ(wr, sizeof(int32_t));
    BK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &ct, sizeof ct, &wr));
    CHECK_EQ(ct, CUBLAS_COMPUTE_32F);
    uint32_t epi = 0;
    BK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi, &wr));
    CHECK_EQ(epi, CUBLASLT_EPILOGUE_DEFAULT);
    int64_t wrong = 1;
    BKS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &wrong, sizeof wrong), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, NULL, 0, NULL), CUBLAS_STATUS_INVALID_VALUE);
    cublasLtMatrixLayoutOpaque_t lop[3];
    BK(cublasLtMatrixLayoutInit(&lop[0], CUDA_R_32F, 4, 3, 4));
    BK(cublasLtMatrixLayoutInit(&lop[1], CUDA_R_32F, 3, 2, 3));
    BK(cublasLtMatrixLayoutInit(&lop[2], CUDA_R_32F, 4, 2, 4));
    uint64_t rows = 0;
    BK(cublasLtMatrixLayoutGetAttribute(&lop[0], CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof rows, &wr));
    CHECK_EQ(rows, 4);
    // a small product through Init'ed descriptors, algo NULL (library picks)
    std::vector<float> a = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, b = { 1, 0, 1, 0, 1, 0 }, d(8, 0);
    float *dA = upload(a), *dB = upload(b), *dD = upload(d);
    float one = 1, zero = 0;
    BK(cublasLtMatmul(lt, desc, &one, dA, &lop[0], dB, &lop[1], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0));
    std::vector<float> g = download(dD, 8);
    CHECK(g[0] == 1 + 9 && g[3] == 4 + 12 && g[4] == 5 && g[7] == 8);
    // shape mismatch, bad handle, bad counts
    BKS(cublasLtMatmul(lt, desc, &one, dA, &lop[0], dB, &lop[2], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0),
        CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasLtMatmul(NULL, desc, &one, dA, &lop[0], dB, &lop[1], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0),
        CUBLAS_STATUS_NOT_INITIALIZED);
    cublasLtMatmulHeuristicResult_t r;
    int nr = 0;
    cublasLtMatmulPreference_t pref;
    BK(cublasLtMatmulPreferenceCreate(&pref));
    BKS(cublasLtMatmulAlgoGetHeuristic(lt, desc, &lop[0], &lop[1], &lop[2], &lop[2], pref, 0, &r, &nr), CUBLAS_STATUS_INVALID_VALUE);
    // unsupported epilogue (aux output without a pointer) must not succeed
    uint32_t aux = CUBLASLT_EPILOGUE_DRELU;
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &aux, sizeof aux));
    cublasStatus_t st = cublasLtMatmul(lt, desc, &one, dA, &lop[0], dB, &lop[1], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0);
    CHECK(st != CUBLAS_STATUS_SUCCESS);
    CK(cudaDeviceSynchronize());
    g = download(dD, 8);
    CHECK(g[0] == 10);            // untouched by the failed calls
    // BIAS epilogue without a bias pointer
    uint32_t bias_epi = CUBLASLT_EPILOGUE_BIAS;
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &bias_epi, sizeof bias_epi));
    st = cublasLtMatmul(lt, desc, &one, dA, &lop[0], dB, &lop[1], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0);
    CHECK(st != CUBLAS_STATUS_SUCCESS);
    // a cuBLAS handle cast to a cuBLASLt handle is a valid Lt handle (documented)
    uint32_t def = CUBLASLT_EPILOGUE_DEFAULT;
    BK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &def, sizeof def));
    cublasHandle_t bh;
    BK(cublasCreate(&bh));
    float two = 2;
    BK(cublasLtMatmul((cublasLtHandle_t)bh, desc, &two, dA, &lop[0], dB, &lop[1], &zero, dD, &lop[2], dD, &lop[2], NULL, NULL, 0, 0));
    CK(cudaDeviceSynchronize());
    g = download(dD, 8);
    CHECK(g[0] == 20 && g[7] == 16);
    BK(cublasDestroy(bh));
    cublasLtMatmulPreferenceDestroy(pref);
    CHECK(cublasLtGetVersion() > 0);
    CHECK(cublasLtGetCudartVersion() > 0);
    CHECK(strcmp(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED") == 0);
    cudaFree(dA); cudaFree(dB); cudaFree(dD);
}

int main()
{
    cublasLtHandle_t lt;
    BK(cublasLtCreate(&lt));
    const LtCase cases[] = {
        { CUDA_R_32F, CUDA_R_32F, 0, 0, 0, 0, 0, CUBLASLT_EPILOGUE_DEFAULT, 1, 0, 2e-6, "f32 NN col" },
        { CUDA_R_32F, CUDA_R_32F, 1, 0, 0, 0, 0, CUBLASLT_EPILOGUE_DEFAULT, 1, 1, 2e-6, "f32 TN col devptr" },
        { CUDA_R_32F, CUDA_R_32F, 0, 1, 0, 0, 0, CUBLASLT_EPILOGUE_RELU, 1, 0, 2e-6, "f32 NT relu" },
        { CUDA_R_32F, CUDA_R_32F, 1, 1, 1, 1, 1, CUBLASLT_EPILOGUE_BIAS, 1, 0, 2e-6, "f32 TT row bias" },
        { CUDA_R_32F, CUDA_R_32F, 0, 0, 1, 1, 1, CUBLASLT_EPILOGUE_DEFAULT, 3, 0, 2e-6, "f32 NN row batched" },
        { CUDA_R_32F, CUDA_R_32F, 0, 1, 1, 0, 0, CUBLASLT_EPILOGUE_DEFAULT, 1, 0, 2e-6, "f32 NT A-row mixed" },
        { CUDA_R_16F, CUDA_R_16F, 0, 0, 0, 0, 0, CUBLASLT_EPILOGUE_RELU_BIAS, 1, 0, 2e-3, "f16 relu_bias" },
        { CUDA_R_16F, CUDA_R_16F, 1, 0, 0, 0, 0, CUBLASLT_EPILOGUE_GELU, 1, 0, 2e-3, "f16 TN gelu" },
        { CUDA_R_16F, CUDA_R_16F, 0, 1, 0, 0, 0, CUBLASLT_EPILOGUE_GELU_BIAS, 3, 1, 2e-3, "f16 NT gelu_bias batched devptr" },
        { CUDA_R_16F, CUDA_R_16F, 0, 0, 1, 1, 1, CUBLASLT_EPILOGUE_BIAS, 1, 0, 2e-3, "f16 row bias" },
        { CUDA_R_16BF, CUDA_R_16BF, 1, 0, 0, 0, 0, CUBLASLT_EPILOGUE_BIAS, 1, 0, 1.6e-2, "bf16 TN bias" },
    };
    for (const LtCase &c : cases) run_case(lt, c);
    test_attributes_and_errors(lt);
    BK(cublasLtDestroy(lt));
    return CHECK_DONE();
}
