// Single-precision math library: sinf cosf tanf expf exp2f exp10f expm1f logf log2f log10f log1pf
// powf erff erfcf lgammaf tgammaf tanhf sinhf coshf asinf acosf atanf atan2f cbrtf sqrtf rsqrtf hypotf.
// Tolerance per function = the maximum ulp error of the CUDA Math API table (Programming Guide,
// "Mathematical Functions": error vs the correctly rounded result), so the check against a
// long-double host reference is |dev - ref| <= (table + 0.5) ulp (+0.5: correctly rounded vs exact).
#include "k_util.h"

#define NF 28
#define PER 128

__global__ void mathf(const float *x, const float *y, float *o, int per)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int f = blockIdx.y;
    if (i >= per) return;
    float a = x[f * per + i], b = y[f * per + i], r;
    switch (f) {
    case 0: r = sinf(a); break;   case 1: r = cosf(a); break;    case 2: r = tanf(a); break;
    case 3: r = expf(a); break;   case 4: r = exp2f(a); break;   case 5: r = exp10f(a); break;
    case 6: r = expm1f(a); break; case 7: r = logf(a); break;    case 8: r = log2f(a); break;
    case 9: r = log10f(a); break; case 10: r = log1pf(a); break; case 11: r = powf(a, b); break;
    case 12: r = erff(a); break;  case 13: r = erfcf(a); break;  case 14: r = lgammaf(a); break;
    case 15: r = tgammaf(a); break; case 16: r = tanhf(a); break; case 17: r = sinhf(a); break;
    case 18: r = coshf(a); break; case 19: r = asinf(a); break;  case 20: r = acosf(a); break;
    case 21: r = atanf(a); break; case 22: r = atan2f(a, b); break; case 23: r = cbrtf(a); break;
    case 24: r = sqrtf(a); break; case 25: r = rsqrtf(a); break; case 26: r = hypotf(a, b); break;
    default: { float s, c; sincosf(a, &s, &c); r = s + 0.0f * c; o[NF * per + i] = c; } break;
    }
    o[f * per + i] = r;
}

struct fdesc { const char *name; double lo, hi, blo, bhi; double ulps; };
static const fdesc F[NF] = {
    {"sinf", -100, 100, 0, 0, 2}, {"cosf", -100, 100, 0, 0, 2}, {"tanf", -1.5, 1.5, 0, 0, 4},
    {"expf", -87, 88, 0, 0, 2}, {"exp2f", -125, 127, 0, 0, 2}, {"exp10f", -37, 38, 0, 0, 2},
    {"expm1f", -10, 10, 0, 0, 1}, {"logf", 1e-30, 1e30, 0, 0, 1}, {"log2f", 1e-30, 1e30, 0, 0, 1},
    {"log10f", 1e-30, 1e30, 0, 0, 2}, {"log1pf", -0.9, 100, 0, 0, 1}, {"powf", 0.01, 10, -10, 10, 4},
    {"erff", -4, 4, 0, 0, 2}, {"erfcf", -2, 9, 0, 0, 4}, {"lgammaf", 0.01, 50, 0, 0, 6},
    {"tgammaf", 0.1, 30, 0, 0, 5}, {"tanhf", -10, 10, 0, 0, 2}, {"sinhf", -20, 20, 0, 0, 3},
    {"coshf", -20, 20, 0, 0, 2}, {"asinf", -1, 1, 0, 0, 2}, {"acosf", -1, 1, 0, 0, 2},
    {"atanf", -50, 50, 0, 0, 2}, {"atan2f", -10, 10, -10, 10, 3}, {"cbrtf", -1000, 1000, 0, 0, 1},
    {"sqrtf", 0, 1e30, 0, 0, 0}, {"rsqrtf", 1e-30, 1e30, 0, 0, 2}, {"hypotf", -1e10, 1e10, -1e10, 1e10, 3},
    {"sincosf", -100, 100, 0, 0, 2}};

static long double ref(int f, long double a, long double b)
{
    switch (f) {
    case 0: return sinl(a); case 1: return cosl(a); case 2: return tanl(a); case 3: return expl(a);
    case 4: return exp2l(a); case 5: return powl(10.0L, a); case 6: return expm1l(a); case 7: return logl(a);
    case 8: return log2l(a); case 9: return log10l(a); case 10: return log1pl(a); case 11: return powl(a, b);
    case 12: return erfl(a); case 13: return erfcl(a); case 14: return lgammal(a); case 15: return tgammal(a);
    case 16: return tanhl(a); case 17: return sinhl(a); case 18: return coshl(a); case 19: return asinl(a);
    case 20: return acosl(a); case 21: return atanl(a); case 22: return atan2l(a, b); case 23: return cbrtl(a);
    case 24: return sqrtl(a); case 25: return 1.0L / sqrtl(a); case 26: return hypotl(a, b); default: return sinl(a);
    }
}
/* |dev - ref| in units of the float spacing at ref */
static double ulp_err(float dev, long double r)
{
    if (isnan(r)) return isnan(dev) ? 0 : 1e9;
    if (isinf(r) || fabsl(r) > 3.4028234663852886e38L) return (isinf(dev) && (dev > 0) == (r > 0)) ? 0 : 1e9;
    int e; frexpl(r, &e);
    int ex = e - 1; if (ex < -126) ex = -126;
    long double u = ldexpl(1.0L, ex - 23);
    return (double)(fabsl((long double)dev - r) / u);
}

int main(void)
{
    static float x[NF * PER], y[NF * PER], o[(NF + 1) * PER];
    for (int f = 0; f < NF; f++)
        for (int i = 0; i < PER; i++) {
            double lo = F[f].lo, hi = F[f].hi, v;
            if (lo > 0 && hi / lo > 1e6) v = exp(k_randu(log(lo), log(hi)));      /* log-uniform */
            else if (f == 26) v = k_randu(-1, 1) * pow(10, k_randu(-10, 10));
            else v = k_randu(lo, hi);
            x[f * PER + i] = (float)v;
            y[f * PER + i] = (float)k_randu(F[f].blo, F[f].bhi);
        }
    x[0 * PER] = 0; x[7 * PER] = 1; x[24 * PER] = 0; x[3 * PER] = 0; x[12 * PER] = 0;
    x[14 * PER + 1] = -0.5f; x[14 * PER + 2] = -1.5f; x[14 * PER + 3] = -11.5f;  /* outside (-10.001, -2.264) */
    x[0 * PER + 1] = 1e4f; x[1 * PER + 1] = 12345.678f; x[27 * PER + 1] = 3e4f;
    float *dx, *dy, *dout;
    CK(cudaMalloc(&dx, sizeof x)); CK(cudaMalloc(&dy, sizeof y)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
    mathf<<<dim3(PER / 64, NF), 64>>>(dx, dy, dout, PER);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int f = 0; f < NF; f++) {
        double worst = 0;
        for (int i = 0; i < PER; i++) {
            float a = x[f * PER + i], b = y[f * PER + i];
            double err = ulp_err(o[f * PER + i], ref(f, a, b));
            if (err > worst) worst = err;
            if (err > F[f].ulps + 0.5 + 1e-3 && bad++ < 30)
                CHECK_MSG(0, "%s(%a, %a) = %a, reference %.12Lg: %.2f ulp > %g", F[f].name, (double)a, (double)b,
                          (double)o[f * PER + i], ref(f, a, b), err, F[f].ulps);
            if (f == NF - 1) {
                double ec = ulp_err(o[NF * PER + i], cosl(a));
                if (ec > 2.5 + 1e-3 && bad++ < 30) CHECK_MSG(0, "sincosf cos(%a): %.2f ulp", (double)a, ec);
            }
        }
        printf("%-8s worst %.3f ulp (table %g)\n", F[f].name, worst, F[f].ulps);
    }
    CHECK_EQ(bad, 0);
    CHECK(o[7 * PER] == 0.0f);  /* logf(1) == 0 exactly */
    CHECK(o[3 * PER] == 1.0f);  /* expf(0) == 1 exactly */
    return CHECK_DONE();
}
