// NVCC_FLAGS: -lcublas -lcublasLt
// Sweep over every typed cuBLAS entry point this library implements (S/D/C/Z forms of level 1,
// gemv, ger, trsm, geam, dgmm, gemm / gemmBatched / gemmStridedBatched / gemm3m) against a
// complex-double host reference, with strided vectors and padded matrices, in both pointer
// modes. One generic test per operation, instantiated for each type.
#include "blas_util.h"
#include <math.h>

template <typename T> struct TT;
template <> struct TT<float> { typedef float R; static const bool cplx = false; static constexpr double eps = 3e-6; };
template <> struct TT<double> { typedef double R; static const bool cplx = false; static constexpr double eps = 1e-13; };
template <> struct TT<cuComplex> { typedef float R; static const bool cplx = true; static constexpr double eps = 3e-6; };
template <> struct TT<cuDoubleComplex> { typedef double R; static const bool cplx = true; static constexpr double eps = 1e-13; };

static cd tocd(float x) { return cd(x); }
static cd tocd(double x) { return cd(x); }
static cd tocd(cuComplex x) { return cd(x.x, x.y); }
static cd tocd(cuDoubleComplex x) { return cd(x.x, x.y); }
template <typename T> T mk(cd v);
template <> float mk<float>(cd v) { return (float)v.real(); }
template <> double mk<double>(cd v) { return v.real(); }
template <> cuComplex mk<cuComplex>(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
template <> cuDoubleComplex mk<cuDoubleComplex>(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }

template <typename T> static std::vector<T> rvec(size_t n)
{
    std::vector<T> v(n);
    for (auto &x : v) x = mk<T>(TT<T>::cplx ? cd(rnd(), rnd()) : cd(rnd()));
    return v;
}
template <typename T> static std::vector<cd> tocdv(const std::vector<T> &v)
{
    std::vector<cd> r(v.size());
    for (size_t i = 0; i < v.size(); i++) r[i] = tocd(v[i]);
    return r;
}

// ---- overload sets (one per operation) ----
#define OV4(RET, NAME, SIG_S, CALL_S, SIG_D, CALL_D, SIG_C, CALL_C, SIG_Z, CALL_Z) \
    static RET NAME SIG_S { return CALL_S; } static RET NAME SIG_D { return CALL_D; } \
    static RET NAME SIG_C { return CALL_C; } static RET NAME SIG_Z { return CALL_Z; }
typedef cublasHandle_t H;
typedef cublasStatus_t S;
typedef cuComplex C;
typedef cuDoubleComplex Z;
OV4(S, axpy, (H h, int n, const float *a, const float *x, int ix, float *y, int iy), cublasSaxpy(h, n, a, x, ix, y, iy),
    (H h, int n, const double *a, const double *x, int ix, double *y, int iy), cublasDaxpy(h, n, a, x, ix, y, iy),
    (H h, int n, const C *a, const C *x, int ix, C *y, int iy), cublasCaxpy(h, n, a, x, ix, y, iy),
    (H h, int n, const Z *a, const Z *x, int ix, Z *y, int iy), cublasZaxpy(h, n, a, x, ix, y, iy))
OV4(S, scal, (H h, int n, const float *a, float *x, int ix), cublasSscal(h, n, a, x, ix),
    (H h, int n, const double *a, double *x, int ix), cublasDscal(h, n, a, x, ix),
    (H h, int n, const C *a, C *x, int ix), cublasCscal(h, n, a, x, ix),
    (H h, int n, const Z *a, Z *x, int ix), cublasZscal(h, n, a, x, ix))
OV4(S, copy, (H h, int n, const float *x, int ix, float *y, int iy), cublasScopy(h, n, x, ix, y, iy),
    (H h, int n, const double *x, int ix, double *y, int iy), cublasDcopy(h, n, x, ix, y, iy),
    (H h, int n, const C *x, int ix, C *y, int iy), cublasCcopy(h, n, x, ix, y, iy),
    (H h, int n, const Z *x, int ix, Z *y, int iy), cublasZcopy(h, n, x, ix, y, iy))
OV4(S, swap, (H h, int n, float *x, int ix, float *y, int iy), cublasSswap(h, n, x, ix, y, iy),
    (H h, int n, double *x, int ix, double *y, int iy), cublasDswap(h, n, x, ix, y, iy),
    (H h, int n, C *x, int ix, C *y, int iy), cublasCswap(h, n, x, ix, y, iy),
    (H h, int n, Z *x, int ix, Z *y, int iy), cublasZswap(h, n, x, ix, y, iy))
OV4(S, dotu, (H h, int n, const float *x, int ix, const float *y, int iy, float *r), cublasSdot(h, n, x, ix, y, iy, r),
    (H h, int n, const double *x, int ix, const double *y, int iy, double *r), cublasDdot(h, n, x, ix, y, iy, r),
    (H h, int n, const C *x, int ix, const C *y, int iy, C *r), cublasCdotu(h, n, x, ix, y, iy, r),
    (H h, int n, const Z *x, int ix, const Z *y, int iy, Z *r), cublasZdotu(h, n, x, ix, y, iy, r))
OV4(S, nrm2, (H h, int n, const float *x, int ix, float *r), cublasSnrm2(h, n, x, ix, r),
    (H h, int n, const double *x, int ix, double *r), cublasDnrm2(h, n, x, ix, r),
    (H h, int n, const C *x, int ix, float *r), cublasScnrm2(h, n, x, ix, r),
    (H h, int n, const Z *x, int ix, double *r), cublasDznrm2(h, n, x, ix, r))
OV4(S, asum, (H h, int n, const float *x, int ix, float *r), cublasSasum(h, n, x, ix, r),
    (H h, int n, const double *x, int ix, double *r), cublasDasum(h, n, x, ix, r),
    (H h, int n, const C *x, int ix, float *r), cublasScasum(h, n, x, ix, r),
    (H h, int n, const Z *x, int ix, double *r), cublasDzasum(h, n, x, ix, r))
OV4(S, iamax, (H h, int n, const float *x, int ix, int *r), cublasIsamax(h, n, x, ix, r),
    (H h, int n, const double *x, int ix, int *r), cublasIdamax(h, n, x, ix, r),
    (H h, int n, const C *x, int ix, int *r), cublasIcamax(h, n, x, ix, r),
    (H h, int n, const Z *x, int ix, int *r), cublasIzamax(h, n, x, ix, r))
OV4(S, iamin, (H h, int n, const float *x, int ix, int *r), cublasIsamin(h, n, x, ix, r),
    (H h, int n, const double *x, int ix, int *r), cublasIdamin(h, n, x, ix, r),
    (H h, int n, const C *x, int ix, int *r), cublasIcamin(h, n, x, ix, r),
    (H h, int n, const Z *x, int ix, int *r), cublasIzamin(h, n, x, ix, r))
OV4(S, gemv, (H h, cublasOperation_t t, int m, int n, const float *a, const float *A, int lda, const float *x, int ix, const float *b, float *y, int iy),
    cublasSgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy),
    (H h, cublasOperation_t t, int m, int n, const double *a, const double *A, int lda, const double *x, int ix, const double *b, double *y, int iy),
    cublasDgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy),
    (H h, cublasOperation_t t, int m, int n, const C *a, const C *A, int lda, const C *x, int ix, const C *b, C *y, int iy),
    cublasCgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy),
    (H h, cublasOperation_t t, int m, int n, const Z *a, const Z *A, int lda, const Z *x, int ix, const Z *b, Z *y, int iy),
    cublasZgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy))
OV4(S, geru, (H h, int m, int n, const float *a, const float *x, int ix, const float *y, int iy, float *A, int lda), cublasSger(h, m, n, a, x, ix, y, iy, A, lda),
    (H h, int m, int n, const double *a, const double *x, int ix, const double *y, int iy, double *A, int lda), cublasDger(h, m, n, a, x, ix, y, iy, A, lda),
    (H h, int m, int n, const C *a, const C *x, int ix, const C *y, int iy, C *A, int lda), cublasCgeru(h, m, n, a, x, ix, y, iy, A, lda),
    (H h, int m, int n, const Z *a, const Z *x, int ix, const Z *y, int iy, Z *A, int lda), cublasZgeru(h, m, n, a, x, ix, y, iy, A, lda))
OV4(S, trsm, (H h, cublasSideMode_t sd, cublasFillMode_t ul, cublasOperation_t t, cublasDiagType_t dg, int m, int n, const float *a, const float *A, int lda, float *B, int ldb),
    cublasStrsm(h, sd, ul, t, dg, m, n, a, A, lda, B, ldb),
    (H h, cublasSideMode_t sd, cublasFillMode_t ul, cublasOperation_t t, cublasDiagType_t dg, int m, int n, const double *a, const double *A, int lda, double *B, int ldb),
    cublasDtrsm(h, sd, ul, t, dg, m, n, a, A, lda, B, ldb),
    (H h, cublasSideMode_t sd, cublasFillMode_t ul, cublasOperation_t t, cublasDiagType_t dg, int m, int n, const C *a, const C *A, int lda, C *B, int ldb),
    cublasCtrsm(h, sd, ul, t, dg, m, n, a, A, lda, B, ldb),
    (H h, cublasSideMode_t sd, cublasFillMode_t ul, cublasOperation_t t, cublasDiagType_t dg, int m, int n, const Z *a, const Z *A, int lda, Z *B, int ldb),
    cublasZtrsm(h, sd, ul, t, dg, m, n, a, A, lda, B, ldb))
OV4(S, geam, (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const float *a, const float *A, int lda, const float *b, const float *B, int ldb, float *Cm, int ldc),
    cublasSgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, Cm, ldc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const double *a, const double *A, int lda, const double *b, const double *B, int ldb, double *Cm, int ldc),
    cublasDgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, Cm, ldc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const C *a, const C *A, int lda, const C *b, const C *B, int ldb, C *Cm, int ldc),
    cublasCgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, Cm, ldc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const Z *a, const Z *A, int lda, const Z *b, const Z *B, int ldb, Z *Cm, int ldc),
    cublasZgeam(h, ta, tb, m, n, a, A, lda, b, B, ldb, Cm, ldc))
OV4(S, dgmm, (H h, cublasSideMode_t sd, int m, int n, const float *A, int lda, const float *x, int ix, float *Cm, int ldc), cublasSdgmm(h, sd, m, n, A, lda, x, ix, Cm, ldc),
    (H h, cublasSideMode_t sd, int m, int n, const double *A, int lda, const double *x, int ix, double *Cm, int ldc), cublasDdgmm(h, sd, m, n, A, lda, x, ix, Cm, ldc),
    (H h, cublasSideMode_t sd, int m, int n, const C *A, int lda, const C *x, int ix, C *Cm, int ldc), cublasCdgmm(h, sd, m, n, A, lda, x, ix, Cm, ldc),
    (H h, cublasSideMode_t sd, int m, int n, const Z *A, int lda, const Z *x, int ix, Z *Cm, int ldc), cublasZdgmm(h, sd, m, n, A, lda, x, ix, Cm, ldc))
OV4(S, gemmb, (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float *a, const float *const *A, int lda, const float *const *B, int ldb, const float *b, float *const *Cm, int ldc, int bc),
    cublasSgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, Cm, ldc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const double *a, const double *const *A, int lda, const double *const *B, int ldb, const double *b, double *const *Cm, int ldc, int bc),
    cublasDgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, Cm, ldc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const C *a, const C *const *A, int lda, const C *const *B, int ldb, const C *b, C *const *Cm, int ldc, int bc),
    cublasCgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, Cm, ldc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const Z *a, const Z *const *A, int lda, const Z *const *B, int ldb, const Z *b, Z *const *Cm, int ldc, int bc),
    cublasZgemmBatched(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, Cm, ldc, bc))
OV4(S, gemms, (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float *a, const float *A, int lda, long long sa, const float *B, int ldb, long long sb, const float *b, float *Cm, int ldc, long long sc, int bc),
    cublasSgemmStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, Cm, ldc, sc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const double *a, const double *A, int lda, long long sa, const double *B, int ldb, long long sb, const double *b, double *Cm, int ldc, long long sc, int bc),
    cublasDgemmStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, Cm, ldc, sc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const C *a, const C *A, int lda, long long sa, const C *B, int ldb, long long sb, const C *b, C *Cm, int ldc, long long sc, int bc),
    cublasCgemm3mStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, Cm, ldc, sc, bc),
    (H h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const Z *a, const Z *A, int lda, long long sa, const Z *B, int ldb, long long sb, const Z *b, Z *Cm, int ldc, long long sc, int bc),
    cublasZgemmStridedBatched(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, Cm, ldc, sc, bc))

static int g_dev;                 // current pointer mode: scalars passed from device memory

// scalar argument in the current pointer mode (device copies live until the end of the test)
template <typename T> static const T *sc(T v)
{
    static std::vector<void *> keep;
    if (!g_dev) { T *p = new T(v); keep.push_back(p); return p; }
    T *d = dalloc<T>(1);
    CK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice));
    keep.push_back(d);
    return d;
}
// result pointer in the current pointer mode; read() fetches it after a sync
template <typename R> struct Res {
    R host; R *dev = NULL;
    R *ptr() { if (g_dev) { if (!dev) dev = dalloc<R>(1); return dev; } return &host; }
    R read() { if (g_dev) { CK(cudaDeviceSynchronize()); CK(cudaMemcpy(&host, dev, sizeof(R), cudaMemcpyDeviceToHost)); } return host; }
    ~Res() { if (dev) cudaFree(dev); }
};

#define NEAR(g, w, tol, what) CHECK_MSG(std::abs(cd(g) - cd(w)) <= (tol), "%s %s mode %d: (%g,%g) vs (%g,%g)", tname, what, g_dev, \
    cd(g).real(), cd(g).imag(), cd(w).real(), cd(w).imag())

template <typename T> static void test_type(H h, const char *tname)
{
    typedef typename TT<T>::R R;
    const double eps = TT<T>::eps;
    const bool cx = TT<T>::cplx;
    const int n = 40, ix = 2, iy = 3;
    std::vector<T> x = rvec<T>(n * ix), y = rvec<T>(n * iy);
    std::vector<cd> X = tocdv(x), Y = tocdv(y);
    T *dx = upload(x), *dy = upload(y);
    cd al = cx ? cd(0.5, -0.25) : cd(0.75);
    // level 1
    BK(axpy(h, n, sc(mk<T>(al)), dx, ix, dy, iy));
    std::vector<cd> g = tocdv(download(dy, y.size()));
    double err = 0;
    for (int i = 0; i < n * iy; i++) err = fmax(err, std::abs(g[i] - (i % iy ? Y[i] : Y[i] + al * X[i / iy * ix])));
    NEAR(err, 0, eps * 4, "axpy");
    BK(scal(h, n, sc(mk<T>(al)), dy, iy));
    std::vector<cd> g2 = tocdv(download(dy, y.size()));
    err = 0;
    for (int i = 0; i < n * iy; i++) err = fmax(err, std::abs(g2[i] - (i % iy ? g[i] : al * g[i])));
    NEAR(err, 0, eps * 4, "scal");
    {
        Res<T> r;
        BK(dotu(h, n, dx, ix, dy, iy, r.ptr()));
        cd s = 0, sa = 0;
        for (int i = 0; i < n; i++) { s += X[i * ix] * g2[i * iy]; sa += std::abs(X[i * ix] * g2[i * iy]); }
        NEAR(tocd(r.read()), s, eps * (sa.real() + 1) * 4, "dot/dotu");
        Res<R> nr, as;
        BK(nrm2(h, n, dx, ix, nr.ptr()));
        BK(asum(h, n, dx, ix, as.ptr()));
        double ss = 0, aa = 0;
        for (int i = 0; i < n; i++) { ss += std::norm(X[i * ix]); aa += fabs(X[i * ix].real()) + fabs(X[i * ix].imag()); }
        NEAR((double)nr.read(), sqrt(ss), eps * 8 * sqrt(ss), "nrm2");
        NEAR((double)as.read(), aa, eps * 8 * aa, "asum");
        Res<int> imax, imin;
        BK(iamax(h, n, dx, ix, imax.ptr()));
        BK(iamin(h, n, dx, ix, imin.ptr()));
        int wmax = 0, wmin = 0;
        auto mag = [&](int i) { return fabs(X[i * ix].real()) + fabs(X[i * ix].imag()); };
        for (int i = 1; i < n; i++) { if (mag(i) > mag(wmax)) wmax = i; if (mag(i) < mag(wmin)) wmin = i; }
        CHECK_MSG(imax.read() == wmax + 1 && imin.read() == wmin + 1, "%s i*amax/i*amin mode %d", tname, g_dev);
    }
    BK(copy(h, n, dx, ix, dy, iy));
    g = tocdv(download(dy, y.size()));
    err = 0;
    for (int i = 0; i < n; i++) err = fmax(err, std::abs(g[i * iy] - X[i * ix]));
    NEAR(err, 0, 0, "copy");
    std::vector<T> z = rvec<T>(n);
    std::vector<cd> Zc = tocdv(z);
    T *dz = upload(z);
    BK(swap(h, n, dx, ix, dz, 1));
    std::vector<cd> gx = tocdv(download(dx, x.size())), gz = tocdv(download(dz, n));
    err = 0;
    for (int i = 0; i < n; i++) err = fmax(err, std::abs(gx[i * ix] - Zc[i]) + std::abs(gz[i] - X[i * ix]));
    NEAR(err, 0, 0, "swap");
    BK(swap(h, n, dx, ix, dz, 1));      // restore x

    // gemv (N, T, and C for complex), y with a negative increment
    const int m = 17, k = 13, lda = 21;
    std::vector<T> A = rvec<T>(lda * k), v = rvec<T>(64), w = rvec<T>(64);
    std::vector<cd> Ac = tocdv(A), V = tocdv(v), W = tocdv(w);
    T *dA = upload(A), *dv = upload(v);
    for (int t = 0; t < (cx ? 3 : 2); t++) {
        T *dw = upload(w);
        cd be = cx ? cd(0.25, 1) : cd(-0.5);
        BK(gemv(h, (cublasOperation_t)t, m, k, sc(mk<T>(al)), dA, lda, dv, 1, sc(mk<T>(be)), dw, -2));
        std::vector<cd> gw = tocdv(download(dw, 64));
        int ly = t ? k : m, lx = t ? m : k;
        err = 0;
        for (int i = 0; i < ly; i++) {
            cd s = 0;
            for (int p = 0; p < lx; p++) s += opel(Ac, lda, t, i, p) * V[p];
            int yi = (ly - 1 - i) * 2;
            err = fmax(err, std::abs(gw[yi] - (al * s + be * W[yi])));
        }
        NEAR(err, 0, eps * 40, "gemv");
        cudaFree(dw);
    }
    // geru / ger
    {
        T *dA2 = upload(A);
        BK(geru(h, m, k, sc(mk<T>(al)), dv, 1, dx, ix, dA2, lda));
        std::vector<cd> gA = tocdv(download(dA2, A.size()));
        err = 0;
        for (int j = 0; j < k; j++) for (int i = 0; i < lda; i++)
            err = fmax(err, std::abs(gA[i + j * lda] - (i < m ? Ac[i + j * lda] + al * V[i] * X[j * ix] : Ac[i + j * lda])));
        NEAR(err, 0, eps * 8, "ger/geru");
        cudaFree(dA2);
    }
    // trsm: left lower, non-unit, op N / T / C
    for (int t = 0; t < (cx ? 3 : 2); t++) {
        const int mm = 9, nn = 5, la = 11, lb = 10;
        std::vector<T> L(la * mm), B = rvec<T>(lb * nn);
        for (int j = 0; j < mm; j++) for (int i = 0; i < la; i++)
            L[i + j * la] = mk<T>(i == j ? cd(2 + rnd() * 0.5, cx ? 0.3 : 0) : i > j && i < mm ? cd(rnd() * 0.3, cx ? rnd() * 0.3 : 0) : cd(77));
        std::vector<cd> Lc = tocdv(L), Bc = tocdv(B);
        T *dL = upload(L), *dB = upload(B);
        BK(trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, (cublasOperation_t)t, CUBLAS_DIAG_NON_UNIT, mm, nn, sc(mk<T>(al)), dL, la, dB, lb));
        std::vector<cd> Xs = tocdv(download(dB, B.size()));
        err = 0;
        for (int j = 0; j < nn; j++) for (int i = 0; i < mm; i++) {
            cd s = 0;
            for (int p = 0; p < mm; p++) {
                int r = t ? p : i, c2 = t ? i : p;               // op(L)(i,p) = L(r,c2) (conj for C)
                cd lv = r >= c2 ? Lc[r + c2 * la] : cd(0);
                if (t == 2) lv = std::conj(lv);
                s += lv * Xs[p + j * lb];
            }
            err = fmax(err, std::abs(s - al * Bc[i + j * lb]));
        }
        NEAR(err, 0, eps * 40, "trsm");
        cudaFree(dL); cudaFree(dB);
    }
    // geam (op T on A) and dgmm (left)
    {
        const int ldc = 19;
        T *dC = dalloc<T>(ldc * m);
        cd be = cx ? cd(-1, 0.5) : cd(2);
        std::vector<T> Bm = rvec<T>(lda * m);
        std::vector<cd> Bc = tocdv(Bm);
        T *dB = upload(Bm);
        // C (k x m) = al A^T + be B   (A is m x k -> A^T is k x m)
        BK(geam(h, CUBLAS_OP_T, CUBLAS_OP_N, k, m, sc(mk<T>(al)), dA, lda, sc(mk<T>(be)), dB, lda, dC, ldc));
        std::vector<cd> gC = tocdv(download(dC, ldc * m));
        err = 0;
        for (int j = 0; j < m; j++) for (int i = 0; i < k; i++)
            err = fmax(err, std::abs(gC[i + j * ldc] - (al * Ac[j + i * lda] + be * Bc[i + j * lda])));
        NEAR(err, 0, eps * 8, "geam");
        BK(dgmm(h, CUBLAS_SIDE_LEFT, m, k, dA, lda, dx, ix, dC, ldc));
        gC = tocdv(download(dC, ldc * m));
        err = 0;
        for (int j = 0; j < k; j++) for (int i = 0; i < m; i++) err = fmax(err, std::abs(gC[i + j * ldc] - Ac[i + j * lda] * X[i * ix]));
        NEAR(err, 0, eps * 4, "dgmm");
        cudaFree(dC); cudaFree(dB);
    }
    // gemm batched (pointer arrays) and strided batched (complex float: gemm3m form)
    {
        const int bm = 6, bn = 5, bk = 7, bl = 8, batch = 3;
        const long stride = bl * bk + 3;
        std::vector<T> Ab = rvec<T>(stride * batch), Bb = rvec<T>(stride * batch), Cb = rvec<T>(stride * batch);
        std::vector<cd> Abc = tocdv(Ab), Bbc = tocdv(Bb), Cbc = tocdv(Cb);
        T *dAb = upload(Ab), *dBb = upload(Bb), *dCb = upload(Cb), *dCs = upload(Cb);
        std::vector<T *> ptr;
        for (int b = 0; b < batch; b++) ptr.push_back(dAb + b * stride);
        for (int b = 0; b < batch; b++) ptr.push_back(dBb + b * stride);
        for (int b = 0; b < batch; b++) ptr.push_back(dCb + b * stride);
        T **dp = upload(ptr);
        cd be = cx ? cd(0.5, 0.5) : cd(-1);
        cublasOperation_t tb = cx ? CUBLAS_OP_C : CUBLAS_OP_T;
        BK(gemmb(h, CUBLAS_OP_N, tb, bm, bn, bk, sc(mk<T>(al)), (const T *const *)dp, bl, (const T *const *)(dp + batch), bl,
                 sc(mk<T>(be)), dp + 2 * batch, bl, batch));
        BK(gemms(h, CUBLAS_OP_N, tb, bm, bn, bk, sc(mk<T>(al)), dAb, bl, stride, dBb, bl, stride, sc(mk<T>(be)), dCs, bl, stride, batch));
        std::vector<cd> g1 = tocdv(download(dCb, Cb.size())), g2c = tocdv(download(dCs, Cb.size()));
        err = 0;
        for (int b = 0; b < batch; b++) {
            std::vector<cd> a1(Abc.begin() + b * stride, Abc.begin() + (b + 1) * stride), b1(Bbc.begin() + b * stride, Bbc.begin() + (b + 1) * stride),
                c1(Cbc.begin() + b * stride, Cbc.begin() + (b + 1) * stride);
            std::vector<cd> R = ref_gemm(0, cx ? 2 : 1, bm, bn, bk, al, a1, bl, b1, bl, be, c1, bl);
            for (int j = 0; j < bn; j++) for (int i = 0; i < bl; i++) {
                long o = b * stride + i + j * bl;
                cd want = i < bm ? R[i + j * bm] : Cbc[o];
                err = fmax(err, std::abs(g1[o] - want) + std::abs(g2c[o] - want));
            }
        }
        NEAR(err, 0, eps * 16, "gemmBatched/StridedBatched");
        cudaFree(dAb); cudaFree(dBb); cudaFree(dCb); cudaFree(dCs); cudaFree(dp);
    }
    CK(cudaDeviceSynchronize());
    cudaFree(dx); cudaFree(dy); cudaFree(dz); cudaFree(dA); cudaFree(dv);
}

// the real-scalar complex forms: Csscal, Zdscal, Csrot, Zdrot, Crot, Cdotc
static void test_mixed(H h)
{
    const int n = 20;
    std::vector<C> x = rvec<C>(n), y = rvec<C>(n);
    std::vector<cd> X = tocdv(x), Y = tocdv(y);
    C *dx = upload(x), *dy = upload(y);
    float two = 2, c = 0.8f, s = 0.6f;
    BK(cublasCsscal(h, n, &two, dx, 1));
    BK(cublasCsrot(h, n, dx, 1, dy, 1, &c, &s));
    std::vector<cd> gx = tocdv(download(dx, n)), gy = tocdv(download(dy, n));
    double err = 0;
    for (int i = 0; i < n; i++) {
        cd x2 = 2.0 * X[i];
        err = fmax(err, std::abs(gx[i] - (0.8 * x2 + 0.6 * Y[i])) + std::abs(gy[i] - (-0.6 * x2 + 0.8 * Y[i])));
    }
    CHECK_MSG(err < 1e-5, "Csscal/Csrot err %g", err);
    C sc2 = make_cuComplex(0.6f, 0.48f);
    BK(cublasCrot(h, n, dx, 1, dy, 1, &c, &sc2));
    std::vector<cd> hx = tocdv(download(dx, n)), hy = tocdv(download(dy, n));
    err = 0;
    cd S2(0.6, 0.48);
    for (int i = 0; i < n; i++)
        err = fmax(err, std::abs(hx[i] - (0.8 * gx[i] + S2 * gy[i])) + std::abs(hy[i] - (-std::conj(S2) * gx[i] + 0.8 * gy[i])));
    CHECK_MSG(err < 1e-5, "Crot err %g", err);
    C r;
    BK(cublasCdotc(h, n, dx, 1, dy, 1, &r));
    cd sum = 0;
    for (int i = 0; i < n; i++) sum += std::conj(hx[i]) * hy[i];
    CHECK_MSG(std::abs(cd(r.x, r.y) - sum) < 1e-4, "Cdotc");
    std::vector<Z> zx = rvec<Z>(n), zy = rvec<Z>(n);
    Z *dzx = upload(zx), *dzy = upload(zy);
    double dc = 0.6, ds = 0.8, half = 0.5;
    BK(cublasZdscal(h, n, &half, dzx, 1));
    BK(cublasZdrot(h, n, dzx, 1, dzy, 1, &dc, &ds));
    std::vector<cd> zgx = tocdv(download(dzx, n)), zgy = tocdv(download(dzy, n));
    err = 0;
    for (int i = 0; i < n; i++) {
        cd a = 0.5 * tocd(zx[i]), b = tocd(zy[i]);
        err = fmax(err, std::abs(zgx[i] - (0.6 * a + 0.8 * b)) + std::abs(zgy[i] - (-0.8 * a + 0.6 * b)));
    }
    CHECK_MSG(err < 1e-13, "Zdscal/Zdrot err %g", err);
    cudaFree(dx); cudaFree(dy); cudaFree(dzx); cudaFree(dzy);
}

int main()
{
    H h;
    BK(cublasCreate(&h));
    for (g_dev = 0; g_dev < 2; g_dev++) {
        BK(cublasSetPointerMode(h, g_dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
        test_type<float>(h, "S");
        test_type<double>(h, "D");
        test_type<cuComplex>(h, "C");
        test_type<cuDoubleComplex>(h, "Z");
    }
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    test_mixed(h);
    BK(cublasDestroy(h));
    return CHECK_DONE();
}
