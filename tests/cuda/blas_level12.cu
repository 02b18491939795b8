// NVCC_FLAGS: -lcublas -lcublasLt
// cuBLAS level 1 / level 2 / trsm / geam / dgmm / Set-Get Vector-Matrix against host
// references: positive and negative increments, pointer mode host and device (scalars and
// results), 1-based i*amax / i*amin, quick returns, the _64 forms, and documented bad input.
#include "blas_util.h"
#include <math.h>

static void test_vectors(cublasHandle_t h)
{
    const int n = 301;
    std::vector<float> x(n * 2), y(n * 3);
    for (auto &v : x) v = (float)rnd();
    for (auto &v : y) v = (float)rnd();
    x[2 * 77] = 5.0f; x[2 * 200] = -5.0f;     // iamax: first of two equal |max| -> 78
    x[2 * 150] = 1e-4f;                        // iamin -> 151 (|x| smallest)
    float *dx = upload(x), *dy = upload(y);
    float r = 0;
    double ref = 0;
    // dot with increments 2 and 3
    BK(cublasSdot(h, n, dx, 2, dy, 3, &r));
    ref = 0;
    for (int i = 0; i < n; i++) ref += (double)x[2 * i] * y[3 * i];
    CHECK_NEAR(r, ref, 1e-4);
    BK(cublasSnrm2(h, n, dx, 2, &r));
    ref = 0;
    for (int i = 0; i < n; i++) ref += (double)x[2 * i] * x[2 * i];
    CHECK_NEAR(r, sqrt(ref), 1e-4);
    BK(cublasSasum(h, n, dx, 2, &r));
    ref = 0;
    for (int i = 0; i < n; i++) ref += fabs(x[2 * i]);
    CHECK_NEAR(r, ref, 1e-3);
    int idx = -1;
    BK(cublasIsamax(h, n, dx, 2, &idx));
    CHECK_EQ(idx, 78);
    BK(cublasIsamin(h, n, dx, 2, &idx));
    int want = 1; for (int i = 1; i < n; i++) if (fabs(x[2 * i]) < fabs(x[2 * (want - 1)])) want = i + 1;
    CHECK_EQ(idx, want);
    // quick returns: result 0
    idx = 9; BK(cublasIsamax(h, 0, dx, 1, &idx)); CHECK_EQ(idx, 0);
    idx = 9; BK(cublasIsamax(h, 5, dx, -1, &idx)); CHECK_EQ(idx, 0);
    r = 9; BK(cublasSnrm2(h, 0, dx, 1, &r)); CHECK(r == 0);
    r = 9; BK(cublasSdot(h, -3, dx, 1, dy, 1, &r)); CHECK(r == 0);
    // axpy with negative incx: x is traversed from the end
    float alpha = 0.5f;
    std::vector<float> y0 = y;
    BK(cublasSaxpy(h, n, &alpha, dx, -2, dy, 3));
    std::vector<float> gy = download(dy, y.size());
    int bad = 0;
    for (int i = 0; i < n; i++) if (fabs(gy[3 * i] - (y0[3 * i] + 0.5f * x[2 * (n - 1 - i)])) > 1e-6) bad++;
    for (int i = 0; i < n * 3; i++) if (i % 3 && gy[i] != y0[i]) bad++;
    CHECK_EQ(bad, 0);
    // scal, copy, swap, rot
    CK(cudaMemcpy(dy, y0.data(), y0.size() * 4, cudaMemcpyHostToDevice));
    float s3 = -3;
    BK(cublasSscal(h, n, &s3, dy, 3));
    gy = download(dy, y.size());
    bad = 0;
    for (int i = 0; i < n * 3; i++) if (gy[i] != (i % 3 ? y0[i] : -3 * y0[i])) bad++;
    CHECK_EQ(bad, 0);
    BK(cublasScopy(h, n, dx, 2, dy, 3));
    gy = download(dy, y.size());
    bad = 0;
    for (int i = 0; i < n; i++) if (gy[3 * i] != x[2 * i]) bad++;
    CHECK_EQ(bad, 0);
    std::vector<float> a = { 1, 2, 3 }, b = { 4, 5, 6 };
    float *da = upload(a), *db = upload(b);
    BK(cublasSswap(h, 3, da, 1, db, 1));
    std::vector<float> ga = download(da, 3), gb = download(db, 3);
    CHECK(ga[0] == 4 && ga[2] == 6 && gb[0] == 1 && gb[2] == 3);
    float c = 0.6f, s = 0.8f;
    BK(cublasSrot(h, 3, da, 1, db, 1, &c, &s));
    ga = download(da, 3); gb = download(db, 3);
    CHECK_NEAR(ga[0], 0.6 * 4 + 0.8 * 1, 1e-6); CHECK_NEAR(gb[0], -0.8 * 4 + 0.6 * 1, 1e-6);
    // pointer mode device: scalar and result in device memory, read/written in stream order
    float *dscal = dalloc<float>(4);
    std::vector<float> sv = { 2.0f, 0, 0, 0 };
    CK(cudaMemcpy(dscal, sv.data(), 16, cudaMemcpyHostToDevice));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    BK(cublasSscal(h, 3, dscal, da, 1));
    BK(cublasSdot(h, 3, da, 1, da, 1, dscal + 1));
    int *didx = dalloc<int>(2);
    BK(cublasIsamax(h, 3, da, 1, didx));
    BK(cublasSnrm2(h, 0, da, 1, dscal + 2));          // quick return writes 0 in stream order
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    std::vector<float> gs = download(dscal, 4);
    std::vector<int> gi = download(didx, 1);
    double d0 = 2 * (0.6 * 4 + 0.8 * 1), d1 = 2 * (0.6 * 5 + 0.8 * 2), d2 = 2 * (0.6 * 6 + 0.8 * 3);
    CHECK_NEAR(gs[1], d0 * d0 + d1 * d1 + d2 * d2, 1e-3);
    CHECK_EQ(gi[0], 3);
    CHECK(gs[2] == 0);
    // _64 forms
    int64_t idx64 = 0;
    BK(cublasIsamax_64(h, n, dx, 2, &idx64));
    CHECK_EQ(idx64, 78);
    BK(cublasSdot_64(h, 3, da, 1, da, 1, &r));
    CHECK_NEAR(r, d0 * d0 + d1 * d1 + d2 * d2, 1e-3);
    // bad input
    if (on_npu()) BKS(cublasSdot(h, 3, da, 1, da, 1, NULL), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSaxpy(NULL, 3, &alpha, da, 1, db, 1), CUBLAS_STATUS_NOT_INITIALIZED);
    cudaFree(dx); cudaFree(dy); cudaFree(da); cudaFree(db); cudaFree(dscal); cudaFree(didx);
}

// H of a rotm parameter block: flag, h11, h21, h12, h22
static void rotm_h(const double *p, double H[4])
{
    double f = p[0];
    if (f == -2) { H[0] = 1; H[1] = 0; H[2] = 0; H[3] = 1; }
    else if (f == -1) { H[0] = p[1]; H[1] = p[3]; H[2] = p[2]; H[3] = p[4]; }
    else if (f == 0) { H[0] = 1; H[1] = p[3]; H[2] = p[2]; H[3] = 1; }
    else { H[0] = p[1]; H[1] = 1; H[2] = -1; H[3] = p[4]; }    // H = [H[0] H[1]; H[2] H[3]]
}

static void test_rotg_rotm(cublasHandle_t h)
{
    float a = 3, b = 4, c = 0, s = 0;
    BK(cublasSrotg(h, &a, &b, &c, &s));
    CHECK_NEAR(a, 5, 1e-6); CHECK_NEAR(c, 0.6, 1e-6); CHECK_NEAR(s, 0.8, 1e-6); CHECK_NEAR(b, 1 / 0.6, 1e-5);
    // device pointer mode: all four in device memory
    std::vector<double> v = { -6, 8, 0, 0 };
    double *dv = upload(v);
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    BK(cublasDrotg(h, dv, dv + 1, dv + 2, dv + 3));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    std::vector<double> g = download(dv, 4);
    CHECK_NEAR(g[2] * -6 + g[3] * 8, g[0], 1e-12); CHECK_NEAR(-g[3] * -6 + g[2] * 8, 0, 1e-12); CHECK_NEAR(fabs(g[0]), 10, 1e-12);
    cuDoubleComplex za = make_cuDoubleComplex(1, 1), zb = make_cuDoubleComplex(2, -0.5), zs;
    double zc;
    cd A0(1, 1), B0(2, -0.5);
    BK(cublasZrotg(h, &za, &zb, &zc, &zs));
    cd S(zs.x, zs.y), R(za.x, za.y);
    CHECK_MSG(std::abs(zc * A0 + S * B0 - R) < 1e-12 && std::abs(-std::conj(S) * A0 + zc * B0) < 1e-12, "Zrotg");
    // rotm with a full H, and rotmg whose H zeroes the second component
    const int n = 9;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; i++) { x[i] = rnd(); y[i] = rnd(); }
    double *dx = upload(x), *dy = upload(y);
    double param[5] = { -1, 0.5, -0.25, 2, 1.5 }, H[4];
    BK(cublasDrotm(h, n, dx, 1, dy, 1, param));
    std::vector<double> gx = download(dx, n), gy = download(dy, n);
    rotm_h(param, H);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (fabs(gx[i] - (H[0] * x[i] + H[1] * y[i])) > 1e-12 || fabs(gy[i] - (H[2] * x[i] + H[3] * y[i])) > 1e-12) bad++;
    CHECK_EQ(bad, 0);
    double d1 = 2, d2 = 3, x1 = 1.5, y1 = -0.75, p[5];
    BK(cublasDrotmg(h, &d1, &d2, &x1, &y1, p));
    rotm_h(p, H);
    CHECK_NEAR(H[2] * 1.5 + H[3] * -0.75, 0, 1e-12);
    CHECK_NEAR(H[0] * 1.5 + H[1] * -0.75, x1, 1e-12);
    cudaFree(dv); cudaFree(dx); cudaFree(dy);
}

static void test_complex_double_l1(cublasHandle_t h)
{
    const int n = 50;
    std::vector<cuDoubleComplex> x(n), y(n);
    for (auto &v : x) v = make_cuDoubleComplex(rnd(), rnd());
    for (auto &v : y) v = make_cuDoubleComplex(rnd(), rnd());
    cuDoubleComplex *dx = upload(x), *dy = upload(y);
    cuDoubleComplex ru, rc;
    BK(cublasZdotu(h, n, dx, 1, dy, 1, &ru));
    BK(cublasZdotc(h, n, dx, 1, dy, 1, &rc));
    cd su = 0, sc = 0;
    for (int i = 0; i < n; i++) { cd a(x[i].x, x[i].y), b(y[i].x, y[i].y); su += a * b; sc += std::conj(a) * b; }
    CHECK_NEAR(ru.x, su.real(), 1e-12); CHECK_NEAR(ru.y, su.imag(), 1e-12);
    CHECK_NEAR(rc.x, sc.real(), 1e-12); CHECK_NEAR(rc.y, sc.imag(), 1e-12);
    double nr;
    BK(cublasDznrm2(h, n, dx, 1, &nr));
    double ss = 0; for (int i = 0; i < n; i++) ss += x[i].x * x[i].x + x[i].y * x[i].y;
    CHECK_NEAR(nr, sqrt(ss), 1e-12);
    BK(cublasDzasum(h, n, dx, 1, &nr));
    ss = 0; for (int i = 0; i < n; i++) ss += fabs(x[i].x) + fabs(x[i].y);
    CHECK_NEAR(nr, ss, 1e-12);
    int idx;
    BK(cublasIzamax(h, n, dx, 1, &idx));
    int want = 1; for (int i = 0; i < n; i++) if (fabs(x[i].x) + fabs(x[i].y) > fabs(x[want - 1].x) + fabs(x[want - 1].y)) want = i + 1;
    CHECK_EQ(idx, want);
    // complex rot with complex s, and Zdscal / Zscal / Zaxpy
    double c = 0.6; cuDoubleComplex s = make_cuDoubleComplex(0.48, 0.64);
    BK(cublasZrot(h, n, dx, 1, dy, 1, &c, &s));
    std::vector<cuDoubleComplex> gx = download(dx, n), gy = download(dy, n);
    int bad = 0;
    cd S(s.x, s.y);
    for (int i = 0; i < n; i++) {
        cd a(x[i].x, x[i].y), b(y[i].x, y[i].y), xa = c * a + S * b, yb = -std::conj(S) * a + c * b;
        if (std::abs(cd(gx[i].x, gx[i].y) - xa) > 1e-12 || std::abs(cd(gy[i].x, gy[i].y) - yb) > 1e-12) bad++;
    }
    CHECK_EQ(bad, 0);
    cuDoubleComplex al = make_cuDoubleComplex(0.5, -1);
    BK(cublasZaxpy(h, n, &al, dx, 1, dy, 1));
    double two = 2;
    BK(cublasZdscal(h, n, &two, dy, 1));
    std::vector<cuDoubleComplex> gy2 = download(dy, n);
    bad = 0;
    for (int i = 0; i < n; i++) {
        cd w = 2.0 * (cd(gy[i].x, gy[i].y) + cd(0.5, -1) * cd(gx[i].x, gx[i].y));
        if (std::abs(cd(gy2[i].x, gy2[i].y) - w) > 1e-12) bad++;
    }
    CHECK_EQ(bad, 0);
    cudaFree(dx); cudaFree(dy);
}

static void test_gemv_ger(cublasHandle_t h)
{
    const int m = 29, n = 17, lda = 33;
    for (int tr = 0; tr < 2; tr++) {
        std::vector<double> A(lda * n), x(64), y(64);
        for (auto &v : A) v = rnd();
        for (auto &v : x) v = rnd();
        for (auto &v : y) v = rnd();
        double *dA = upload(A), *dx = upload(x), *dy = upload(y);
        double al = 1.5, be = -0.5;
        int lx = tr ? m : n, ly = tr ? n : m;
        BK(cublasDgemv(h, tr ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &al, dA, lda, dx, 2, &be, dy, -1));
        std::vector<double> gy = download(dy, 64);
        int bad = 0;
        for (int i = 0; i < ly; i++) {
            double s = 0;
            for (int p = 0; p < lx; p++) s += (tr ? A[p + i * lda] : A[i + p * lda]) * x[2 * p];
            int yi = ly - 1 - i;                       // incy = -1: reversed
            if (fabs(gy[yi] - (1.5 * s - 0.5 * y[yi])) > 1e-12) bad++;
        }
        for (int i = ly; i < 64; i++) if (gy[i] != y[i]) bad++;
        CHECK_MSG(bad == 0, "Dgemv trans %d: %d wrong", tr, bad);
        cudaFree(dA); cudaFree(dx); cudaFree(dy);
    }
    // Sger and Cgerc
    std::vector<float> A(lda * n), x(m), y(n);
    for (auto &v : A) v = (float)rnd();
    for (auto &v : x) v = (float)rnd();
    for (auto &v : y) v = (float)rnd();
    float *dA = upload(A), *dx = upload(x), *dy = upload(y), al = -2;
    BK(cublasSger(h, m, n, &al, dx, 1, dy, 1, dA, lda));
    std::vector<float> gA = download(dA, A.size());
    int bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < lda; i++) {
        double w = i < m ? A[i + j * lda] - 2.0 * x[i] * y[j] : A[i + j * lda];
        if (fabs(gA[i + j * lda] - w) > 1e-5) bad++;
    }
    CHECK_EQ(bad, 0);
    std::vector<cuComplex> cA(lda * n), cx(m), cy(n);
    for (auto &v : cA) v = make_cuComplex((float)rnd(), (float)rnd());
    for (auto &v : cx) v = make_cuComplex((float)rnd(), (float)rnd());
    for (auto &v : cy) v = make_cuComplex((float)rnd(), (float)rnd());
    cuComplex *dcA = upload(cA), *dcx = upload(cx), *dcy = upload(cy), cal = make_cuComplex(1, 1);
    BK(cublasCgerc(h, m, n, &cal, dcx, 1, dcy, 1, dcA, lda));
    std::vector<cuComplex> gcA = download(dcA, cA.size());
    bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) {
        cd w = cd(cA[i + j * lda].x, cA[i + j * lda].y) + cd(1, 1) * cd(cx[i].x, cx[i].y) * std::conj(cd(cy[j].x, cy[j].y));
        if (std::abs(cd(gcA[i + j * lda].x, gcA[i + j * lda].y) - w) > 1e-5) bad++;
    }
    CHECK_EQ(bad, 0);
    // bad input
    BKS(cublasSgemv(h, CUBLAS_OP_N, m, n, &al, dA, m - 1, dx, 1, &al, dy, 1), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSgemv(h, CUBLAS_OP_N, m, n, &al, dA, lda, dx, 0, &al, dy, 1), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSger(h, -1, n, &al, dx, 1, dy, 1, dA, lda), CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dcA); cudaFree(dcx); cudaFree(dcy);
}

static void test_gemv_batched(cublasHandle_t h)
{
    const int m = 13, n = 9, lda = 15, batch = 3;
    const long sa = lda * n + 4, sx = 40, sy = 45;
    std::vector<float> A(sa * batch), x(sx * batch), y(sy * batch);
    for (auto &v : A) v = (float)rnd();
    for (auto &v : x) v = (float)rnd();
    for (auto &v : y) v = (float)rnd();
    // S strided, trans T, incx 2, incy -3
    {
        float *dA = upload(A), *dx = upload(x), *dy = upload(y), al = 1.5f, be = -0.5f;
        BK(cublasSgemvStridedBatched(h, CUBLAS_OP_T, m, n, &al, dA, lda, sa, dx, 2, sx, &be, dy, -3, sy, batch));
        std::vector<float> g = download(dy, y.size());
        int bad = 0;
        for (int b = 0; b < batch; b++) for (int i = 0; i < n; i++) {
            double s = 0;
            for (int p = 0; p < m; p++) s += (double)A[b * sa + p + i * lda] * x[b * sx + 2 * p];
            long yi = b * sy + (n - 1 - i) * 3;
            if (fabs(g[yi] - (1.5 * s - 0.5 * y[yi])) > 1e-5) bad++;
        }
        CHECK_MSG(bad == 0, "SgemvStridedBatched: %d wrong", bad);
        cudaFree(dA); cudaFree(dx); cudaFree(dy);
    }
    // Z pointer arrays, conjugate transpose
    {
        std::vector<cuDoubleComplex> zA(lda * n * batch), zx(m * batch), zy(n * batch);
        for (auto &v : zA) v = make_cuDoubleComplex(rnd(), rnd());
        for (auto &v : zx) v = make_cuDoubleComplex(rnd(), rnd());
        for (auto &v : zy) v = make_cuDoubleComplex(rnd(), rnd());
        cuDoubleComplex *dA = upload(zA), *dx = upload(zx), *dy = upload(zy);
        std::vector<cuDoubleComplex *> p;
        for (int b = 0; b < batch; b++) p.push_back(dA + b * lda * n);
        for (int b = 0; b < batch; b++) p.push_back(dx + b * m);
        for (int b = 0; b < batch; b++) p.push_back(dy + b * n);
        cuDoubleComplex **dp = upload(p);
        cuDoubleComplex al = make_cuDoubleComplex(0, 1), be = make_cuDoubleComplex(1, 0);
        BK(cublasZgemvBatched(h, CUBLAS_OP_C, m, n, &al, (const cuDoubleComplex **)dp, lda, (const cuDoubleComplex **)(dp + batch), 1,
                              &be, dp + 2 * batch, 1, batch));
        std::vector<cuDoubleComplex> g = download(dy, zy.size());
        int bad = 0;
        for (int b = 0; b < batch; b++) for (int i = 0; i < n; i++) {
            cd s = 0;
            for (int q = 0; q < m; q++) {
                const cuDoubleComplex &a = zA[b * lda * n + q + i * lda], &xv = zx[b * m + q];
                s += std::conj(cd(a.x, a.y)) * cd(xv.x, xv.y);
            }
            cd want = cd(0, 1) * s + cd(zy[b * n + i].x, zy[b * n + i].y);
            if (std::abs(cd(g[b * n + i].x, g[b * n + i].y) - want) > 1e-12) bad++;
        }
        CHECK_MSG(bad == 0, "ZgemvBatched: %d wrong", bad);
        cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dp);
    }
    // HSH strided (fp16 in and out) and TSS pointer arrays (bf16 in, fp32 out), trans N
    {
        std::vector<__half> hA(sa * batch), hx(sx * batch), hy(sy * batch);
        std::vector<__nv_bfloat16> bA(sa * batch), bx(sx * batch);
        for (long i = 0; i < sa * batch; i++) { hA[i] = __float2half(A[i]); bA[i] = __float2bfloat16(A[i]); }
        for (long i = 0; i < sx * batch; i++) { hx[i] = __float2half(x[i]); bx[i] = __float2bfloat16(x[i]); }
        for (long i = 0; i < sy * batch; i++) hy[i] = __float2half(y[i]);
        __half *dA = upload(hA), *dx = upload(hx), *dy = upload(hy);
        __nv_bfloat16 *dbA = upload(bA), *dbx = upload(bx);
        float *dfy = upload(y);
        float al = 0.5f, be = 2.0f;
        BK(cublasHSHgemvStridedBatched(h, CUBLAS_OP_N, m, n, &al, dA, lda, sa, dx, 3, sx, &be, dy, 2, sy, batch));
        std::vector<const __nv_bfloat16 *> pa, px;
        std::vector<float *> py;
        for (int b = 0; b < batch; b++) { pa.push_back(dbA + b * sa); px.push_back(dbx + b * sx); py.push_back(dfy + b * sy); }
        const __nv_bfloat16 **dpa = upload(pa), **dpx = upload(px);
        float **dpy = upload(py);
        BK(cublasTSSgemvBatched(h, CUBLAS_OP_N, m, n, &al, dpa, lda, dpx, 3, &be, dpy, 2, batch));
        std::vector<__half> gh = download(dy, hy.size());
        std::vector<float> gf = download(dfy, y.size());
        int bad = 0;
        for (int b = 0; b < batch; b++) for (int i = 0; i < m; i++) {
            double s1 = 0, s2 = 0, a1 = 0;
            for (int p = 0; p < n; p++) {
                s1 += h2d(hA[b * sa + i + p * lda]) * h2d(hx[b * sx + 3 * p]);
                s2 += b2d(bA[b * sa + i + p * lda]) * b2d(bx[b * sx + 3 * p]);
                a1 += fabs(h2d(hA[b * sa + i + p * lda]) * h2d(hx[b * sx + 3 * p]));
            }
            long yi = b * sy + 2 * i;
            double w1 = 0.5 * s1 + 2 * h2d(hy[yi]), w2 = 0.5 * s2 + 2 * y[yi];
            if (fabs(h2d(gh[yi]) - w1) > 2e-3 * (a1 + fabs(w1) + 1)) bad++;
            if (fabs(gf[yi] - w2) > 1e-5 * (a1 + fabs(w2) + 1)) bad++;
        }
        for (int b = 0; b < batch; b++) for (int i = 1; i < 2 * m; i += 2)
            if (__half_as_ushort(gh[b * sy + i]) != __half_as_ushort(hy[b * sy + i]) || gf[b * sy + i] != y[b * sy + i]) bad++;
        CHECK_MSG(bad == 0, "HSH / TSS gemv batched: %d wrong", bad);
        cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dbA); cudaFree(dbx); cudaFree(dfy);
        cudaFree(dpa); cudaFree(dpx); cudaFree(dpy);
    }
}

static void test_ex_level1(cublasHandle_t h)
{
    const int n = 64;
    std::vector<__half> hx(n * 2), hy(n);
    std::vector<double> X(n * 2), Y(n);
    for (int i = 0; i < 2 * n; i++) { hx[i] = __float2half((float)rnd()); X[i] = h2d(hx[i]); }
    for (int i = 0; i < n; i++) { hy[i] = __float2half((float)rnd()); Y[i] = h2d(hy[i]); }
    __half *dx = upload(hx), *dy = upload(hy);
    __half r16;
    BK(cublasDotEx(h, n, dx, CUDA_R_16F, 2, dy, CUDA_R_16F, 1, &r16, CUDA_R_16F, CUDA_R_32F));
    double s = 0, sa = 0;
    for (int i = 0; i < n; i++) { s += X[2 * i] * Y[i]; sa += fabs(X[2 * i] * Y[i]); }
    CHECK_NEAR(h2d(r16), s, 1e-3 * (sa + fabs(s)));
    float rf;
    BK(cublasNrm2Ex(h, n, dx, CUDA_R_16F, 2, &r16, CUDA_R_16F, CUDA_R_32F));
    s = 0; for (int i = 0; i < n; i++) s += X[2 * i] * X[2 * i];
    CHECK_NEAR(h2d(r16), sqrt(s), 1e-3 * sqrt(s));
    float al = 0.5f;
    BK(cublasAxpyEx(h, n, &al, CUDA_R_32F, dx, CUDA_R_16F, 2, dy, CUDA_R_16F, 1, CUDA_R_32F));
    std::vector<__half> gy = download(dy, n);
    int bad = 0;
    for (int i = 0; i < n; i++) if (fabs(h2d(gy[i]) - (Y[i] + 0.5 * X[2 * i])) > 1e-3 * (1 + fabs(Y[i]))) bad++;
    CHECK_EQ(bad, 0);
    float three = 3;
    BK(cublasScalEx(h, n, &three, CUDA_R_32F, dy, CUDA_R_16F, 1, CUDA_R_32F));
    std::vector<__half> gy2 = download(dy, n);
    bad = 0;
    for (int i = 0; i < n; i++) if (fabs(h2d(gy2[i]) - 3 * h2d(gy[i])) > 2e-3 * (1 + fabs(3 * h2d(gy[i])))) bad++;
    CHECK_EQ(bad, 0);
    // fp32 and complex forms; result in device memory
    std::vector<float> fx(n), fy(n);
    for (int i = 0; i < n; i++) { fx[i] = (float)rnd(); fy[i] = (float)rnd(); }
    float *dfx = upload(fx), *dfy = upload(fy), *dres = dalloc<float>(2);
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    BK(cublasDotEx(h, n, dfx, CUDA_R_32F, 1, dfy, CUDA_R_32F, 1, dres, CUDA_R_32F, CUDA_R_32F));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    std::vector<float> gr = download(dres, 1);
    s = 0; for (int i = 0; i < n; i++) s += (double)fx[i] * fy[i];
    CHECK_NEAR(gr[0], s, 1e-5);
    std::vector<cuComplex> cx(n), cy(n);
    for (int i = 0; i < n; i++) { cx[i] = make_cuComplex((float)rnd(), (float)rnd()); cy[i] = make_cuComplex((float)rnd(), (float)rnd()); }
    cuComplex *dcx = upload(cx), *dcy = upload(cy), rc;
    BK(cublasDotcEx(h, n, dcx, CUDA_C_32F, 1, dcy, CUDA_C_32F, 1, &rc, CUDA_C_32F, CUDA_C_32F));
    cd sc = 0; for (int i = 0; i < n; i++) sc += std::conj(cd(cx[i].x, cx[i].y)) * cd(cy[i].x, cy[i].y);
    CHECK_MSG(std::abs(cd(rc.x, rc.y) - sc) < 1e-4, "DotcEx");
    BK(cublasAsumEx(h, n, dfx, CUDA_R_32F, 1, &rf, CUDA_R_32F, CUDA_R_32F));
    s = 0; for (int i = 0; i < n; i++) s += fabs(fx[i]);
    CHECK_NEAR(rf, s, 1e-4);
    r16 = __float2half(5.0f);
    BK(cublasDotEx(h, 0, dx, CUDA_R_16F, 1, dy, CUDA_R_16F, 1, &r16, CUDA_R_16F, CUDA_R_32F));
    CHECK(h2d(r16) == 0);
    cudaFree(dx); cudaFree(dy); cudaFree(dfx); cudaFree(dfy); cudaFree(dres); cudaFree(dcx); cudaFree(dcy);
}

static void test_trsm(cublasHandle_t h)
{
    const int m = 20, n = 13, lda = 24, ldb = 22;
    for (int side = 0; side < 2; side++) for (int up = 0; up < 2; up++) for (int tr = 0; tr < 2; tr++) {
        int ka = side ? n : m;
        std::vector<double> A(lda * ka), B(ldb * n);
        for (int j = 0; j < ka; j++) for (int i = 0; i < lda; i++)
            A[i + j * lda] = i == j ? 2.0 + rnd() * 0.5 : ((up ? i < j : i > j) ? rnd() * 0.3 : 99.0);
        for (auto &v : B) v = rnd();
        double *dA = upload(A), *dB = upload(B), al = 2.0;
        BK(cublasDtrsm(h, side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT, up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                       tr ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &al, dA, lda, dB, ldb));
        std::vector<double> X = download(dB, B.size());
        // check op(A) X = 2 B (left) or X op(A) = 2 B (right); the other triangle (99s) is never read
        auto opA = [&](int i, int j) { double v = tr ? A[j + i * lda] : A[i + j * lda]; bool in = up ? (tr ? j <= i : i <= j) : (tr ? j >= i : i >= j); return in ? v : 0.0; };
        int bad = 0;
        for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) {
            double s = 0;
            if (!side) for (int p = 0; p < m; p++) s += opA(i, p) * X[p + j * ldb];
            else for (int p = 0; p < n; p++) s += X[i + p * ldb] * opA(p, j);
            if (fabs(s - 2 * B[i + j * ldb]) > 1e-10) bad++;
        }
        for (int j = 0; j < n; j++) for (int i = m; i < ldb; i++) if (X[i + j * ldb] != B[i + j * ldb]) bad++;
        CHECK_MSG(bad == 0, "Dtrsm side %d upper %d trans %d: %d wrong", side, up, tr, bad);
        cudaFree(dA); cudaFree(dB);
    }
    // batched: three lower-triangular systems, right side, through device pointer arrays
    {
        const int bm = 7, bn = 6, la = 8, lb = 9, batch = 3;
        std::vector<double> A(la * bn * batch), B(lb * bn * batch);
        for (int b = 0; b < batch; b++) for (int j = 0; j < bn; j++) for (int i = 0; i < la; i++)
            A[b * la * bn + i + j * la] = i == j ? 1.5 + rnd() * 0.25 : (i > j ? rnd() * 0.3 : 55.0);
        for (auto &v : B) v = rnd();
        double *dA = upload(A), *dB = upload(B), al = -1.0;
        std::vector<double *> pa, pb;
        for (int b = 0; b < batch; b++) { pa.push_back(dA + b * la * bn); pb.push_back(dB + b * lb * bn); }
        double **dpa = upload(pa), **dpb = upload(pb);
        BK(cublasDtrsmBatched(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, bm, bn, &al,
                              (const double **)dpa, la, dpb, lb, batch));
        std::vector<double> X = download(dB, B.size());
        int bad = 0;
        for (int b = 0; b < batch; b++) for (int j = 0; j < bn; j++) for (int i = 0; i < lb; i++) {
            long o = b * lb * bn + i + j * lb;
            if (i >= bm) { if (X[o] != B[o]) bad++; continue; }
            double s = 0;                          // (X L)(i, j) = -B(i, j)
            for (int p = j; p < bn; p++) s += X[b * lb * bn + i + p * lb] * A[b * la * bn + p + j * la];
            if (fabs(s + B[o]) > 1e-10) bad++;
        }
        CHECK_MSG(bad == 0, "DtrsmBatched: %d wrong", bad);
        BKS(cublasDtrsmBatched(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, bm, bn, &al,
                               (const double **)dpa, la, dpb, lb, -1), CUBLAS_STATUS_INVALID_VALUE);
        cudaFree(dA); cudaFree(dB); cudaFree(dpa); cudaFree(dpb);
    }
    float *d = dalloc<float>(16), one = 1;
    BKS(cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 4, 2, &one, d, 3, d, 4),
        CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 4, 2, &one, d, 2, d, 3),
        CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(d);
}

static void test_geam_dgmm(cublasHandle_t h)
{
    const int m = 15, n = 11, lda = 20, ldb = 17, ldc = 16;
    std::vector<float> A(lda * 20), B(ldb * 20), C(ldc * n, 7.0f), x(40);
    for (auto &v : A) v = (float)rnd();
    for (auto &v : B) v = (float)rnd();
    for (auto &v : x) v = (float)rnd();
    float *dA = upload(A), *dB = upload(B), *dC = upload(C), *dx = upload(x);
    float al = 2, be = -1;
    BK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &al, dA, lda, &be, dB, ldb, dC, ldc));
    std::vector<float> g = download(dC, C.size());
    int bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < ldc; i++) {
        double w = i < m ? 2.0 * A[j + i * lda] - B[i + j * ldb] : 7.0;
        if (fabs(g[i + j * ldc] - w) > 1e-6) bad++;
    }
    CHECK_MSG(bad == 0, "Sgeam: %d wrong", bad);
    // in place C = B (no transpose, ldb == ldc)
    float zero = 0;
    BK(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &zero, dA, lda, &al, dC, ldc, dC, ldc));
    std::vector<float> g2 = download(dC, C.size());
    bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) if (fabs(g2[i + j * ldc] - 2 * g[i + j * ldc]) > 1e-6) bad++;
    CHECK_EQ(bad, 0);
    BKS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, &al, dC, ldc, &be, dB, ldb, dC, ldc), CUBLAS_STATUS_INVALID_VALUE);
    // dgmm left and right with incx 2
    for (int side = 0; side < 2; side++) {
        BK(cublasSdgmm(h, side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT, m, n, dA, lda, dx, 2, dC, ldc));
        g = download(dC, C.size());
        bad = 0;
        for (int j = 0; j < n; j++) for (int i = 0; i < m; i++)
            if (fabs(g[i + j * ldc] - A[i + j * lda] * x[2 * (side ? j : i)]) > 1e-6) bad++;
        CHECK_MSG(bad == 0, "Sdgmm side %d: %d wrong", side, bad);
    }
    BKS(cublasSdgmm(h, CUBLAS_SIDE_LEFT, m, n, dA, m - 1, dx, 1, dC, ldc), CUBLAS_STATUS_INVALID_VALUE);
    // Zgeam with conjugate transpose
    std::vector<cuDoubleComplex> zA(9), zB(9);
    for (auto &v : zA) v = make_cuDoubleComplex(rnd(), rnd());
    for (auto &v : zB) v = make_cuDoubleComplex(rnd(), rnd());
    cuDoubleComplex *dzA = upload(zA), *dzB = upload(zB), *dzC = dalloc<cuDoubleComplex>(9);
    cuDoubleComplex za = make_cuDoubleComplex(1, 2), zb = make_cuDoubleComplex(0, -1);
    BK(cublasZgeam(h, CUBLAS_OP_C, CUBLAS_OP_N, 3, 3, &za, dzA, 3, &zb, dzB, 3, dzC, 3));
    std::vector<cuDoubleComplex> gz = download(dzC, 9);
    bad = 0;
    for (int j = 0; j < 3; j++) for (int i = 0; i < 3; i++) {
        cd w = cd(1, 2) * std::conj(cd(zA[j + i * 3].x, zA[j + i * 3].y)) + cd(0, -1) * cd(zB[i + j * 3].x, zB[i + j * 3].y);
        if (std::abs(cd(gz[i + j * 3].x, gz[i + j * 3].y) - w) > 1e-12) bad++;
    }
    CHECK_EQ(bad, 0);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dx); cudaFree(dzA); cudaFree(dzB); cudaFree(dzC);
}

static void test_set_get(void)
{
    const int rows = 5, cols = 4, lda = 7, ldb = 6;
    std::vector<double> A(lda * cols), back(lda * cols, -1);
    for (auto &v : A) v = rnd();
    double *d = dalloc<double>(ldb * cols);
    CK(cudaMemset(d, 0, ldb * cols * 8));
    BK(cublasSetMatrix(rows, cols, 8, A.data(), lda, d, ldb));
    BK(cublasGetMatrix(rows, cols, 8, d, ldb, back.data(), lda));
    int bad = 0;
    for (int j = 0; j < cols; j++) for (int i = 0; i < lda; i++)
        if (back[i + j * lda] != (i < rows ? A[i + j * lda] : -1.0)) bad++;
    CHECK_EQ(bad, 0);
    std::vector<double> dev = download(d, ldb * cols);
    bad = 0;
    for (int j = 0; j < cols; j++) for (int i = rows; i < ldb; i++) if (dev[i + j * ldb] != 0) bad++;
    CHECK_EQ(bad, 0);
    // vectors with increments, async on a stream, and _64
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    std::vector<float> v(30), w(30, 0);
    for (int i = 0; i < 30; i++) v[i] = (float)i;
    float *dv = dalloc<float>(30);
    CK(cudaMemset(dv, 0, 120));
    BK(cublasSetVectorAsync(10, 4, v.data(), 3, dv, 2, s));
    BK(cublasGetVectorAsync(10, 4, dv, 2, w.data(), 1, s));
    CK(cudaStreamSynchronize(s));
    bad = 0;
    for (int i = 0; i < 10; i++) if (w[i] != 3.0f * i) bad++;
    CHECK_EQ(bad, 0);
    BK(cublasSetMatrixAsync(rows, cols, 8, A.data(), lda, d, ldb, s));
    BK(cublasGetMatrix_64(rows, cols, 8, d, ldb, back.data(), lda));
    CK(cudaStreamSynchronize(s));
    BK(cublasGetVector_64(4, 4, dv, 2, w.data(), 1));
    CHECK(w[3] == 9.0f);
    // bad input
    BKS(cublasSetVector(10, 4, v.data(), 0, dv, 1), CUBLAS_STATUS_INVALID_VALUE);
    BKS(cublasSetVector(10, 0, v.data(), 1, dv, 1), CUBLAS_STATUS_INVALID_VALUE);
    cublasStatus_t st = cublasSetMatrix(rows, cols, 8, A.data(), rows - 1, d, ldb);   // GPU: may be MAPPING_ERROR
    CHECK_MSG(st == CUBLAS_STATUS_INVALID_VALUE || st == CUBLAS_STATUS_MAPPING_ERROR, "SetMatrix lda < rows -> %d", (int)st);
    BKS(cublasGetMatrix(-1, cols, 8, d, ldb, back.data(), lda), CUBLAS_STATUS_INVALID_VALUE);
    CK(cudaStreamDestroy(s));
    cudaFree(d); cudaFree(dv);
}

int main()
{
    cublasHandle_t h;
    BK(cublasCreate(&h));
    test_vectors(h);
    test_complex_double_l1(h);
    test_rotg_rotm(h);
    test_gemv_ger(h);
    test_gemv_batched(h);
    test_ex_level1(h);
    test_trsm(h);
    test_geam_dgmm(h);
    test_set_get();
    BK(cublasDestroy(h));
    return CHECK_DONE();
}
