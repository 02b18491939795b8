/*
 * diff_math.cu - differential test of the floating-point math library (single and double
 * precision): every CUDA math function and intrinsic, each in its own section, evaluated on the
 * device for a fixed list of special values followed by random values (fixed seeds) drawn over the
 * function's natural range and over random bit patterns.
 *
 * Input generation uses only exact or correctly rounded host operations (integer arithmetic, bit
 * construction, +-* / and float<->double conversion; no host libm), so the inputs are the same on
 * every host. All tolerances are 0 for now (loosened once the GPU numbers are known).
 *
 * Structure: the functions are grouped (FT_* float, DT_* double); each group is one kernel with a
 * switch on blockIdx.y (one function per y) and its own count of values per function. A group list
 * entry is X(id, name, arity, k0, k1, suffix, gen_a, gen_b, gen_c, specials, statement):
 *   k0      kind of the main result r (DK_F32/DK_F64), or 0 when the function only has q
 *   k1      kind of the second result q (0 none, DK_U32, DK_U64, DK_F32/DK_F64 as bits), section
 *           name + suffix (or name alone when k0 == 0)
 *   gen_*   input generators (see gsp below); specials: extra special values (SP_* flags)
 *
 * Groups and values per function (section names "f32.NAME" / "f64.NAME"; "x/y" and "1/x" are the
 * plain operators, "jnf(b,a)" means jnf((int)b, a), "norm4df(a,b,c,a)" repeats the first argument):
 *   FT_TRIG 1664, FT_EXPLOG 1664, FT_SPECIAL 1664, FT_ROUND 1024, FT_ARITH 1024,
 *   DT_ELEM 960, DT_SPECIAL 1024, DT_ROUND 768, DT_ARITH 768   (recorded file about 1.49 MB)
 * Two-argument functions start with the cross product of pair_specials() (at most half the
 * values), three-argument ones with that of tri_specials(); only the first argument is printed
 * beside a mismatch.
 */
#include "diff.h"
#include <stdint.h>
#include <float.h>

#pragma nv_diag_suppress 550   /* the third argument is unused in most groups */

/* ------------------------------------------------------------------------------------------ */
/* input generators                                                                           */
/* ------------------------------------------------------------------------------------------ */
enum {
    GNONE = 0,   /* argument unused (0) */
    GLIN,        /* uniform in [lo, hi] */
    GLOG,        /* random sign, binary exponent uniform in [lo, hi], random mantissa */
    GLOGP,       /* as GLOG, positive */
    GINT,        /* integer uniform in [lo, hi] (kept also in the bit-pattern part) */
    GRND,        /* near integers / half integers: magnitude < 2^e, e uniform in [lo, hi] */
    GREL,        /* (second argument) first argument times uniform [lo, hi] */
    GNEG         /* (third argument) -(a*b) rounded, sometimes nudged by an ulp or two */
};
/* an argument's generator: with probability 1/2 each sub-generator (m2 == GNONE: always m1) */
struct gsp { int m1; double lo1, hi1; int m2; double lo2, hi2; };

enum { SP_TRIG = 1, SP_EXP = 2, SP_UNIT = 4, SP_POLE = 8, SP_ERF = 16, SP_BES = 32, SP_RND = 64, SP_POW = 128,
       SP_PI = 256 };

template <typename T> struct TR;
template <> struct TR<float> {
    typedef uint32_t U;
    enum { MB = 23, BIAS = 127, EMIN = -126, EMAX = 127, BITS = 32, DK = DK_F32 };
    static float u2t(U u) { return diff_u2f(u); }
    static U t2u(float f) { return diff_f2u(f); }
    static float from_d(double x)   /* double -> float without relying on out-of-range conversion */
    {
        if (x != x) return diff_u2f(0x7fc00000u);
        if (x >= 3.4028235677973366e38) return diff_u2f(0x7f800000u);
        if (x <= -3.4028235677973366e38) return diff_u2f(0xff800000u);
        return (float)x;
    }
};
template <> struct TR<double> {
    typedef uint64_t U;
    enum { MB = 52, BIAS = 1023, EMIN = -1022, EMAX = 1023, BITS = 64, DK = DK_F64 };
    static double u2t(U u) { return diff_u2d(u); }
    static U t2u(double d) { return diff_d2u(d); }
    static double from_d(double x) { return x; }
};

static uint64_t g_seed;
static inline uint64_t rnd(void) { return diff_rand(&g_seed); }
static inline double rnd01(void) { return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0); } /* [0,1) */
/* lo + (hi - lo) * u with the product rounded on its own: the host compiler may not contract it into an
 * fma (it would with -march=native), which would change the inputs from one build to the next */
static double lerp(double lo, double hi, double u)
{
    volatile double t = (hi - lo) * u;
    return lo + t;
}
static inline long rndint(long lo, long hi) { return lo + (long)(rnd() % (uint64_t)(hi - lo + 1)); }

/* exact power of two as a double (-1074 <= e <= 1023) */
static double pow2d(int e)
{
    if (e >= -1022) return diff_u2d((uint64_t)(e + 1023) << 52);
    return diff_u2d(1ull << (e + 1074));
}

/* value with binary exponent e (clamped to the type's range, denormal below EMIN), random mantissa */
template <typename T> static T rand_exp(int e, int neg)
{
    typedef typename TR<T>::U U;
    const int MB = TR<T>::MB;
    if (e > TR<T>::EMAX) e = TR<T>::EMAX;
    if (e < TR<T>::EMIN - MB) e = TR<T>::EMIN - MB;
    U m = (U)(rnd() & (((U)1 << MB) - 1));
    U bits;
    if (e >= TR<T>::EMIN) bits = ((U)(e + TR<T>::BIAS) << MB) | m;
    else bits = (m | ((U)1 << MB)) >> (TR<T>::EMIN - e);
    if (neg) bits |= (U)1 << (TR<T>::BITS - 1);
    return TR<T>::u2t(bits);
}
template <typename T> static T nudge(T x, int k)   /* k steps along the bit pattern (magnitude) */
{
    typedef typename TR<T>::U U;
    U u = TR<T>::t2u(x), mag = u & ~((U)1 << (TR<T>::BITS - 1));
    U inf = (U)((((U)1 << (TR<T>::BITS - 1 - TR<T>::MB)) - 1)) << TR<T>::MB;
    if (mag >= inf) return x;
    if (k < 0 && mag < (U)(-k)) return x;
    if (k > 0 && mag + (U)k > inf) return x;
    return TR<T>::u2t(u + (U)(long)k);
}
template <typename T> static T rand_bits(void)
{
    return TR<T>::u2t((typename TR<T>::U)(rnd() >> (64 - TR<T>::BITS)));
}

template <typename T> static T gen_one(int m, double lo, double hi, T a, T b)
{
    switch (m) {
    case GLIN: return TR<T>::from_d(lerp(lo, hi, rnd01()));
    case GLOG: return rand_exp<T>((int)rndint((long)lo, (long)hi), (int)(rnd() & 1));
    case GLOGP: return rand_exp<T>((int)rndint((long)lo, (long)hi), 0);
    case GINT: return (T)rndint((long)lo, (long)hi);
    case GRND: {
        int e = (int)rndint((long)lo, (long)hi);
        double ip = 0;
        if (e >= 1 && e <= 53) ip = (double)(rnd() >> (64 - e));
        else if (e > 53) ip = (double)(rnd() >> 11) * pow2d(e - 53);
        static const double fr[4] = {0, 0.5, 0.25, 0.75};
        unsigned k = (unsigned)(rnd() % 6);
        double x = ip + (k < 4 ? fr[k] : rnd01());
        if (rnd() & 1) x = -x;
        T t = TR<T>::from_d(x);
        static const int nd[6] = {0, 0, 1, -1, 2, -2};
        return nudge<T>(t, nd[rnd() % 6]);
    }
    case GREL: return TR<T>::from_d((double)a * lerp(lo, hi, rnd01()));
    case GNEG: {
        T p = TR<T>::from_d(-((double)a * (double)b));   /* float: exact product, rounded once */
        if (sizeof(T) == 8) p = -(a * b);
        static const int nd[6] = {0, 0, 1, -1, 2, -3};
        return nudge<T>(p, nd[rnd() % 6]);
    }
    default: return 0;
    }
}
template <typename T> static T gen(const gsp &g, T a, T b)
{
    if (g.m2 != GNONE && (rnd() & 1)) return gen_one<T>(g.m2, g.lo2, g.hi2, a, b);
    return gen_one<T>(g.m1, g.lo1, g.hi1, a, b);
}

/* ------------------------------------------------------------------------------------------ */
/* special values                                                                             */
/* ------------------------------------------------------------------------------------------ */
static const double PI_ = 3.14159265358979323846;

template <typename T> static void add(T *v, int *n, int cap, T x) { if (*n < cap) v[(*n)++] = x; }
template <typename T> static void add3(T *v, int *n, int cap, T x)   /* x and both neighbours */
{
    add<T>(v, n, cap, x); add<T>(v, n, cap, nudge<T>(x, 1)); add<T>(v, n, cap, nudge<T>(x, -1));
}
template <typename T> static void addpm(T *v, int *n, int cap, double x)
{
    add<T>(v, n, cap, TR<T>::from_d(x)); add<T>(v, n, cap, TR<T>::from_d(-x));
}

/* the special values every function sees */
template <typename T> static int common_specials(T *v, int cap)
{
    typedef typename TR<T>::U U;
    const int MB = TR<T>::MB;
    const U S = (U)1 << (TR<T>::BITS - 1), MM = ((U)1 << MB) - 1, INF = (U)((S - 1) >> MB) << MB;
    const U bits[] = {0, S, 1, S | 1, 2, MM, S | MM, (U)1 << (MB - 1), S | ((U)1 << (MB - 1)),
                      (U)1 << MB, S | ((U)1 << MB), ((U)1 << MB) + 1, INF - 1, S | (INF - 1), INF, S | INF,
                      INF | ((U)1 << (MB - 1)), S | INF | ((U)1 << (MB - 1)), INF | 1 /* signalling NaN */};
    int n = 0;
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++) add<T>(v, &n, cap, TR<T>::u2t(bits[i]));
    static const double nums[] = {0.5, 1, 2, 1.5, 3, 7, 10, 100, 1000, 0.1, 0.25, 0.75, 1.0 / 3, 1e-4, 1e-10,
        1e-20, 1e-30, 1e-38, 1e-40, 1e10, 1e20, 1e30, 1e38, PI_, PI_ / 2, 2.718281828459045,
        5.9604644775390625e-08, 1.1102230246251565e-16, 8388608, 16777216, 2147483648.0, 4503599627370496.0,
        9007199254740992.0, 9223372036854775808.0, 18446744073709551616.0, 8388607.5, 3.4028234663852886e38,
        1.1754943508222875e-38, 1.401298464324817e-45, 1e-300, 1e300};
    for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) addpm<T>(v, &n, cap, nums[i]);
    static const double nb[] = {1, 0.5, 2, -1};
    for (unsigned i = 0; i < sizeof nb / sizeof nb[0]; i++) {
        add<T>(v, &n, cap, nudge<T>((T)nb[i], 1)); add<T>(v, &n, cap, nudge<T>((T)nb[i], -1));
    }
    return n;
}

/* extra special values per SP_* flag (each with both neighbours) */
template <typename T> static int extra_specials(T *v, int n, int cap, int sp)
{
    const int dbl = sizeof(T) == 8;
    if (sp & SP_TRIG) {
        for (int k = 1; k <= 12; k++) add3<T>(v, &n, cap, TR<T>::from_d(k * PI_ / 2));
        add3<T>(v, &n, cap, TR<T>::from_d(-PI_ / 2)); add3<T>(v, &n, cap, TR<T>::from_d(-PI_));
        add3<T>(v, &n, cap, TR<T>::from_d(PI_ / 4)); add3<T>(v, &n, cap, TR<T>::from_d(3 * PI_ / 4));
        add3<T>(v, &n, cap, TR<T>::from_d(1000 * PI_)); add3<T>(v, &n, cap, TR<T>::from_d(65536 * PI_));
        static const double big[] = {105614, 105615, 105615.5, 105616, 1e4, 12345.678, 3e4, 48039, 1e5, 1e6,
            1048576, 8388608, 16777216, 1073741824.0, 2147483648.0, 1e15, 1e22, 9007199254740992.0, 1e30,
            1.2676506002282294e30, 3.4e38, 1e100, 1e300, 1.7976931348623157e308, 0x1.fe9cdcp+114};
        for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++) {
            add<T>(v, &n, cap, TR<T>::from_d(big[i])); add<T>(v, &n, cap, TR<T>::from_d(-big[i]));
        }
    }
    if (sp & SP_PI) {   /* sinpi/cospi: quarter and half integers, large integers */
        static const double q[] = {0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3.5, 4.75, 100.5, 1e-8, 4194304.5,
                                   8388607.5, 8388608, 8388609, 16777216, 16777218, 1e10, 4503599627370495.5,
                                   4503599627370496.0, 9007199254740993.0, 1e20};
        for (unsigned i = 0; i < sizeof q / sizeof q[0]; i++) {
            add3<T>(v, &n, cap, TR<T>::from_d(q[i])); add<T>(v, &n, cap, TR<T>::from_d(-q[i]));
        }
    }
    if (sp & SP_EXP) {
        static const double f[] = {88.72283935546875, 88.7228, 88.73, 89, -87.33654, -87.34, -103.27893,
            -103.972, -104, -104.5, 127, 127.99999, 128, 129, -126, -149, -149.5, -150, -151, 38.53184, 38.5319,
            39, -37.92978, -44.8534, -45.1545, -45.5, -17, -18, 0.6931471805599453, 1.4426950408889634,
            2.302585092994046, 0.34657359027997264, -1e-8, 1e-8};
        static const double d[] = {709.782712893384, 709.79, 710, -708.3964185322641, -744.4400719213812,
            -745.1332191019411, -745.14, -746, 1023, 1023.9999999999999, 1024, 1025, -1022, -1074, -1074.5, -1075,
            -1076, 308.25471555991675, 308.26, -307.6526555685888, -323.3062153431158, -324, -38, -37,
            0.6931471805599453, 1.4426950408889634, 2.302585092994046, -1e-17, 1e-17, 88.72283935546875};
        const double *t = dbl ? d : f;
        unsigned m = dbl ? sizeof d / sizeof d[0] : sizeof f / sizeof f[0];
        for (unsigned i = 0; i < m; i++) add3<T>(v, &n, cap, TR<T>::from_d(t[i]));
    }
    if (sp & SP_UNIT) {
        static const double u[] = {0.9999999, 0.999, 0.99, 0.9, 0.7071067811865476, 0.57, 0.5625, 0.4, 0.2,
                                   0.05, 1.000001, 1.001, 1.01, 1.1, 1.25, 4, 1e-5, 0.5};
        for (unsigned i = 0; i < sizeof u / sizeof u[0]; i++) {
            add3<T>(v, &n, cap, TR<T>::from_d(u[i])); add3<T>(v, &n, cap, TR<T>::from_d(-u[i]));
        }
    }
    if (sp & SP_POLE) {
        static const double p[] = {-1, -2, -3, -4, -10, -100, -1e6, -8388608, -0.5, -1.5, -2.5, -10.5, -11.5,
            -20.5, -33.5, -40.5, -41.5, -170.5, -171.5, -184.5, -2.457024738220797, -2.7476826467274127,
            -3.1435808883499800, -0.1, 1, 2, 3, 35.0401, 35.04, 35.05, 34.5, 4.085e36, 4.09e36, 171.6243769563027,
            171.7, 2.5563479e305, 2.6e305, 1e-30, -1e-30, -1e-300, 0.5, 1e-7, -1e-7};
        for (unsigned i = 0; i < sizeof p / sizeof p[0]; i++) add3<T>(v, &n, cap, TR<T>::from_d(p[i]));
    }
    if (sp & SP_ERF) {
        static const double e[] = {0.999999, 0.9999999, 1.9999999, 1.99, 1.5, 1e-45, 1e-38, 1e-300, 1e-320,
            0.0001, 0.01, 0.99, 0.9, 0.5, 0.8, -0.5, -0.9, -0.99, 1e-10, -9.0, -9.3, -9.5, -10, -26.5, -27, 3.9,
            3.92, 4, 5.9, 6, 10.0546, 10.06, 9.19, 26.5, 27.3, 0.84375, 1.25, 2.857142857142857, 1e20, 3e37, 1e300,
            -5, -14, -37.5, 37.5, 0.469, 0.47, 2.1e-9};
        for (unsigned i = 0; i < sizeof e / sizeof e[0]; i++) add3<T>(v, &n, cap, TR<T>::from_d(e[i]));
    }
    if (sp & SP_BES) {
        static const double b[] = {2.404825557695773, 3.831705970207512, 5.520078110286311, 7.015586669815619,
            0.8935769662791675, 2.197141326031017, 3.957678419314858, 5.429681040794135, 8, 2, 4, 4.5, 7.5,
            1e5, 1e10, 1e20, 1e30, 1e38, 25, 35, 100, 1e-5, 1e-20, 12.5, 17, 20, 50};
        for (unsigned i = 0; i < sizeof b / sizeof b[0]; i++) {
            add3<T>(v, &n, cap, TR<T>::from_d(b[i])); add<T>(v, &n, cap, TR<T>::from_d(-b[i]));
        }
    }
    if (sp & SP_RND) {
        static const double r[] = {0.5, 1.5, 2.5, 3.5, 100.5, 101.5, 0.3, 0.7, 0.49999997, 1.4999999, 2.4999998,
            4194304.5, 8388607.5, 8388609, 16777218, 2147483520.0, 2147483647.0, 2147483648.0, 2147483904.0,
            4294967296.0, 4503599627370495.5, 4503599627370497.0, 9007199254740994.0, 4611686018427387904.0,
            9223371487098961920.0, 9223372036854774784.0, 9223372036854775808.0, 9223373136366403584.0,
            18446744073709551616.0, 1e19, 1e30, 0.49999999999999994};
        for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++) {
            add3<T>(v, &n, cap, TR<T>::from_d(r[i])); add3<T>(v, &n, cap, TR<T>::from_d(-r[i]));
        }
    }
    return n;
}

/* values paired with each other for two-argument functions (cross product) */
template <typename T> static int pair_specials(T *v, int cap)
{
    typedef typename TR<T>::U U;
    const int MB = TR<T>::MB;
    const U S = (U)1 << (TR<T>::BITS - 1), MM = ((U)1 << MB) - 1, INF = (U)((S - 1) >> MB) << MB;
    const U bits[] = {0, S, 1, S | 1, MM, (U)1 << MB, S | ((U)1 << MB), INF - 1, S | (INF - 1), INF, S | INF,
                      INF | ((U)1 << (MB - 1))};
    int n = 0;
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++) add<T>(v, &n, cap, TR<T>::u2t(bits[i]));
    static const double nums[] = {1, -1, 0.5, 1.5, -2, 3, -0.5, 2, 1e30, -1e-30, -3, 0.1};
    for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) add<T>(v, &n, cap, TR<T>::from_d(nums[i]));
    return n;   /* ordered by importance: callers may use a prefix */
}
/* values for the third-argument cross product */
template <typename T> static int tri_specials(T *v, int cap)
{
    typedef typename TR<T>::U U;
    const int MB = TR<T>::MB;
    const U S = (U)1 << (TR<T>::BITS - 1), INF = (U)((S - 1) >> MB) << MB;
    const T vals[] = {0, TR<T>::u2t(S), 1, (T)-1.5, TR<T>::u2t(INF - 1), TR<T>::u2t(S | INF),
                      TR<T>::u2t(INF | ((U)1 << (MB - 1))), TR<T>::u2t((U)1 << MB), TR<T>::u2t(1), nudge<T>((T)1, 1)};
    int n = 0;
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) add<T>(v, &n, cap, vals[i]);
    return n;   /* ordered by importance: callers may use a prefix */
}
static const long INT_SPECIALS[] = {0, 1, -1, 2, -2, 3, 10, -10, 23, 24, 52, 53, 126, 127, 128, -126, -127,
                                    -149, -150, -151, 149, 150, 254, 255, 277, -277, 300, -300, 1023, 1024,
                                    -1022, -1074, -1075, 2098, -2098, 2200};
static const double POW_PAIRS[][2] = {{-2, 3}, {-2, -3}, {-2, 0.5}, {-8, 1.0 / 3}, {-1, INFINITY},
    {-1, -INFINITY}, {1, NAN}, {NAN, 0}, {0.5, INFINITY}, {0.5, -INFINITY}, {2, INFINITY},
    {2, -INFINITY}, {-0.0, -3}, {-0.0, 3}, {-0.0, -2}, {-0.0, -0.5}, {-0.0, 0.5}, {-INFINITY, 3},
    {-INFINITY, -3}, {-INFINITY, 2}, {-INFINITY, -2}, {-INFINITY, 0.5}, {2, 128}, {2, 127}, {2, -149},
    {2, -150}, {2, -126}, {2, 1024}, {2, 1023}, {2, -1074}, {2, -1075}, {10, 38}, {10, 39}, {10, -45},
    {10, 308}, {10, 309}, {10, -324}, {2.718281828459045, 88.7}, {1.0000001, 1073741824.0},
    {0.9999999, 1073741824.0}, {-1.0000001, 16777216}, {-2, 16777218}, {-2, 16777217}, {-2, 1e10},
    {-3, 9007199254740993.0}, {-1, 9007199254740993.0}, {-1, 1e300}, {1.5, 200}, {-1.5, 201}, {0.5, -150},
    {3, -95}, {7, 45.5}, {-7, 45}, {1e-20, 2}, {1e-20, 0.5}, {1e20, 2}, {1e20, -2}, {4, 0.5}, {4, -0.5}};

/* fills inputs for n values of one function: specials first, then ~60% natural range, ~40% bits */
template <typename T> static void make_inputs(int arity, const gsp &ga, const gsp &gb, const gsp &gc, int sp,
                                              uint64_t seed, int n, T *A, T *B, T *C)
{
    g_seed = seed;
    int ns = 0;
    T *a = A, *b = B, *c = C;
    for (int i = 0; i < n; i++) { a[i] = 0; b[i] = 0; c[i] = 0; }
    if (arity == 1) {
        ns = common_specials<T>(a, n);
        ns = extra_specials<T>(a, ns, n, sp);
    } else if (arity == 2) {   /* cross products use at most half of the values */
        T p[64];
        int np = pair_specials<T>(p, 64);
        if (gb.m1 == GINT) {   /* integer second argument: pairs with the integer specials in range */
            int ni = 0;
            for (unsigned j = 0; j < sizeof INT_SPECIALS / sizeof INT_SPECIALS[0]; j++)
                ni += INT_SPECIALS[j] >= gb.lo1 && INT_SPECIALS[j] <= gb.hi1;
            while (np * ni > n / 2) np--;
            for (int i = 0; i < np; i++)
                for (unsigned j = 0; j < sizeof INT_SPECIALS / sizeof INT_SPECIALS[0]; j++)
                    if (INT_SPECIALS[j] >= gb.lo1 && INT_SPECIALS[j] <= gb.hi1 && ns < n) {
                        a[ns] = p[i]; b[ns] = (T)INT_SPECIALS[j]; ns++;
                    }
        } else {
            while (np * np > n / 2) np--;
            for (int i = 0; i < np; i++)
                for (int j = 0; j < np && ns < n; j++) { a[ns] = p[i]; b[ns] = p[j]; ns++; }
        }
        if (sp & SP_POW)
            for (unsigned i = 0; i < sizeof POW_PAIRS / sizeof POW_PAIRS[0] && ns < n; i++) {
                a[ns] = TR<T>::from_d(POW_PAIRS[i][0]); b[ns] = TR<T>::from_d(POW_PAIRS[i][1]); ns++;
            }
        if (sp & ~SP_POW) {   /* the unary extras paired with a few second arguments */
            T e[512];
            int ne = extra_specials<T>(e, 0, 512, sp & ~SP_POW);
            static const double sb[] = {1, -1, 0.5, 2};
            for (int i = 0; i < ne; i++)
                for (unsigned j = 0; j < 4 && ns < n * 3 / 4; j++) {
                    if (gb.m1 == GINT && (sb[j] != (long)sb[j] || sb[j] < gb.lo1 || sb[j] > gb.hi1)) continue;
                    a[ns] = e[i]; b[ns] = (T)sb[j]; ns++;
                }
        }
    } else {
        T p[16];
        int np = tri_specials<T>(p, 16);
        while (np * np * np > n / 2) np--;
        for (int i = 0; i < np; i++)
            for (int j = 0; j < np; j++)
                for (int k = 0; k < np && ns < n; k++) { a[ns] = p[i]; b[ns] = p[j]; c[ns] = p[k]; ns++; }
    }
    int nat = ns + (n - ns) * 3 / 5;
    for (int i = ns; i < n; i++) {
        if (i < nat) {
            a[i] = gen<T>(ga, 0, 0);
            if (arity >= 2) b[i] = gen<T>(gb, a[i], 0);
            if (arity >= 3) c[i] = gen<T>(gc, a[i], b[i]);
        } else {   /* random bit patterns (integer-valued arguments keep their generator) */
            a[i] = ga.m1 == GINT ? gen<T>(ga, 0, 0) : rand_bits<T>();
            if (arity >= 2) b[i] = gb.m1 == GINT ? gen<T>(gb, a[i], 0) : rand_bits<T>();
            if (arity >= 3) c[i] = (rnd() & 1) ? gen<T>(gc, a[i], b[i]) : rand_bits<T>();
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* generator shorthands                                                                       */
/* ------------------------------------------------------------------------------------------ */
static const gsp G0 = {GNONE, 0, 0, GNONE, 0, 0};
/* single precision */
static const gsp GF_TRIG = {GLIN, -7, 7, GLOG, -20, 20};
static const gsp GF_PI = {GLIN, -4, 4, GLOG, -20, 26};
static const gsp GF_UNIT = {GLIN, -1, 1, GLOG, -30, 0};
static const gsp GF_ATAN = {GLIN, -10, 10, GLOG, -30, 30};
static const gsp GF_WIDE = {GLIN, -10, 10, GLOG, -149, 127};
static const gsp GF_SINH = {GLIN, -10, 10, GLIN, -95, 95};
static const gsp GF_TANH = {GLIN, -10, 10, GLOG, -30, 5};
static const gsp GF_ACOSH = {GLIN, 1, 10, GLOGP, 0, 127};
static const gsp GF_EXP = {GLIN, -104, 89, GLIN, -2, 2};
static const gsp GF_EXP2 = {GLIN, -151, 129, GLIN, -2, 2};
static const gsp GF_EXP10 = {GLIN, -46, 39, GLIN, -2, 2};
static const gsp GF_EXPM1 = {GLIN, -20, 89, GLOG, -30, 0};
static const gsp GF_LOG = {GLOGP, -149, 127, GLIN, 0.5, 2};
static const gsp GF_LOG1P = {GLIN, -1, 10, GLOG, -30, 127};
static const gsp GF_POWA = {GLOGP, -10, 10, GLIN, -10, 10};
static const gsp GF_POWB = {GLIN, -30, 30, GINT, -40, 40};
static const gsp GF_SQRT = {GLOGP, -149, 127, GLIN, 0, 4};
static const gsp GF_HYP = {GLIN, -10, 10, GLOG, -140, 127};
static const gsp GF_ERF = {GLIN, -5, 5, GLOG, -30, 4};
static const gsp GF_ERFC = {GLIN, -3, 11, GLOG, -30, 7};
static const gsp GF_ERFCINV = {GLIN, 0, 2, GLOGP, -149, 0};
static const gsp GF_ERFCX = {GLIN, -10, 30, GLOG, -30, 127};
static const gsp GF_NCDF = {GLIN, -15, 15, GLOG, -30, 7};
static const gsp GF_P01 = {GLIN, 0, 1, GLOGP, -149, 0};
static const gsp GF_LGAM = {GLIN, -20, 40, GLOG, -30, 126};
static const gsp GF_TGAM = {GLIN, -40, 36, GLOG, -30, 6};
static const gsp GF_BES = {GLIN, -30, 30, GLOG, -30, 100};
static const gsp GF_BESP = {GLIN, 0, 30, GLOGP, -130, 100};
static const gsp GF_BESN = {GINT, -1, 30, GNONE, 0, 0};
static const gsp GF_I0 = {GLIN, -20, 20, GLOG, -30, 7};
static const gsp GF_RND = {GRND, -1, 26, GNONE, 0, 0};
static const gsp GF_RNDL = {GRND, -1, 66, GNONE, 0, 0};
static const gsp GF_ANY = {GLOG, -149, 127, GLIN, -10, 10};
static const gsp GF_EXPN = {GINT, -300, 300, GNONE, 0, 0};
static const gsp GF_REL = {GREL, -2, 2, GLOG, -149, 127};
static const gsp GF_MODA = {GLIN, -100, 100, GLOG, -149, 127};
static const gsp GF_MODB = {GLIN, -10, 10, GLOG, -149, 127};
static const gsp GF_SAT = {GLIN, -0.5, 1.5, GLOG, -30, 10};
static const gsp GF_ARG = {GLOG, -149, 127, GLIN, -4, 4};
static const gsp GF_MUL = {GLIN, -4, 4, GLOG, -149, 127};
static const gsp GF_NEG = {GNEG, 0, 0, GLIN, -4, 4};
/* double precision */
static const gsp GD_TRIG = {GLIN, -7, 7, GLOG, -40, 80};
static const gsp GD_PI = {GLIN, -4, 4, GLOG, -40, 60};
static const gsp GD_UNIT = {GLIN, -1, 1, GLOG, -60, 0};
static const gsp GD_ATAN = {GLIN, -10, 10, GLOG, -60, 60};
static const gsp GD_WIDE = {GLIN, -10, 10, GLOG, -1074, 1023};
static const gsp GD_SINH = {GLIN, -10, 10, GLIN, -715, 715};
static const gsp GD_TANH = {GLIN, -10, 10, GLOG, -60, 6};
static const gsp GD_ACOSH = {GLIN, 1, 10, GLOGP, 0, 1023};
static const gsp GD_EXP = {GLIN, -746, 710, GLIN, -2, 2};
static const gsp GD_EXP2 = {GLIN, -1076, 1025, GLIN, -2, 2};
static const gsp GD_EXP10 = {GLIN, -324, 309, GLIN, -2, 2};
static const gsp GD_EXPM1 = {GLIN, -40, 710, GLOG, -60, 0};
static const gsp GD_LOG = {GLOGP, -1074, 1023, GLIN, 0.5, 2};
static const gsp GD_LOG1P = {GLIN, -1, 10, GLOG, -60, 1023};
static const gsp GD_POWA = {GLOGP, -20, 20, GLIN, -10, 10};
static const gsp GD_POWB = {GLIN, -200, 200, GINT, -100, 100};
static const gsp GD_SQRT = {GLOGP, -1074, 1023, GLIN, 0, 4};
static const gsp GD_HYP = {GLIN, -10, 10, GLOG, -1070, 1023};
static const gsp GD_ERF = {GLIN, -6, 6, GLOG, -60, 5};
static const gsp GD_ERFC = {GLIN, -6, 28, GLOG, -60, 9};
static const gsp GD_ERFCINV = {GLIN, 0, 2, GLOGP, -1074, 0};
static const gsp GD_ERFCX = {GLIN, -27, 30, GLOG, -60, 1023};
static const gsp GD_NCDF = {GLIN, -40, 40, GLOG, -60, 9};
static const gsp GD_P01 = {GLIN, 0, 1, GLOGP, -1074, 0};
static const gsp GD_LGAM = {GLIN, -20, 40, GLOG, -60, 1020};
static const gsp GD_TGAM = {GLIN, -190, 172, GLOG, -60, 8};
static const gsp GD_BES = {GLIN, -30, 30, GLOG, -60, 200};
static const gsp GD_BESP = {GLIN, 0, 30, GLOGP, -1000, 200};
static const gsp GD_I0 = {GLIN, -20, 20, GLOG, -60, 10};
static const gsp GD_RND = {GRND, -1, 55, GNONE, 0, 0};
static const gsp GD_RNDL = {GRND, -1, 66, GNONE, 0, 0};
static const gsp GD_ANY = {GLOG, -1074, 1023, GLIN, -10, 10};
static const gsp GD_EXPN = {GINT, -2200, 2200, GNONE, 0, 0};
static const gsp GD_REL = {GREL, -2, 2, GLOG, -1074, 1023};
static const gsp GD_MODA = {GLIN, -100, 100, GLOG, -1074, 1023};
static const gsp GD_MODB = {GLIN, -10, 10, GLOG, -1074, 1023};
static const gsp GD_ARG = {GLOG, -1074, 1023, GLIN, -4, 4};
static const gsp GD_MUL = {GLIN, -4, 4, GLOG, -1074, 1023};
static const gsp GD_NEG = {GNEG, 0, 0, GLIN, -4, 4};

#define FB(x) __float_as_uint(x)
#define DB(x) ((unsigned long long)__double_as_longlong(x))
#define U32(x) ((unsigned long long)(unsigned)(x))
#define U64(x) ((unsigned long long)(x))

/* ------------------------------------------------------------------------------------------ */
/* single precision groups                                                                    */
/* ------------------------------------------------------------------------------------------ */
#define FT_TRIG(X) \
    X(f_sinf, "sinf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = sinf(a)) \
    X(f_cosf, "cosf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = cosf(a)) \
    X(f_tanf, "tanf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = tanf(a)) \
    X(f_sincosf, "sincosf", 1, DK_F32, DK_F32, ".cos", GF_TRIG, G0, G0, SP_TRIG, \
      float t; sincosf(a, &r, &t); q = FB(t)) \
    X(f_sinpif, "sinpif", 1, DK_F32, 0, "", GF_PI, G0, G0, SP_PI, r = sinpif(a)) \
    X(f_cospif, "cospif", 1, DK_F32, 0, "", GF_PI, G0, G0, SP_PI, r = cospif(a)) \
    X(f_sincospif, "sincospif", 1, DK_F32, DK_F32, ".cos", GF_PI, G0, G0, SP_PI, \
      float t; sincospif(a, &r, &t); q = FB(t)) \
    X(f___sinf, "__sinf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = __sinf(a)) \
    X(f___cosf, "__cosf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = __cosf(a)) \
    X(f___tanf, "__tanf", 1, DK_F32, 0, "", GF_TRIG, G0, G0, SP_TRIG, r = __tanf(a)) \
    X(f___sincosf, "__sincosf", 1, DK_F32, DK_F32, ".cos", GF_TRIG, G0, G0, SP_TRIG, \
      float t; __sincosf(a, &r, &t); q = FB(t)) \
    X(f_asinf, "asinf", 1, DK_F32, 0, "", GF_UNIT, G0, G0, SP_UNIT, r = asinf(a)) \
    X(f_acosf, "acosf", 1, DK_F32, 0, "", GF_UNIT, G0, G0, SP_UNIT, r = acosf(a)) \
    X(f_atanf, "atanf", 1, DK_F32, 0, "", GF_ATAN, G0, G0, SP_UNIT, r = atanf(a)) \
    X(f_atan2f, "atan2f", 2, DK_F32, 0, "", GF_ATAN, GF_ATAN, G0, 0, r = atan2f(a, b))

#define FT_EXPLOG(X) \
    X(f_sinhf, "sinhf", 1, DK_F32, 0, "", GF_SINH, G0, G0, SP_EXP, r = sinhf(a)) \
    X(f_coshf, "coshf", 1, DK_F32, 0, "", GF_SINH, G0, G0, SP_EXP, r = coshf(a)) \
    X(f_tanhf, "tanhf", 1, DK_F32, 0, "", GF_TANH, G0, G0, SP_UNIT, r = tanhf(a)) \
    X(f_asinhf, "asinhf", 1, DK_F32, 0, "", GF_WIDE, G0, G0, SP_UNIT, r = asinhf(a)) \
    X(f_acoshf, "acoshf", 1, DK_F32, 0, "", GF_ACOSH, G0, G0, SP_UNIT, r = acoshf(a)) \
    X(f_atanhf, "atanhf", 1, DK_F32, 0, "", GF_UNIT, G0, G0, SP_UNIT, r = atanhf(a)) \
    X(f_expf, "expf", 1, DK_F32, 0, "", GF_EXP, G0, G0, SP_EXP, r = expf(a)) \
    X(f_exp2f, "exp2f", 1, DK_F32, 0, "", GF_EXP2, G0, G0, SP_EXP, r = exp2f(a)) \
    X(f_exp10f, "exp10f", 1, DK_F32, 0, "", GF_EXP10, G0, G0, SP_EXP, r = exp10f(a)) \
    X(f_expm1f, "expm1f", 1, DK_F32, 0, "", GF_EXPM1, G0, G0, SP_EXP, r = expm1f(a)) \
    X(f___expf, "__expf", 1, DK_F32, 0, "", GF_EXP, G0, G0, SP_EXP, r = __expf(a)) \
    X(f___exp10f, "__exp10f", 1, DK_F32, 0, "", GF_EXP10, G0, G0, SP_EXP, r = __exp10f(a)) \
    X(f_logf, "logf", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = logf(a)) \
    X(f_log2f, "log2f", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = log2f(a)) \
    X(f_log10f, "log10f", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = log10f(a)) \
    X(f_log1pf, "log1pf", 1, DK_F32, 0, "", GF_LOG1P, G0, G0, SP_UNIT, r = log1pf(a)) \
    X(f___logf, "__logf", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = __logf(a)) \
    X(f___log2f, "__log2f", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = __log2f(a)) \
    X(f___log10f, "__log10f", 1, DK_F32, 0, "", GF_LOG, G0, G0, SP_UNIT, r = __log10f(a)) \
    X(f_logbf, "logbf", 1, DK_F32, 0, "", GF_LOG, G0, G0, 0, r = logbf(a)) \
    X(f_ilogbf, "ilogbf", 1, 0, DK_U32, "", GF_LOG, G0, G0, 0, q = U32(ilogbf(a))) \
    X(f_powf, "powf", 2, DK_F32, 0, "", GF_POWA, GF_POWB, G0, SP_POW, r = powf(a, b)) \
    X(f___powf, "__powf", 2, DK_F32, 0, "", GF_POWA, GF_POWB, G0, SP_POW, r = __powf(a, b)) \
    X(f_cbrtf, "cbrtf", 1, DK_F32, 0, "", GF_WIDE, G0, G0, 0, r = cbrtf(a)) \
    X(f_rcbrtf, "rcbrtf", 1, DK_F32, 0, "", GF_WIDE, G0, G0, 0, r = rcbrtf(a)) \
    X(f_sqrtf, "sqrtf", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = sqrtf(a)) \
    X(f_rsqrtf, "rsqrtf", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = rsqrtf(a)) \
    X(f_hypotf, "hypotf", 2, DK_F32, 0, "", GF_HYP, GF_HYP, G0, 0, r = hypotf(a, b)) \
    X(f_rhypotf, "rhypotf", 2, DK_F32, 0, "", GF_HYP, GF_HYP, G0, 0, r = rhypotf(a, b)) \
    X(f_norm3df, "norm3df", 3, DK_F32, 0, "", GF_HYP, GF_HYP, GF_HYP, 0, r = norm3df(a, b, c)) \
    X(f_rnorm3df, "rnorm3df", 3, DK_F32, 0, "", GF_HYP, GF_HYP, GF_HYP, 0, r = rnorm3df(a, b, c)) \
    X(f_norm4df, "norm4df(a,b,c,a)", 3, DK_F32, 0, "", GF_HYP, GF_HYP, GF_HYP, 0, r = norm4df(a, b, c, a)) \
    X(f_rnorm4df, "rnorm4df(a,b,c,a)", 3, DK_F32, 0, "", GF_HYP, GF_HYP, GF_HYP, 0, r = rnorm4df(a, b, c, a))

#define FT_SPECIAL(X) \
    X(f_erff, "erff", 1, DK_F32, 0, "", GF_ERF, G0, G0, SP_ERF, r = erff(a)) \
    X(f_erfcf, "erfcf", 1, DK_F32, 0, "", GF_ERFC, G0, G0, SP_ERF, r = erfcf(a)) \
    X(f_erfinvf, "erfinvf", 1, DK_F32, 0, "", GF_UNIT, G0, G0, SP_ERF | SP_UNIT, r = erfinvf(a)) \
    X(f_erfcinvf, "erfcinvf", 1, DK_F32, 0, "", GF_ERFCINV, G0, G0, SP_ERF, r = erfcinvf(a)) \
    X(f_erfcxf, "erfcxf", 1, DK_F32, 0, "", GF_ERFCX, G0, G0, SP_ERF, r = erfcxf(a)) \
    X(f_normcdff, "normcdff", 1, DK_F32, 0, "", GF_NCDF, G0, G0, SP_ERF, r = normcdff(a)) \
    X(f_normcdfinvf, "normcdfinvf", 1, DK_F32, 0, "", GF_P01, G0, G0, SP_ERF, r = normcdfinvf(a)) \
    X(f_lgammaf, "lgammaf", 1, DK_F32, 0, "", GF_LGAM, G0, G0, SP_POLE, r = lgammaf(a)) \
    X(f_tgammaf, "tgammaf", 1, DK_F32, 0, "", GF_TGAM, G0, G0, SP_POLE, r = tgammaf(a)) \
    X(f_j0f, "j0f", 1, DK_F32, 0, "", GF_BES, G0, G0, SP_BES, r = j0f(a)) \
    X(f_j1f, "j1f", 1, DK_F32, 0, "", GF_BES, G0, G0, SP_BES, r = j1f(a)) \
    X(f_y0f, "y0f", 1, DK_F32, 0, "", GF_BESP, G0, G0, SP_BES, r = y0f(a)) \
    X(f_y1f, "y1f", 1, DK_F32, 0, "", GF_BESP, G0, G0, SP_BES, r = y1f(a)) \
    X(f_jnf, "jnf(b,a)", 2, DK_F32, 0, "", GF_BESP, GF_BESN, G0, SP_BES, r = jnf((int)b, a)) \
    X(f_ynf, "ynf(b,a)", 2, DK_F32, 0, "", GF_BESP, GF_BESN, G0, SP_BES, r = ynf((int)b, a)) \
    X(f_i0f, "cyl_bessel_i0f", 1, DK_F32, 0, "", GF_I0, G0, G0, SP_BES, r = cyl_bessel_i0f(a)) \
    X(f_i1f, "cyl_bessel_i1f", 1, DK_F32, 0, "", GF_I0, G0, G0, SP_BES, r = cyl_bessel_i1f(a))

#define FT_ROUND(X) \
    X(f_floorf, "floorf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = floorf(a)) \
    X(f_ceilf, "ceilf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = ceilf(a)) \
    X(f_truncf, "truncf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = truncf(a)) \
    X(f_roundf, "roundf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = roundf(a)) \
    X(f_rintf, "rintf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = rintf(a)) \
    X(f_nearbyintf, "nearbyintf", 1, DK_F32, 0, "", GF_RND, G0, G0, SP_RND, r = nearbyintf(a)) \
    X(f_lrintf, "lrintf", 1, 0, DK_U64, "", GF_RNDL, G0, G0, SP_RND, q = U64(lrintf(a))) \
    X(f_lroundf, "lroundf", 1, 0, DK_U64, "", GF_RNDL, G0, G0, SP_RND, q = U64(lroundf(a))) \
    X(f_modff, "modff", 1, DK_F32, DK_F32, ".int", GF_RND, G0, G0, SP_RND, float t; r = modff(a, &t); q = FB(t)) \
    X(f_frexpf, "frexpf", 1, DK_F32, DK_U32, ".exp", GF_ANY, G0, G0, 0, int e; r = frexpf(a, &e); q = U32(e)) \
    X(f_ldexpf, "ldexpf", 2, DK_F32, 0, "", GF_ANY, GF_EXPN, G0, 0, r = ldexpf(a, (int)b)) \
    X(f_scalbnf, "scalbnf", 2, DK_F32, 0, "", GF_ANY, GF_EXPN, G0, 0, r = scalbnf(a, (int)b)) \
    X(f_nextafterf, "nextafterf", 2, DK_F32, 0, "", GF_ANY, GF_REL, G0, 0, r = nextafterf(a, b)) \
    X(f_copysignf, "copysignf", 2, DK_F32, 0, "", GF_ANY, GF_ANY, G0, 0, r = copysignf(a, b)) \
    X(f_fabsf, "fabsf", 1, DK_F32, 0, "", GF_ANY, G0, G0, 0, r = fabsf(a)) \
    X(f_fdimf, "fdimf", 2, DK_F32, 0, "", GF_ANY, GF_REL, G0, 0, r = fdimf(a, b)) \
    X(f_fmaxf, "fmaxf", 2, DK_F32, 0, "", GF_ANY, GF_REL, G0, 0, r = fmaxf(a, b)) \
    X(f_fminf, "fminf", 2, DK_F32, 0, "", GF_ANY, GF_REL, G0, 0, r = fminf(a, b)) \
    X(f_fmodf, "fmodf", 2, DK_F32, 0, "", GF_MODA, GF_MODB, G0, 0, r = fmodf(a, b)) \
    X(f_remainderf, "remainderf", 2, DK_F32, 0, "", GF_MODA, GF_MODB, G0, 0, r = remainderf(a, b)) \
    X(f_remquof, "remquof", 2, DK_F32, DK_U32, ".quo", GF_MODA, GF_MODB, G0, 0, \
      int e; r = remquof(a, b, &e); q = U32(e)) \
    X(f___saturatef, "__saturatef", 1, DK_F32, 0, "", GF_SAT, G0, G0, 0, r = __saturatef(a))

#define FT_ARITH(X) \
    X(f_div, "x/y", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = a / b) \
    X(f___fdividef, "__fdividef", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = __fdividef(a, b)) \
    X(f___fdiv_rn, "__fdiv_rn", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = __fdiv_rn(a, b)) \
    X(f___fdiv_rz, "__fdiv_rz", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = __fdiv_rz(a, b)) \
    X(f___fdiv_ru, "__fdiv_ru", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = __fdiv_ru(a, b)) \
    X(f___fdiv_rd, "__fdiv_rd", 2, DK_F32, 0, "", GF_ARG, GF_ARG, G0, 0, r = __fdiv_rd(a, b)) \
    X(f_rcp, "1/x", 1, DK_F32, 0, "", GF_ARG, G0, G0, 0, r = 1.0f / a) \
    X(f___frcp_rn, "__frcp_rn", 1, DK_F32, 0, "", GF_ARG, G0, G0, 0, r = __frcp_rn(a)) \
    X(f___frcp_rz, "__frcp_rz", 1, DK_F32, 0, "", GF_ARG, G0, G0, 0, r = __frcp_rz(a)) \
    X(f___frcp_ru, "__frcp_ru", 1, DK_F32, 0, "", GF_ARG, G0, G0, 0, r = __frcp_ru(a)) \
    X(f___frcp_rd, "__frcp_rd", 1, DK_F32, 0, "", GF_ARG, G0, G0, 0, r = __frcp_rd(a)) \
    X(f___fsqrt_rn, "__fsqrt_rn", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = __fsqrt_rn(a)) \
    X(f___fsqrt_rz, "__fsqrt_rz", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = __fsqrt_rz(a)) \
    X(f___fsqrt_ru, "__fsqrt_ru", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = __fsqrt_ru(a)) \
    X(f___fsqrt_rd, "__fsqrt_rd", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = __fsqrt_rd(a)) \
    X(f___frsqrt_rn, "__frsqrt_rn", 1, DK_F32, 0, "", GF_SQRT, G0, G0, 0, r = __frsqrt_rn(a)) \
    X(f___fadd_rn, "__fadd_rn", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fadd_rn(a, b)) \
    X(f___fadd_rz, "__fadd_rz", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fadd_rz(a, b)) \
    X(f___fadd_ru, "__fadd_ru", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fadd_ru(a, b)) \
    X(f___fadd_rd, "__fadd_rd", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fadd_rd(a, b)) \
    X(f___fsub_rn, "__fsub_rn", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fsub_rn(a, b)) \
    X(f___fsub_rz, "__fsub_rz", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fsub_rz(a, b)) \
    X(f___fsub_ru, "__fsub_ru", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fsub_ru(a, b)) \
    X(f___fsub_rd, "__fsub_rd", 2, DK_F32, 0, "", GF_ARG, GF_REL, G0, 0, r = __fsub_rd(a, b)) \
    X(f___fmul_rn, "__fmul_rn", 2, DK_F32, 0, "", GF_MUL, GF_MUL, G0, 0, r = __fmul_rn(a, b)) \
    X(f___fmul_rz, "__fmul_rz", 2, DK_F32, 0, "", GF_MUL, GF_MUL, G0, 0, r = __fmul_rz(a, b)) \
    X(f___fmul_ru, "__fmul_ru", 2, DK_F32, 0, "", GF_MUL, GF_MUL, G0, 0, r = __fmul_ru(a, b)) \
    X(f___fmul_rd, "__fmul_rd", 2, DK_F32, 0, "", GF_MUL, GF_MUL, G0, 0, r = __fmul_rd(a, b)) \
    X(f_fmaf, "fmaf", 3, DK_F32, 0, "", GF_MUL, GF_MUL, GF_NEG, 0, r = fmaf(a, b, c)) \
    X(f___fmaf_rn, "__fmaf_rn", 3, DK_F32, 0, "", GF_MUL, GF_MUL, GF_NEG, 0, r = __fmaf_rn(a, b, c)) \
    X(f___fmaf_rz, "__fmaf_rz", 3, DK_F32, 0, "", GF_MUL, GF_MUL, GF_NEG, 0, r = __fmaf_rz(a, b, c)) \
    X(f___fmaf_ru, "__fmaf_ru", 3, DK_F32, 0, "", GF_MUL, GF_MUL, GF_NEG, 0, r = __fmaf_ru(a, b, c)) \
    X(f___fmaf_rd, "__fmaf_rd", 3, DK_F32, 0, "", GF_MUL, GF_MUL, GF_NEG, 0, r = __fmaf_rd(a, b, c))

/* ------------------------------------------------------------------------------------------ */
/* double precision groups                                                                    */
/* ------------------------------------------------------------------------------------------ */
#define DT_ELEM(X) \
    X(d_sin, "sin", 1, DK_F64, 0, "", GD_TRIG, G0, G0, SP_TRIG, r = sin(a)) \
    X(d_cos, "cos", 1, DK_F64, 0, "", GD_TRIG, G0, G0, SP_TRIG, r = cos(a)) \
    X(d_tan, "tan", 1, DK_F64, 0, "", GD_TRIG, G0, G0, SP_TRIG, r = tan(a)) \
    X(d_sincos, "sincos", 1, DK_F64, DK_F64, ".cos", GD_TRIG, G0, G0, SP_TRIG, \
      double t; sincos(a, &r, &t); q = DB(t)) \
    X(d_sinpi, "sinpi", 1, DK_F64, 0, "", GD_PI, G0, G0, SP_PI, r = sinpi(a)) \
    X(d_cospi, "cospi", 1, DK_F64, 0, "", GD_PI, G0, G0, SP_PI, r = cospi(a)) \
    X(d_sincospi, "sincospi", 1, DK_F64, DK_F64, ".cos", GD_PI, G0, G0, SP_PI, \
      double t; sincospi(a, &r, &t); q = DB(t)) \
    X(d_asin, "asin", 1, DK_F64, 0, "", GD_UNIT, G0, G0, SP_UNIT, r = asin(a)) \
    X(d_acos, "acos", 1, DK_F64, 0, "", GD_UNIT, G0, G0, SP_UNIT, r = acos(a)) \
    X(d_atan, "atan", 1, DK_F64, 0, "", GD_ATAN, G0, G0, SP_UNIT, r = atan(a)) \
    X(d_atan2, "atan2", 2, DK_F64, 0, "", GD_ATAN, GD_ATAN, G0, 0, r = atan2(a, b)) \
    X(d_sinh, "sinh", 1, DK_F64, 0, "", GD_SINH, G0, G0, SP_EXP, r = sinh(a)) \
    X(d_cosh, "cosh", 1, DK_F64, 0, "", GD_SINH, G0, G0, SP_EXP, r = cosh(a)) \
    X(d_tanh, "tanh", 1, DK_F64, 0, "", GD_TANH, G0, G0, SP_UNIT, r = tanh(a)) \
    X(d_asinh, "asinh", 1, DK_F64, 0, "", GD_WIDE, G0, G0, SP_UNIT, r = asinh(a)) \
    X(d_acosh, "acosh", 1, DK_F64, 0, "", GD_ACOSH, G0, G0, SP_UNIT, r = acosh(a)) \
    X(d_atanh, "atanh", 1, DK_F64, 0, "", GD_UNIT, G0, G0, SP_UNIT, r = atanh(a)) \
    X(d_exp, "exp", 1, DK_F64, 0, "", GD_EXP, G0, G0, SP_EXP, r = exp(a)) \
    X(d_exp2, "exp2", 1, DK_F64, 0, "", GD_EXP2, G0, G0, SP_EXP, r = exp2(a)) \
    X(d_exp10, "exp10", 1, DK_F64, 0, "", GD_EXP10, G0, G0, SP_EXP, r = exp10(a)) \
    X(d_expm1, "expm1", 1, DK_F64, 0, "", GD_EXPM1, G0, G0, SP_EXP, r = expm1(a)) \
    X(d_log, "log", 1, DK_F64, 0, "", GD_LOG, G0, G0, SP_UNIT, r = log(a)) \
    X(d_log2, "log2", 1, DK_F64, 0, "", GD_LOG, G0, G0, SP_UNIT, r = log2(a)) \
    X(d_log10, "log10", 1, DK_F64, 0, "", GD_LOG, G0, G0, SP_UNIT, r = log10(a)) \
    X(d_log1p, "log1p", 1, DK_F64, 0, "", GD_LOG1P, G0, G0, SP_UNIT, r = log1p(a)) \
    X(d_logb, "logb", 1, DK_F64, 0, "", GD_LOG, G0, G0, 0, r = logb(a)) \
    X(d_ilogb, "ilogb", 1, 0, DK_U32, "", GD_LOG, G0, G0, 0, q = U32(ilogb(a))) \
    X(d_pow, "pow", 2, DK_F64, 0, "", GD_POWA, GD_POWB, G0, SP_POW, r = pow(a, b)) \
    X(d_cbrt, "cbrt", 1, DK_F64, 0, "", GD_WIDE, G0, G0, 0, r = cbrt(a)) \
    X(d_rcbrt, "rcbrt", 1, DK_F64, 0, "", GD_WIDE, G0, G0, 0, r = rcbrt(a)) \
    X(d_sqrt, "sqrt", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = sqrt(a)) \
    X(d_rsqrt, "rsqrt", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = rsqrt(a)) \
    X(d_hypot, "hypot", 2, DK_F64, 0, "", GD_HYP, GD_HYP, G0, 0, r = hypot(a, b)) \
    X(d_rhypot, "rhypot", 2, DK_F64, 0, "", GD_HYP, GD_HYP, G0, 0, r = rhypot(a, b)) \
    X(d_norm3d, "norm3d", 3, DK_F64, 0, "", GD_HYP, GD_HYP, GD_HYP, 0, r = norm3d(a, b, c)) \
    X(d_rnorm3d, "rnorm3d", 3, DK_F64, 0, "", GD_HYP, GD_HYP, GD_HYP, 0, r = rnorm3d(a, b, c)) \
    X(d_norm4d, "norm4d(a,b,c,a)", 3, DK_F64, 0, "", GD_HYP, GD_HYP, GD_HYP, 0, r = norm4d(a, b, c, a)) \
    X(d_rnorm4d, "rnorm4d(a,b,c,a)", 3, DK_F64, 0, "", GD_HYP, GD_HYP, GD_HYP, 0, r = rnorm4d(a, b, c, a))

#define DT_SPECIAL(X) \
    X(d_erf, "erf", 1, DK_F64, 0, "", GD_ERF, G0, G0, SP_ERF, r = erf(a)) \
    X(d_erfc, "erfc", 1, DK_F64, 0, "", GD_ERFC, G0, G0, SP_ERF, r = erfc(a)) \
    X(d_erfinv, "erfinv", 1, DK_F64, 0, "", GD_UNIT, G0, G0, SP_ERF | SP_UNIT, r = erfinv(a)) \
    X(d_erfcinv, "erfcinv", 1, DK_F64, 0, "", GD_ERFCINV, G0, G0, SP_ERF, r = erfcinv(a)) \
    X(d_erfcx, "erfcx", 1, DK_F64, 0, "", GD_ERFCX, G0, G0, SP_ERF, r = erfcx(a)) \
    X(d_normcdf, "normcdf", 1, DK_F64, 0, "", GD_NCDF, G0, G0, SP_ERF, r = normcdf(a)) \
    X(d_normcdfinv, "normcdfinv", 1, DK_F64, 0, "", GD_P01, G0, G0, SP_ERF, r = normcdfinv(a)) \
    X(d_lgamma, "lgamma", 1, DK_F64, 0, "", GD_LGAM, G0, G0, SP_POLE, r = lgamma(a)) \
    X(d_tgamma, "tgamma", 1, DK_F64, 0, "", GD_TGAM, G0, G0, SP_POLE, r = tgamma(a)) \
    X(d_j0, "j0", 1, DK_F64, 0, "", GD_BES, G0, G0, SP_BES, r = j0(a)) \
    X(d_j1, "j1", 1, DK_F64, 0, "", GD_BES, G0, G0, SP_BES, r = j1(a)) \
    X(d_y0, "y0", 1, DK_F64, 0, "", GD_BESP, G0, G0, SP_BES, r = y0(a)) \
    X(d_y1, "y1", 1, DK_F64, 0, "", GD_BESP, G0, G0, SP_BES, r = y1(a)) \
    X(d_jn, "jn(b,a)", 2, DK_F64, 0, "", GD_BESP, GF_BESN, G0, SP_BES, r = jn((int)b, a)) \
    X(d_yn, "yn(b,a)", 2, DK_F64, 0, "", GD_BESP, GF_BESN, G0, SP_BES, r = yn((int)b, a)) \
    X(d_i0, "cyl_bessel_i0", 1, DK_F64, 0, "", GD_I0, G0, G0, SP_BES, r = cyl_bessel_i0(a)) \
    X(d_i1, "cyl_bessel_i1", 1, DK_F64, 0, "", GD_I0, G0, G0, SP_BES, r = cyl_bessel_i1(a))

#define DT_ROUND(X) \
    X(d_floor, "floor", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = floor(a)) \
    X(d_ceil, "ceil", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = ceil(a)) \
    X(d_trunc, "trunc", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = trunc(a)) \
    X(d_round, "round", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = round(a)) \
    X(d_rint, "rint", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = rint(a)) \
    X(d_nearbyint, "nearbyint", 1, DK_F64, 0, "", GD_RND, G0, G0, SP_RND, r = nearbyint(a)) \
    X(d_lrint, "lrint", 1, 0, DK_U64, "", GD_RNDL, G0, G0, SP_RND, q = U64(lrint(a))) \
    X(d_lround, "lround", 1, 0, DK_U64, "", GD_RNDL, G0, G0, SP_RND, q = U64(lround(a))) \
    X(d_modf, "modf", 1, DK_F64, DK_F64, ".int", GD_RND, G0, G0, SP_RND, double t; r = modf(a, &t); q = DB(t)) \
    X(d_frexp, "frexp", 1, DK_F64, DK_U32, ".exp", GD_ANY, G0, G0, 0, int e; r = frexp(a, &e); q = U32(e)) \
    X(d_ldexp, "ldexp", 2, DK_F64, 0, "", GD_ANY, GD_EXPN, G0, 0, r = ldexp(a, (int)b)) \
    X(d_scalbn, "scalbn", 2, DK_F64, 0, "", GD_ANY, GD_EXPN, G0, 0, r = scalbn(a, (int)b)) \
    X(d_nextafter, "nextafter", 2, DK_F64, 0, "", GD_ANY, GD_REL, G0, 0, r = nextafter(a, b)) \
    X(d_copysign, "copysign", 2, DK_F64, 0, "", GD_ANY, GD_ANY, G0, 0, r = copysign(a, b)) \
    X(d_fabs, "fabs", 1, DK_F64, 0, "", GD_ANY, G0, G0, 0, r = fabs(a)) \
    X(d_fdim, "fdim", 2, DK_F64, 0, "", GD_ANY, GD_REL, G0, 0, r = fdim(a, b)) \
    X(d_fmax, "fmax", 2, DK_F64, 0, "", GD_ANY, GD_REL, G0, 0, r = fmax(a, b)) \
    X(d_fmin, "fmin", 2, DK_F64, 0, "", GD_ANY, GD_REL, G0, 0, r = fmin(a, b)) \
    X(d_fmod, "fmod", 2, DK_F64, 0, "", GD_MODA, GD_MODB, G0, 0, r = fmod(a, b)) \
    X(d_remainder, "remainder", 2, DK_F64, 0, "", GD_MODA, GD_MODB, G0, 0, r = remainder(a, b)) \
    X(d_remquo, "remquo", 2, DK_F64, DK_U32, ".quo", GD_MODA, GD_MODB, G0, 0, \
      int e; r = remquo(a, b, &e); q = U32(e))

#define DT_ARITH(X) \
    X(d_div, "x/y", 2, DK_F64, 0, "", GD_ARG, GD_ARG, G0, 0, r = a / b) \
    X(d___ddiv_rn, "__ddiv_rn", 2, DK_F64, 0, "", GD_ARG, GD_ARG, G0, 0, r = __ddiv_rn(a, b)) \
    X(d___ddiv_rz, "__ddiv_rz", 2, DK_F64, 0, "", GD_ARG, GD_ARG, G0, 0, r = __ddiv_rz(a, b)) \
    X(d___ddiv_ru, "__ddiv_ru", 2, DK_F64, 0, "", GD_ARG, GD_ARG, G0, 0, r = __ddiv_ru(a, b)) \
    X(d___ddiv_rd, "__ddiv_rd", 2, DK_F64, 0, "", GD_ARG, GD_ARG, G0, 0, r = __ddiv_rd(a, b)) \
    X(d_rcp, "1/x", 1, DK_F64, 0, "", GD_ARG, G0, G0, 0, r = 1.0 / a) \
    X(d___drcp_rn, "__drcp_rn", 1, DK_F64, 0, "", GD_ARG, G0, G0, 0, r = __drcp_rn(a)) \
    X(d___drcp_rz, "__drcp_rz", 1, DK_F64, 0, "", GD_ARG, G0, G0, 0, r = __drcp_rz(a)) \
    X(d___drcp_ru, "__drcp_ru", 1, DK_F64, 0, "", GD_ARG, G0, G0, 0, r = __drcp_ru(a)) \
    X(d___drcp_rd, "__drcp_rd", 1, DK_F64, 0, "", GD_ARG, G0, G0, 0, r = __drcp_rd(a)) \
    X(d___dsqrt_rn, "__dsqrt_rn", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = __dsqrt_rn(a)) \
    X(d___dsqrt_rz, "__dsqrt_rz", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = __dsqrt_rz(a)) \
    X(d___dsqrt_ru, "__dsqrt_ru", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = __dsqrt_ru(a)) \
    X(d___dsqrt_rd, "__dsqrt_rd", 1, DK_F64, 0, "", GD_SQRT, G0, G0, 0, r = __dsqrt_rd(a)) \
    X(d___dadd_rn, "__dadd_rn", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dadd_rn(a, b)) \
    X(d___dadd_rz, "__dadd_rz", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dadd_rz(a, b)) \
    X(d___dadd_ru, "__dadd_ru", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dadd_ru(a, b)) \
    X(d___dadd_rd, "__dadd_rd", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dadd_rd(a, b)) \
    X(d___dsub_rn, "__dsub_rn", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dsub_rn(a, b)) \
    X(d___dsub_rz, "__dsub_rz", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dsub_rz(a, b)) \
    X(d___dsub_ru, "__dsub_ru", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dsub_ru(a, b)) \
    X(d___dsub_rd, "__dsub_rd", 2, DK_F64, 0, "", GD_ARG, GD_REL, G0, 0, r = __dsub_rd(a, b)) \
    X(d___dmul_rn, "__dmul_rn", 2, DK_F64, 0, "", GD_MUL, GD_MUL, G0, 0, r = __dmul_rn(a, b)) \
    X(d___dmul_rz, "__dmul_rz", 2, DK_F64, 0, "", GD_MUL, GD_MUL, G0, 0, r = __dmul_rz(a, b)) \
    X(d___dmul_ru, "__dmul_ru", 2, DK_F64, 0, "", GD_MUL, GD_MUL, G0, 0, r = __dmul_ru(a, b)) \
    X(d___dmul_rd, "__dmul_rd", 2, DK_F64, 0, "", GD_MUL, GD_MUL, G0, 0, r = __dmul_rd(a, b)) \
    X(d_fma, "fma", 3, DK_F64, 0, "", GD_MUL, GD_MUL, GD_NEG, 0, r = fma(a, b, c)) \
    X(d___fma_rn, "__fma_rn", 3, DK_F64, 0, "", GD_MUL, GD_MUL, GD_NEG, 0, r = __fma_rn(a, b, c)) \
    X(d___fma_rz, "__fma_rz", 3, DK_F64, 0, "", GD_MUL, GD_MUL, GD_NEG, 0, r = __fma_rz(a, b, c)) \
    X(d___fma_ru, "__fma_ru", 3, DK_F64, 0, "", GD_MUL, GD_MUL, GD_NEG, 0, r = __fma_ru(a, b, c)) \
    X(d___fma_rd, "__fma_rd", 3, DK_F64, 0, "", GD_MUL, GD_MUL, GD_NEG, 0, r = __fma_rd(a, b, c))

/* ------------------------------------------------------------------------------------------ */
/* kernels and host tables                                                                    */
/* ------------------------------------------------------------------------------------------ */
struct fent {
    const char *name; int arity, k0, k1; const char *suffix; const gsp *ga, *gb, *gc; int sp;
};
#define XENUM(id, ...) id,
#define XCASE(id, nm, ar, k0, k1, s1, ga, gb, gc, sp, ...) case id: { __VA_ARGS__; } break;
#define XTAB(id, nm, ar, k0, k1, s1, ga, gb, gc, sp, ...) {nm, ar, k0, k1, s1, &ga, &gb, &gc, sp},

#define DEFGROUP(G, T)                                                                                     \
    enum { G(XENUM) G##_N };                                                                               \
    __global__ void G##_kernel(int n, const T *A, const T *B, const T *C, T *R, unsigned long long *Q)    \
    {                                                                                                      \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                                     \
        if (i >= n) return;                                                                                \
        size_t k = (size_t)blockIdx.y * n + i;                                                             \
        T a = A[k], b = B[k], c = C[k], r = 0;                                                             \
        unsigned long long q = 0;                                                                          \
        (void)a; (void)b; (void)c;                                                                         \
        switch (blockIdx.y) { G(XCASE) default: break; }                                                   \
        R[k] = r;                                                                                          \
        Q[k] = q;                                                                                          \
    }                                                                                                      \
    static const fent G##_tab[] = {G(XTAB)};

DEFGROUP(FT_TRIG, float)
DEFGROUP(FT_EXPLOG, float)
DEFGROUP(FT_SPECIAL, float)
DEFGROUP(FT_ROUND, float)
DEFGROUP(FT_ARITH, float)
DEFGROUP(DT_ELEM, double)
DEFGROUP(DT_SPECIAL, double)
DEFGROUP(DT_ROUND, double)
DEFGROUP(DT_ARITH, double)

static uint64_t name_seed(const char *prefix, const char *name)   /* per-function seed (FNV-1a of the name) */
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = prefix; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h;
}

template <typename T>
static void run_group(const char *prefix, void (*kern)(int, const T *, const T *, const T *, T *, unsigned long long *),
                      const fent *tab, int nf, int n)
{
    size_t tot = (size_t)nf * n;
    T *A = (T *)calloc(tot, sizeof(T)), *B = (T *)calloc(tot, sizeof(T)), *C = (T *)calloc(tot, sizeof(T));
    T *R = (T *)calloc(tot, sizeof(T));
    unsigned long long *Q = (unsigned long long *)calloc(tot, 8);
    void *tmp = calloc(n, 8);
    for (int f = 0; f < nf; f++)
        make_inputs<T>(tab[f].arity, *tab[f].ga, *tab[f].gb, *tab[f].gc, tab[f].sp, name_seed(prefix, tab[f].name),
                       n, A + (size_t)f * n, B + (size_t)f * n, C + (size_t)f * n);
    T *dA = NULL, *dB = NULL, *dC = NULL, *dR = NULL;
    unsigned long long *dQ = NULL;
    DCK(cudaMalloc(&dA, tot * sizeof(T))); DCK(cudaMalloc(&dB, tot * sizeof(T)));
    DCK(cudaMalloc(&dC, tot * sizeof(T))); DCK(cudaMalloc(&dR, tot * sizeof(T)));
    DCK(cudaMalloc(&dQ, tot * 8));
    DCK(cudaMemcpy(dA, A, tot * sizeof(T), cudaMemcpyHostToDevice));
    DCK(cudaMemcpy(dB, B, tot * sizeof(T), cudaMemcpyHostToDevice));
    DCK(cudaMemcpy(dC, C, tot * sizeof(T), cudaMemcpyHostToDevice));
    DCK(cudaMemset(dR, 0, tot * sizeof(T))); DCK(cudaMemset(dQ, 0, tot * 8));
    kern<<<dim3((n + 127) / 128, nf), 128>>>(n, dA, dB, dC, dR, dQ);
    DCK(cudaGetLastError());
    DCK(cudaDeviceSynchronize());
    DCK(cudaMemcpy(R, dR, tot * sizeof(T), cudaMemcpyDeviceToHost));
    DCK(cudaMemcpy(Q, dQ, tot * 8, cudaMemcpyDeviceToHost));
    for (int f = 0; f < nf; f++) {
        const fent &e = tab[f];
        const T *in = A + (size_t)f * n;
        char nm[64];
        snprintf(nm, sizeof nm, "%s.%s", prefix, e.name);
        if (e.k0) diff_section_in(nm, e.k0, 0, R + (size_t)f * n, n, TR<T>::DK, in);
        if (e.k1) {
            const unsigned long long *q = Q + (size_t)f * n;
            size_t sz = diff_kind_size(e.k1);
            for (int i = 0; i < n; i++) {
                if (sz == 4) { uint32_t v = (uint32_t)q[i]; memcpy((char *)tmp + 4 * i, &v, 4); }
                else memcpy((char *)tmp + 8 * i, &q[i], 8);
            }
            snprintf(nm, sizeof nm, "%s.%s%s", prefix, e.name, e.k0 ? e.suffix : "");
            diff_section_in(nm, e.k1, 0, tmp, n, TR<T>::DK, in);
        }
    }
    DCK(cudaFree(dA)); DCK(cudaFree(dB)); DCK(cudaFree(dC)); DCK(cudaFree(dR)); DCK(cudaFree(dQ));
    free(A); free(B); free(C); free(R); free(Q); free(tmp);
}

int main(int argc, char **argv)
{
    diff_begin(argc, argv);
    run_group<float>("f32", FT_TRIG_kernel, FT_TRIG_tab, FT_TRIG_N, 1664);
    run_group<float>("f32", FT_EXPLOG_kernel, FT_EXPLOG_tab, FT_EXPLOG_N, 1664);
    run_group<float>("f32", FT_SPECIAL_kernel, FT_SPECIAL_tab, FT_SPECIAL_N, 1664);
    run_group<float>("f32", FT_ROUND_kernel, FT_ROUND_tab, FT_ROUND_N, 1024);
    run_group<float>("f32", FT_ARITH_kernel, FT_ARITH_tab, FT_ARITH_N, 1024);
    run_group<double>("f64", DT_ELEM_kernel, DT_ELEM_tab, DT_ELEM_N, 960);
    run_group<double>("f64", DT_SPECIAL_kernel, DT_SPECIAL_tab, DT_SPECIAL_N, 1024);
    run_group<double>("f64", DT_ROUND_kernel, DT_ROUND_tab, DT_ROUND_N, 768);
    run_group<double>("f64", DT_ARITH_kernel, DT_ARITH_tab, DT_ARITH_N, 768);
    return diff_end();
}
