// NVCC_FLAGS: -use_fast_math
// Approximate transcendentals and -use_fast_math code generation (ex2.approx.ftz, lg2.approx.ftz,
// sin/cos.approx.ftz, rcp/rsqrt/sqrt.approx.ftz, div.full/approx, mul/add .ftz). Bounds from the CUDA
// Math API intrinsic table: __expf 2 + floor(|1.173x|) ulp; __logf abs 2^-21.41 on [0.5,2] else 3 ulp;
// __log2f abs 2^-22 on [0.5,2] else 2 ulp; __sinf abs 2^-21.41 and __cosf abs 2^-21.19 on [-pi,pi];
// __fdividef 2 ulp for |y| in [2^-126,2^126] and 0 for 2^126<|y|<2^128; rsqrtf 2 ulp; exp2f 2 ulp;
// x/y with -prec-div=false 2 ulp; sqrtf with -prec-sqrt=false 3 ulp (the table's bound).
// -ftz=true: subnormal inputs and results are flushed to sign-preserving zero.
#include "k_util.h"
#include <float.h>

#define PER 256
#define NF 10

__global__ void fast(const float *x, const float *y, float *o, int per)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, f = blockIdx.y;
    if (i >= per) return;
    float a = x[f * per + i], b = y[f * per + i], r;
    switch (f) {
    case 0: r = expf(a); break;          /* becomes __expf */
    case 1: r = __logf(a); break;
    case 2: r = log2f(a); break;         /* becomes __log2f */
    case 3: r = __sinf(a); break;
    case 4: r = __cosf(a); break;
    case 5: r = __fdividef(a, b); break;
    case 6: r = rsqrtf(a); break;
    case 7: r = exp2f(a); break;
    case 8: r = a / b; break;
    default: r = sqrtf(a); break;
    }
    o[f * per + i] = r;
}
__global__ void ftz(const float *in, float *o)
{
    float tiny = in[0], one = in[1], big = in[2], fmin = in[3], zero = in[4];
    o[0] = tiny * one;            /* subnormal input flushed: 0 */
    o[1] = fmin * 0.25f * one;    /* subnormal result flushed: 0 */
    o[2] = tiny + zero;           /* add.ftz: 0 */
    o[3] = __fdividef(one, big);  /* 2^126 < |y| < 2^128: 0 */
    o[4] = -fmin * 0.5f * one;    /* -0 */
}

static long double ref(int f, long double a, long double b)
{
    switch (f) {
    case 0: return expl(a); case 1: return logl(a); case 2: return log2l(a); case 3: return sinl(a);
    case 4: return cosl(a); case 5: return a / b; case 6: return 1.0L / sqrtl(a); case 7: return exp2l(a);
    case 8: return a / b; default: return sqrtl(a);
    }
}
static double ulps(float dev, long double r)
{
    int e; frexpl(r, &e);
    int ex = e - 1; if (ex < -126) ex = -126;
    return (double)(fabsl((long double)dev - r) / ldexpl(1.0L, ex - 23));
}

int main(void)
{
    static float x[NF * PER], y[NF * PER], o[NF * PER];
    for (int f = 0; f < NF; f++)
        for (int i = 0; i < PER; i++) {
            double a, b = 1;
            switch (f) {
            case 0: a = k_randu(-40, 40); break;
            case 1: case 2: a = (i & 1) ? k_randu(0.5, 2) : exp(k_randu(-80, 80)); break;
            case 3: case 4: a = k_randu(-M_PI, M_PI); break;
            case 5: case 8: a = k_randu(-1, 1) * exp(k_randu(-40, 40)); b = k_randu(-1, 1) * exp(k_randu(-40, 40)); break;
            case 6: case 9: a = exp(k_randu(-80, 80)); break;
            default: a = k_randu(-120, 120); break;
            }
            x[f * PER + i] = (float)a; y[f * PER + i] = (float)b;
        }
    float *dx, *dy, *dout, *din, *dftz;
    CK(cudaMalloc(&dx, sizeof x)); CK(cudaMalloc(&dy, sizeof y)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
    fast<<<dim3(PER / 64, NF), 64>>>(dx, dy, dout, PER);
    CK(cudaGetLastError());
    float in[5] = {1e-40f, 1.0f, 3e38f, FLT_MIN, 0.0f}, fo[5];
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dftz, sizeof fo));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    ftz<<<1, 1>>>(din, dftz);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(fo, dftz, sizeof fo, cudaMemcpyDeviceToHost));
    const char *names[NF] = {"__expf", "__logf", "__log2f", "__sinf", "__cosf", "__fdividef", "rsqrtf", "exp2f", "x/y", "sqrtf"};
    int bad = 0;
    for (int f = 0; f < NF; f++) {
        double worst = 0;
        for (int i = 0; i < PER; i++) {
            float a = x[f * PER + i], b = y[f * PER + i], d = o[f * PER + i];
            long double r = ref(f, a, b);
            double err = ulps(d, r), abserr = (double)fabsl((long double)d - r);
            int ok;
            switch (f) {
            case 0: ok = err <= 2 + floor(fabs(1.173 * a)) + 0.5; break;
            case 1: ok = (a >= 0.5f && a <= 2.0f) ? abserr <= 3.59e-7 /* 2^-21.41 */ : err <= 3.5; break;
            case 2: ok = (a >= 0.5f && a <= 2.0f) ? abserr <= ldexp(1, -22) : err <= 2.5; break;
            case 3: ok = abserr <= 3.59e-7; break;   /* 2^-21.41 */
            case 4: ok = abserr <= 4.18e-7; break;   /* 2^-21.19 */
            case 5: case 6: case 7: case 8: ok = err <= 2.5; break;
            default: ok = err <= 3.5; break;
            }
            if (f != 3 && f != 4 && !(f == 1 && a >= 0.5f && a <= 2.0f) && !(f == 2 && a >= 0.5f && a <= 2.0f) && err > worst) worst = err;
            if (!ok && bad++ < 30)
                CHECK_MSG(0, "%s(%a, %a) = %a, reference %.10Lg (%.2f ulp, abs %.3g)", names[f], (double)a, (double)b, (double)d, r, err, abserr);
        }
        printf("%-10s worst %.3f ulp\n", names[f], worst);
    }
    CHECK_EQ(bad, 0);
    CHECK(fo[0] == 0.0f);
    CHECK(fo[1] == 0.0f);
    CHECK(fo[2] == 0.0f);
    CHECK(fo[3] == 0.0f);
    CHECK(fo[4] == 0.0f && signbit(fo[4]));
    return CHECK_DONE();
}
