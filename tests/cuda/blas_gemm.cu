// NVCC_FLAGS: -lcublas -lcublasLt
// cuBLAS gemm family against a double-precision host reference: S/D/C/Z gemm in every
// transpose (incl. conjugate), non-square with lda > rows and padding left untouched, Hgemm,
// GemmEx type/compute combinations (16F, 16BF, 32F incl. TF32 / FAST_16F / FAST_16BF, 64F,
// 8I -> 32I), batched / strided-batched (typed and Ex), pointer mode device, the _64 form,
// mid-size sgemms (split into column panels by the cube), k = 0 and m = 0, stream ordering with async copies, and cuBLAS's documented bad-input codes.
#include "blas_util.h"

static cd tocd(float x) { return cd(x); }
static cd tocd(double x) { return cd(x); }
static cd tocd(cuComplex x) { return cd(x.x, x.y); }
static cd tocd(cuDoubleComplex x) { return cd(x.x, x.y); }
template <typename T> static T fromcd(cd v);
template <> float fromcd<float>(cd v) { return (float)v.real(); }
template <> double fromcd<double>(cd v) { return v.real(); }
template <> cuComplex fromcd<cuComplex>(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
template <> cuDoubleComplex fromcd<cuDoubleComplex>(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }

static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                           const float *al, const float *A, int lda, const float *B, int ldb, const float *be, float *C, int ldc)
{ return cublasSgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                           const double *al, const double *A, int lda, const double *B, int ldb, const double *be, double *C, int ldc)
{ return cublasDgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                           const cuComplex *al, const cuComplex *A, int lda, const cuComplex *B, int ldb, const cuComplex *be, cuComplex *C, int ldc)
{ return cublasCgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                           const cuDoubleComplex *al, const cuDoubleComplex *A, int lda, const cuDoubleComplex *B, int ldb,
                           const cuDoubleComplex *be, cuDoubleComplex *C, int ldc)
{ return cublasZgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }

static const cublasOperation_t OPS[3] = { CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C };

// typed gemm, every op combination, padding checked
template <typename T> static void test_typed(cublasHandle_t h, bool cplx, double eps, long m = 37, long n = 23, long k = 29)
{
    int nops = cplx ? 3 : 2;
    for (int oa = 0; oa < nops; oa++) for (int ob = 0; ob < nops; ob++) {
        long ar = oa == 0 ? m : k, ac = oa == 0 ? k : m, br = ob == 0 ? k : n, bc = ob == 0 ? n : k;
        long lda = ar + 3, ldb = br + 5, ldc = m + 4;
        std::vector<cd> A(lda * ac), B(ldb * bc), C(ldc * n);
        for (auto &v : A) v = cplx ? cd(rnd(), rnd()) : cd(rnd());
        for (auto &v : B) v = cplx ? cd(rnd(), rnd()) : cd(rnd());
        for (auto &v : C) v = cplx ? cd(rnd(), rnd()) : cd(rnd());
        std::vector<T> hA(A.size()), hB(B.size()), hC(C.size());
        for (size_t i = 0; i < A.size(); i++) { hA[i] = fromcd<T>(A[i]); A[i] = tocd(hA[i]); }
        for (size_t i = 0; i < B.size(); i++) { hB[i] = fromcd<T>(B[i]); B[i] = tocd(hB[i]); }
        for (size_t i = 0; i < C.size(); i++) { hC[i] = fromcd<T>(C[i]); C[i] = tocd(hC[i]); }
        cd alpha = cplx ? cd(0.5, -0.75) : cd(1.25), beta = cplx ? cd(-0.25, 0.5) : cd(-0.5);
        T al = fromcd<T>(alpha), be = fromcd<T>(beta);
        T *dA = upload(hA), *dB = upload(hB), *dC = upload(hC);
        BK(gemm(h, OPS[oa], OPS[ob], m, n, k, &al, dA, lda, dB, ldb, &be, dC, ldc));
        std::vector<T> got = download(dC, hC.size());
        std::vector<cd> R = ref_gemm(oa, ob, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
        std::vector<double> S = ref_absgemm(oa, ob, m, n, k, A, lda, B, ldb);
        int bad = 0, pad = 0;
        for (long j = 0; j < n; j++) for (long i = 0; i < ldc; i++) {
            cd g = tocd(got[i + j * ldc]);
            if (i >= m) { if (g != C[i + j * ldc]) pad++; continue; }
            double tol = eps * (S[i + j * m] * std::abs(alpha) + std::abs(beta * C[i + j * ldc]) + 1);
            if (std::abs(g - R[i + j * m]) > tol) bad++;
        }
        CHECK_MSG(bad == 0 && pad == 0, "%s gemm op %d,%d: %d wrong, %d padding changed",
                  sizeof(T) == 4 ? "S" : sizeof(T) == 16 ? "Z" : cplx ? "C" : "D", oa, ob, bad, pad);
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
    }
}

// GemmEx for one type combination; inputs are generated in the input type so the reference is exact
struct ExCase { cudaDataType at, ct; cublasComputeType_t comp; double rel; const char *name; };

static double load_el(cudaDataType t, const void *p, long i)
{
    switch (t) {
    case CUDA_R_16F: return h2d(((const __half *)p)[i]);
    case CUDA_R_16BF: return b2d(((const __nv_bfloat16 *)p)[i]);
    case CUDA_R_32F: return ((const float *)p)[i];
    case CUDA_R_64F: return ((const double *)p)[i];
    case CUDA_R_8I: return ((const int8_t *)p)[i];
    case CUDA_R_32I: return ((const int32_t *)p)[i];
    default: return 0;
    }
}
static void store_el(cudaDataType t, void *p, long i, double v)
{
    switch (t) {
    case CUDA_R_16F: ((__half *)p)[i] = __float2half((float)v); break;
    case CUDA_R_16BF: ((__nv_bfloat16 *)p)[i] = __float2bfloat16((float)v); break;
    case CUDA_R_32F: ((float *)p)[i] = (float)v; break;
    case CUDA_R_64F: ((double *)p)[i] = v; break;
    case CUDA_R_8I: ((int8_t *)p)[i] = (int8_t)v; break;
    case CUDA_R_32I: ((int32_t *)p)[i] = (int32_t)v; break;
    default: break;
    }
}
static size_t esize(cudaDataType t)
{
    return t == CUDA_R_16F || t == CUDA_R_16BF ? 2 : t == CUDA_R_64F ? 8 : t == CUDA_R_8I ? 1 : 4;
}

static void test_ex(cublasHandle_t h, const ExCase &c, int mode /*0 plain, 1 batched, 2 strided*/)
{
    const bool i8 = c.at == CUDA_R_8I;
    const long m = i8 ? 32 : 33, n = i8 ? 16 : 19, k = i8 ? 64 : 45, batch = mode ? 3 : 1;
    const int oa = i8 ? 1 : 0, ob = i8 ? 0 : 1;     // int8 kernels want A transposed (TN)
    long ar = oa ? k : m, ac = oa ? m : k, br = ob ? n : k, bc = ob ? k : n;
    long lda = ar + (i8 ? 4 : 3), ldb = br + (i8 ? 4 : 1), ldc = m + (i8 ? 4 : 2);
    long sa = lda * ac + 8, sb = ldb * bc + 8, sc = ldc * n + 8;
    size_t ea = esize(c.at), ec = esize(c.ct);
    std::vector<char> hA(sa * batch * ea), hB(sb * batch * ea), hC(sc * batch * ec);
    std::vector<cd> A(sa * batch), B(sb * batch), C(sc * batch);
    for (long i = 0; i < sa * batch; i++) { store_el(c.at, hA.data(), i, i8 ? (double)((int)(rnd() * 127)) : rnd()); A[i] = load_el(c.at, hA.data(), i); }
    for (long i = 0; i < sb * batch; i++) { store_el(c.at, hB.data(), i, i8 ? (double)((int)(rnd() * 127)) : rnd()); B[i] = load_el(c.at, hB.data(), i); }
    for (long i = 0; i < sc * batch; i++) { store_el(c.ct, hC.data(), i, i8 ? (double)((int)(rnd() * 1000)) : rnd()); C[i] = load_el(c.ct, hC.data(), i); }
    double alpha = i8 ? 1 : 0.75, beta = i8 ? 0 : -0.5;
    // scalars in the compute type's scale type
    float af = (float)alpha, bf = (float)beta; double ad = alpha, bd = beta; int32_t ai = (int32_t)alpha, bi = (int32_t)beta;
    __half ah = __float2half(af), bh = __float2half(bf);
    const void *pa = &af, *pb = &bf;
    if (c.comp == CUBLAS_COMPUTE_64F) { pa = &ad; pb = &bd; }
    if (c.comp == CUBLAS_COMPUTE_32I) { pa = &ai; pb = &bi; }
    if (c.comp == CUBLAS_COMPUTE_16F) { pa = &ah; pb = &bh; }
    char *dA = dalloc<char>(hA.size()), *dB = dalloc<char>(hB.size()), *dC = dalloc<char>(hC.size());
    CK(cudaMemcpy(dA, hA.data(), hA.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB.data(), hB.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, hC.data(), hC.size(), cudaMemcpyHostToDevice));
    cublasStatus_t st;
    if (mode == 0) {
        st = cublasGemmEx(h, OPS[oa], OPS[ob], m, n, k, pa, dA, c.at, lda, dB, c.at, ldb, pb, dC, c.ct, ldc, c.comp, CUBLAS_GEMM_DEFAULT);
    } else if (mode == 2) {
        st = cublasGemmStridedBatchedEx(h, OPS[oa], OPS[ob], m, n, k, pa, dA, c.at, lda, sa, dB, c.at, ldb, sb, pb, dC, c.ct, ldc, sc,
                                        batch, c.comp, CUBLAS_GEMM_DEFAULT);
    } else {
        std::vector<void *> ptrs;
        for (long b = 0; b < batch; b++) ptrs.push_back(dA + b * sa * ea);
        for (long b = 0; b < batch; b++) ptrs.push_back(dB + b * sb * ea);
        for (long b = 0; b < batch; b++) ptrs.push_back(dC + b * sc * ec);
        void **dp = upload(ptrs);
        st = cublasGemmBatchedEx(h, OPS[oa], OPS[ob], m, n, k, pa, (const void **)dp, c.at, lda, (const void **)(dp + batch), c.at, ldb,
                                 pb, dp + 2 * batch, c.ct, ldc, batch, c.comp, CUBLAS_GEMM_DEFAULT);
        CK(cudaDeviceSynchronize());
        cudaFree(dp);
    }
    CHECK_MSG(st == CUBLAS_STATUS_SUCCESS, "%s mode %d: status %d", c.name, mode, (int)st);
    std::vector<char> got(hC.size());
    CK(cudaMemcpy(got.data(), dC, got.size(), cudaMemcpyDeviceToHost));
    int bad = 0, pad = 0;
    for (long b = 0; b < batch; b++) {
        std::vector<cd> Ab(A.begin() + b * sa, A.begin() + (b + 1) * sa), Bb(B.begin() + b * sb, B.begin() + (b + 1) * sb),
            Cb(C.begin() + b * sc, C.begin() + (b + 1) * sc);
        std::vector<cd> R = ref_gemm(oa, ob, m, n, k, alpha, Ab, lda, Bb, ldb, beta, Cb, ldc);
        std::vector<double> S = ref_absgemm(oa, ob, m, n, k, Ab, lda, Bb, ldb);
        for (long j = 0; j < n; j++) for (long i = 0; i < ldc; i++) {
            double g = load_el(c.ct, got.data(), b * sc + i + j * ldc);
            if (i >= m) { if (g != Cb[i + j * ldc].real()) pad++; continue; }
            double want = R[i + j * m].real();
            double tol = c.rel * (S[i + j * m] * fabs(alpha) + fabs(beta * Cb[i + j * ldc].real())) + c.rel * fabs(want);
            if (fabs(g - want) > tol + (i8 ? 0 : 1e-6)) bad++;
        }
    }
    CHECK_MSG(bad == 0 && pad == 0, "%s mode %d: %d wrong, %d padding", c.name, mode, bad, pad);
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

static void test_hgemm(cublasHandle_t h)
{
    const int m = 24, n = 20, k = 16, ld = 30;
    std::vector<__half> hA(ld * k), hB(ld * n), hC(ld * n);
    std::vector<cd> A(ld * k), B(ld * n), C(ld * n);
    for (int i = 0; i < ld * k; i++) { hA[i] = __float2half((float)rnd()); A[i] = h2d(hA[i]); }
    for (int i = 0; i < ld * n; i++) { hB[i] = __float2half((float)rnd()); B[i] = h2d(hB[i]); hC[i] = __float2half((float)rnd()); C[i] = h2d(hC[i]); }
    __half al = __float2half(1.5f), be = __float2half(0.25f);
    __half *dA = upload(hA), *dB = upload(hB), *dC = upload(hC);
    BK(cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &al, dA, ld, dB, ld, &be, dC, ld));
    std::vector<__half> got = download(dC, hC.size());
    std::vector<cd> R = ref_gemm(0, 0, m, n, k, 1.5, A, ld, B, ld, 0.25, C, ld);
    std::vector<double> S = ref_absgemm(0, 0, m, n, k, A, ld, B, ld);
    int bad = 0, pad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < ld; i++) {
        if (i >= m) { if (__half_as_ushort(got[i + j * ld]) != __half_as_ushort(hC[i + j * ld])) pad++; continue; }
        if (fabs(h2d(got[i + j * ld]) - R[i + j * m].real()) > 1e-2 * (1.5 * S[i + j * m] + 1)) bad++;
    }
    CHECK_MSG(bad == 0 && pad == 0, "Hgemm: %d wrong, %d padding", bad, pad);
    // strided batched half
    BK(cublasHgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, 8, 8, 8, &al, dA, ld, 8, dB, ld, 8, &be, dC, ld, 8 * ld, 2));
    CK(cudaDeviceSynchronize());
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

// batched / strided typed (S, D) with pointer mode device
static void test_batched_device_scalars(cublasHandle_t h)
{
    const int m = 16, n = 12, k = 20, lda = 20, ldb = 24, ldc = 18, batch = 4;
    const long sa = lda * k + 7, sb = ldb * n + 3, sc = ldc * n + 5;
    std::vector<float> hA(sa * batch), hB(sb * batch), hC(sc * batch);
    for (auto &v : hA) v = (float)rnd();
    for (auto &v : hB) v = (float)rnd();
    for (auto &v : hC) v = (float)rnd();
    float *dA = upload(hA), *dB = upload(hB), *dC = upload(hC), *dC2 = upload(hC);
    std::vector<float> sc_h = { 2.0f, 0.5f };
    float *dS = upload(sc_h);
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    BK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, dS, dA, lda, sa, dB, ldb, sb, dS + 1, dC, ldc, sc, batch));
    std::vector<float *> ptrs;
    for (int b = 0; b < batch; b++) ptrs.push_back(dA + b * sa);
    for (int b = 0; b < batch; b++) ptrs.push_back(dB + b * sb);
    for (int b = 0; b < batch; b++) ptrs.push_back(dC2 + b * sc);
    float **dp = upload(ptrs);
    BK(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, dS, (const float **)dp, lda, (const float **)(dp + batch), ldb,
                          dS + 1, dp + 2 * batch, ldc, batch));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    std::vector<float> g1 = download(dC, hC.size()), g2 = download(dC2, hC.size());
    int bad = 0, pad = 0;
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < n; j++) for (int i = 0; i < ldc; i++) {
            long o = b * sc + i + j * ldc;
            if (i >= m) { if (g1[o] != hC[o] || g2[o] != hC[o]) pad++; continue; }
            double s = 0, a = 0;
            for (int p = 0; p < k; p++) { s += (double)hA[b * sa + i + p * lda] * hB[b * sb + p + j * ldb]; a += fabs((double)hA[b * sa + i + p * lda] * hB[b * sb + p + j * ldb]); }
            double want = 2.0 * s + 0.5 * hC[o], tol = 1e-5 * (2 * a + 1);
            if (fabs(g1[o] - want) > tol || fabs(g2[o] - want) > tol) bad++;
        }
    for (int b = 0; b < batch; b++) for (long i = ldc * n; i < sc; i++) if (g1[b * sc + i] != hC[b * sc + i]) pad++;
    CHECK_MSG(bad == 0 && pad == 0, "batched device scalars: %d wrong, %d padding", bad, pad);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dC2); cudaFree(dS); cudaFree(dp);
}

// async copy in, gemm, async copy out on one stream: ordering must hold
static void test_stream_order(cublasHandle_t h)
{
    const int N = 256;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    float *hA, *hB, *hC;
    CK(cudaMallocHost((void **)&hA, N * N * 4)); CK(cudaMallocHost((void **)&hB, N * N * 4)); CK(cudaMallocHost((void **)&hC, N * N * 4));
    for (int i = 0; i < N * N; i++) { hA[i] = (float)((i % 7) - 3); hB[i] = (float)((i % 5) - 2); hC[i] = -1; }
    float *dA = dalloc<float>(N * N), *dB = dalloc<float>(N * N), *dC = dalloc<float>(N * N);
    CK(cudaMemsetAsync(dC, 0, N * N * 4, s));
    BK(cublasSetStream(h, s));
    cudaStream_t got_s = NULL;
    BK(cublasGetStream(h, &got_s));
    CHECK(got_s == s);
    const float one = 1, zero = 0;
    for (int rep = 0; rep < 3; rep++) {
        CK(cudaMemcpyAsync(dA, hA, N * N * 4, cudaMemcpyHostToDevice, s));
        CK(cudaMemcpyAsync(dB, hB, N * N * 4, cudaMemcpyHostToDevice, s));
        BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, dA, N, dB, N, &zero, dC, N));
        CK(cudaMemcpyAsync(hC, dC, N * N * 4, cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        int bad = 0;
        for (int j = 0; j < N; j += 17) for (int i = 0; i < N; i += 13) {
            double acc = 0;
            for (int p = 0; p < N; p++) acc += (double)hA[i + p * N] * hB[p + j * N];
            if (hC[i + j * N] != (float)acc) bad++;     // small integers: exact
        }
        CHECK_MSG(bad == 0, "stream order rep %d: %d wrong", rep, bad);
        for (int i = 0; i < N * N; i++) hA[i] = -hA[i];  // next rep must see the new input
    }
    BK(cublasSetStream(h, 0));
    CK(cudaStreamDestroy(s));
    cudaFreeHost(hA); cudaFreeHost(hB); cudaFreeHost(hC);
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

static void test_math_modes(cublasHandle_t h)
{
    cublasMath_t mm;
    BK(cublasGetMathMode(h, &mm));
    CHECK(mm == CUBLAS_DEFAULT_MATH);
    const int m = 32, n = 32, k = 64;
    std::vector<float> hA(m * k), hB(k * n);
    std::vector<cd> A(m * k), B(k * n), C(1);
    for (int i = 0; i < m * k; i++) { hA[i] = (float)rnd(); A[i] = hA[i]; }
    for (int i = 0; i < k * n; i++) { hB[i] = (float)rnd(); B[i] = hB[i]; }
    float *dA = upload(hA), *dB = upload(hB), *dC = dalloc<float>(m * n);
    std::vector<cd> R = ref_gemm(0, 0, m, n, k, 1, A, m, B, k, 0, C, 1);
    std::vector<double> S = ref_absgemm(0, 0, m, n, k, A, m, B, k);
    const float one = 1, zero = 0;
    const cublasMath_t modes[3] = { CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_PEDANTIC_MATH, CUBLAS_DEFAULT_MATH };
    const double tols[3] = { 3e-3, 1e-5, 1e-5 };
    for (int t = 0; t < 3; t++) {
        BK(cublasSetMathMode(h, modes[t]));
        BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m, dB, k, &zero, dC, m));
        std::vector<float> g = download(dC, m * n);
        int bad = 0;
        for (int i = 0; i < m * n; i++) if (fabs(g[i] - R[i].real()) > tols[t] * S[i] + 1e-6) bad++;
        CHECK_MSG(bad == 0, "math mode %d: %d wrong", (int)modes[t], bad);
    }
    BKS(cublasSetMathMode(h, (cublasMath_t)0x7777), CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

static void test_edges_and_errors(cublasHandle_t h)
{
    float *d = dalloc<float>(64);
    std::vector<float> init(64, 3.0f);
    CK(cudaMemcpy(d, init.data(), 64 * 4, cudaMemcpyHostToDevice));
    const float one = 1, two = 2;
    // k = 0: C = beta C ; m = 0: nothing
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 0, &one, d, 4, d, 4, &two, d + 32, 4));
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 4, 4, &one, d, 4, d, 4, &two, d, 1));
    std::vector<float> g = download(d, 64);
    CHECK(g[32] == 6.0f && g[47] == 6.0f && g[48] == 3.0f && g[0] == 3.0f);
    // documented checks: INVALID_VALUE, nothing written
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d, 4, d, 4, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, -2, 4, &one, d, 4, d, 4, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, -3, &one, d, 4, d, 4, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 3, d, 4, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 8, 4, 4, &one, d, 3, d, 4, &one, d, 8), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 2, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 3), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(h, (cublasOperation_t)9, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, 16, d, 4, 16, &one, d, 4, 16, -1),
        CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4), CUBLAS_STATUS_NOT_INITIALIZED);
    // unsupported type combinations
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, CUDA_R_16F, 4, d, CUDA_R_32F, 4, &one, d,
                                     CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    CHECK_MSG(st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_INVALID_VALUE, "mixed A/B types -> %d", (int)st);
    st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, CUDA_R_32F, 4, d, CUDA_R_32F, 4, &one, d, CUDA_R_32F, 4,
                      CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
    CHECK_MSG(st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_INVALID_VALUE, "32F with COMPUTE_16F -> %d", (int)st);
    if (on_npu()) {               // past the end of an allocation: a fault on a GPU, refused here
        BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, d, 16, d, 16, &one, d, 16), CUBLAS_STATUS_INVALID_VALUE);
        BKS(cublasSaxpy(h, 1000, &one, d, 1, d, 1), CUBLAS_STATUS_INVALID_VALUE);
        BKS(cublasSgemv(h, CUBLAS_OP_N, 8, 8, &one, d, 16, d, 1, &one, d, 1), CUBLAS_STATUS_INVALID_VALUE);
    }
    CK(cudaDeviceSynchronize());
    g = download(d, 64);
    int changed = 0;
    for (int i = 0; i < 32; i++) changed += g[i] != 3.0f;
    CHECK_MSG(changed == 0, "bad calls wrote %d elements", changed);
    // _64 form
    std::vector<float> a2 = { 1, 2, 3, 4 }, b2 = { 5, 6, 7, 8 };
    float *dA = upload(a2), *dB = upload(b2), *dC = dalloc<float>(4);
    const float zero = 0;
    BK(cublasSgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dA, 2, dB, 2, &zero, dC, 2));
    std::vector<float> c2 = download(dC, 4);
    CHECK(c2[0] == 23 && c2[1] == 34 && c2[2] == 31 && c2[3] == 46);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(d);
}

// grouped batched: two groups of different shapes and ops; a bad group leaves everything untouched
static void test_grouped(cublasHandle_t h)
{
    const int G = 2;
    cublasOperation_t ta[G] = { CUBLAS_OP_N, CUBLAS_OP_T }, tb[G] = { CUBLAS_OP_N, CUBLAS_OP_T };
    int m[G] = { 5, 6 }, n[G] = { 4, 2 }, k[G] = { 3, 7 }, lda[G] = { 6, 8 }, ldb[G] = { 4, 3 }, ldc[G] = { 7, 6 }, gs[G] = { 2, 1 };
    float alpha[G] = { 1.5f, -1.0f }, beta[G] = { 0.0f, 0.5f };
    const int cap = 64;
    std::vector<float> A(3 * cap), B(3 * cap), C(3 * cap);
    for (auto &v : A) v = (float)rnd();
    for (auto &v : B) v = (float)rnd();
    for (auto &v : C) v = (float)rnd();
    float *dA = upload(A), *dB = upload(B), *dC = upload(C);
    std::vector<float *> pa, pb, pc;
    for (int i = 0; i < 3; i++) { pa.push_back(dA + i * cap); pb.push_back(dB + i * cap); pc.push_back(dC + i * cap); }
    float **dpa = upload(pa), **dpb = upload(pb), **dpc = upload(pc);
    int bad_lda[G] = { 6, 1 };
    BKS(cublasSgemmGroupedBatched(h, ta, tb, m, n, k, alpha, (const float **)dpa, bad_lda, (const float **)dpb, ldb, beta, dpc, ldc, G, gs),
        CUBLAS_STATUS_INVALID_VALUE);
    CK(cudaDeviceSynchronize());
    std::vector<float> g0 = download(dC, C.size());
    CHECK(g0 == C);
    BK(cublasSgemmGroupedBatched(h, ta, tb, m, n, k, alpha, (const float **)dpa, lda, (const float **)dpb, ldb, beta, dpc, ldc, G, gs));
    std::vector<float> g = download(dC, C.size());
    int bad = 0, p = 0;
    for (int gi = 0; gi < G; gi++)
        for (int e = 0; e < gs[gi]; e++, p++) {
            int oa = ta[gi] == CUBLAS_OP_N ? 0 : 1, ob = tb[gi] == CUBLAS_OP_N ? 0 : 1;
            std::vector<cd> Ac(A.begin() + p * cap, A.begin() + (p + 1) * cap), Bc(B.begin() + p * cap, B.begin() + (p + 1) * cap),
                Cc(C.begin() + p * cap, C.begin() + (p + 1) * cap);
            std::vector<cd> R = ref_gemm(oa, ob, m[gi], n[gi], k[gi], alpha[gi], Ac, lda[gi], Bc, ldb[gi], beta[gi], Cc, ldc[gi]);
            for (int j = 0; j < n[gi]; j++) for (int i = 0; i < ldc[gi]; i++) {
                float got = g[p * cap + i + j * ldc[gi]];
                double want = i < m[gi] ? R[i + j * m[gi]].real() : C[p * cap + i + j * ldc[gi]];
                if (fabs(got - want) > 1e-5) bad++;
            }
        }
    CHECK_MSG(bad == 0, "SgemmGroupedBatched: %d wrong", bad);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dpa); cudaFree(dpb); cudaFree(dpc);
}

static void test_handles(void)
{
    cublasHandle_t h;
    BK(cublasCreate(&h));
    int ver = 0;
    BK(cublasGetVersion(h, &ver));
    CHECK(ver >= 110000);
    cublasPointerMode_t pm;
    BK(cublasGetPointerMode(h, &pm));
    CHECK(pm == CUBLAS_POINTER_MODE_HOST);
    BKS(cublasSetPointerMode(h, (cublasPointerMode_t)5), CUBLAS_STATUS_INVALID_VALUE);
    CHECK(strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE") == 0);
    CHECK(cublasGetStatusString(CUBLAS_STATUS_SUCCESS) != NULL);
    int major = 0;
    BK(cublasGetProperty(MAJOR_VERSION, &major));
    CHECK(major >= 11);
    void *ws = dalloc<char>(1 << 20);
    BK(cublasSetWorkspace(h, ws, 1 << 20));
    BK(cublasDestroy(h));
    // a destroyed handle is detected (undefined behaviour on a real GPU: only under the NPU)
    if (on_npu()) {
        const float one = 1;
        BKS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, (float *)ws, 1, (float *)ws, 1, &one, (float *)ws, 1),
            CUBLAS_STATUS_NOT_INITIALIZED);
        BKS(cublasDestroy(h), CUBLAS_STATUS_NOT_INITIALIZED);
        BKS(cublasSetStream(h, 0), CUBLAS_STATUS_NOT_INITIALIZED);
    }
    cudaFree(ws);
}

int main()
{
    cublasHandle_t h;
    BK(cublasCreate(&h));
    test_typed<float>(h, false, 2e-6);
    // 2^18 < m*n*k <= 2^22: the cube splits D's columns into panels on the block runners
    test_typed<float>(h, false, 2e-6, 97, 131, 67);
    test_typed<float>(h, false, 2e-6, 200, 33, 100);
    test_typed<double>(h, false, 1e-14);
    test_typed<cuComplex>(h, true, 4e-6);
    test_typed<cuDoubleComplex>(h, true, 1e-14);
    const ExCase cases[] = {
        { CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 1e-3, "16F->16F/32F" },
        { CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-5, "16F->32F/32F" },
        { CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 8e-3, "16BF->16BF/32F" },
        { CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-5, "16BF->32F/32F" },
        { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2e-6, "32F/32F" },
        { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, 2e-6, "32F/32F_PEDANTIC" },
        { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 3e-3, "32F/FAST_TF32" },
        { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F, 3e-3, "32F/FAST_16F" },
        { CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16BF, 2e-2, "32F/FAST_16BF" },
        { CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 1e-14, "64F/64F" },
        { CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, 1e-2, "16F/16F" },
        { CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 0, "8I->32I/32I" },
    };
    for (const ExCase &c : cases)
        for (int mode = 0; mode < 3; mode++) test_ex(h, c, mode);
    test_hgemm(h);
    test_batched_device_scalars(h);
    test_stream_order(h);
    test_math_modes(h);
    test_edges_and_errors(h);
    test_grouped(h);
    BK(cublasDestroy(h));
    test_handles();
    return CHECK_DONE();
}
