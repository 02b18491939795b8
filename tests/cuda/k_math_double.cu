// Double-precision math library: sin cos tan exp exp2 exp10 expm1 log log2 log10 log1p pow erf erfc
// lgamma tgamma tanh sinh cosh asin acos atan atan2 cbrt sqrt rsqrt hypot.
// Tolerance per function = maximum ulp error of the CUDA Math API double-precision table; checked
// against a long-double host reference (64-bit significand) as |dev - ref| <= (table + 0.5 + 0.01) ulp
// (+0.5 correctly rounded vs exact, +0.01 covers the reference's own error of a few 2^-64).
#include "k_util.h"

#define NF 27
#define PER 128

__global__ void mathd(const double *x, const double *y, double *o, int per)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int f = blockIdx.y;
    if (i >= per) return;
    double a = x[f * per + i], b = y[f * per + i], r;
    switch (f) {
    case 0: r = sin(a); break;   case 1: r = cos(a); break;    case 2: r = tan(a); break;
    case 3: r = exp(a); break;   case 4: r = exp2(a); break;   case 5: r = exp10(a); break;
    case 6: r = expm1(a); break; case 7: r = log(a); break;    case 8: r = log2(a); break;
    case 9: r = log10(a); break; case 10: r = log1p(a); break; case 11: r = pow(a, b); break;
    case 12: r = erf(a); break;  case 13: r = erfc(a); break;  case 14: r = lgamma(a); break;
    case 15: r = tgamma(a); break; case 16: r = tanh(a); break; case 17: r = sinh(a); break;
    case 18: r = cosh(a); break; case 19: r = asin(a); break;  case 20: r = acos(a); break;
    case 21: r = atan(a); break; case 22: r = atan2(a, b); break; case 23: r = cbrt(a); break;
    case 24: r = sqrt(a); break; case 25: r = rsqrt(a); break; default: r = hypot(a, b); break;
    }
    o[f * per + i] = r;
}

struct fdesc { const char *name; double lo, hi, blo, bhi; double ulps; };
static const fdesc F[NF] = {
    {"sin", -100, 100, 0, 0, 2}, {"cos", -100, 100, 0, 0, 2}, {"tan", -1.5, 1.5, 0, 0, 2},
    {"exp", -700, 700, 0, 0, 1}, {"exp2", -1000, 1000, 0, 0, 1}, {"exp10", -300, 300, 0, 0, 1},
    {"expm1", -10, 10, 0, 0, 1}, {"log", 1e-300, 1e300, 0, 0, 1}, {"log2", 1e-300, 1e300, 0, 0, 1},
    {"log10", 1e-300, 1e300, 0, 0, 1}, {"log1p", -0.9, 100, 0, 0, 1}, {"pow", 0.01, 10, -50, 50, 2},
    {"erf", -5, 5, 0, 0, 2}, {"erfc", -2, 26, 0, 0, 5}, {"lgamma", 0.01, 100, 0, 0, 4},
    {"tgamma", 0.1, 100, 0, 0, 10}, {"tanh", -10, 10, 0, 0, 2}, {"sinh", -20, 20, 0, 0, 2},
    {"cosh", -20, 20, 0, 0, 1}, {"asin", -1, 1, 0, 0, 2}, {"acos", -1, 1, 0, 0, 2},
    {"atan", -50, 50, 0, 0, 2}, {"atan2", -10, 10, -10, 10, 2}, {"cbrt", -1000, 1000, 0, 0, 1},
    {"sqrt", 0, 1e300, 0, 0, 0}, {"rsqrt", 1e-300, 1e300, 0, 0, 1}, {"hypot", -1e100, 1e100, -1e100, 1e100, 2}};

static long double ref(int f, long double a, long double b)
{
    switch (f) {
    case 0: return sinl(a); case 1: return cosl(a); case 2: return tanl(a); case 3: return expl(a);
    case 4: return exp2l(a); case 5: return powl(10.0L, a); case 6: return expm1l(a); case 7: return logl(a);
    case 8: return log2l(a); case 9: return log10l(a); case 10: return log1pl(a); case 11: return powl(a, b);
    case 12: return erfl(a); case 13: return erfcl(a); case 14: return lgammal(a); case 15: return tgammal(a);
    case 16: return tanhl(a); case 17: return sinhl(a); case 18: return coshl(a); case 19: return asinl(a);
    case 20: return acosl(a); case 21: return atanl(a); case 22: return atan2l(a, b); case 23: return cbrtl(a);
    case 24: return sqrtl(a); case 25: return 1.0L / sqrtl(a); default: return hypotl(a, b);
    }
}
static double ulp_err(double dev, long double r)
{
    if (isnan(r)) return isnan(dev) ? 0 : 1e9;
    if (isinf(r) || fabsl(r) > 1.7976931348623157e308L) return (isinf(dev) && (dev > 0) == (r > 0)) ? 0 : 1e9;
    int e; frexpl(r, &e);
    int ex = e - 1; if (ex < -1022) ex = -1022;
    return (double)(fabsl((long double)dev - r) / ldexpl(1.0L, ex - 52));
}

int main(void)
{
    static double x[NF * PER], y[NF * PER], o[NF * PER];
    for (int f = 0; f < NF; f++)
        for (int i = 0; i < PER; i++) {
            double lo = F[f].lo, hi = F[f].hi, v;
            if (lo > 0 && hi / lo > 1e6) v = exp(k_randu(log(lo), log(hi)));
            else if (f == 26) v = k_randu(-1, 1) * pow(10, k_randu(-100, 100));
            else v = k_randu(lo, hi);
            x[f * PER + i] = v;
            y[f * PER + i] = k_randu(F[f].blo, F[f].bhi);
        }
    x[14 * PER + 1] = -0.5; x[14 * PER + 2] = -1.5; x[14 * PER + 3] = -30.5;   /* outside (-23.0001, -2.2637) */
    x[0 * PER + 1] = 1e6; x[1 * PER + 1] = 123456.789;
    double *dx, *dy, *dout;
    CK(cudaMalloc(&dx, sizeof x)); CK(cudaMalloc(&dy, sizeof y)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
    mathd<<<dim3(PER / 64, NF), 64>>>(dx, dy, dout, PER);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int f = 0; f < NF; f++) {
        double worst = 0;
        for (int i = 0; i < PER; i++) {
            double a = x[f * PER + i], b = y[f * PER + i];
            double err = ulp_err(o[f * PER + i], ref(f, a, b));
            if (err > worst) worst = err;
            if (err > F[f].ulps + 0.51 && bad++ < 30)
                CHECK_MSG(0, "%s(%a, %a) = %a, reference %.20Lg: %.2f ulp > %g", F[f].name, a, b, o[f * PER + i], ref(f, a, b), err, F[f].ulps);
        }
        printf("%-7s worst %.3f ulp (table %g)\n", F[f].name, worst, F[f].ulps);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
