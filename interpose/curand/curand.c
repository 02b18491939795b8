/*
 * curand.c - the cuRAND host API (libcurand.so.10) for the NPU: pseudorandom generators
 * XORWOW (the default) and Philox4x32-10, with 32-bit integers, uniform and normal (float and
 * double) and log-normal distributions. What CuPy's cupy.random (RandomState) calls.
 *
 * Sequences are cuRAND's, bit for bit. The algorithms are the published ones (Marsaglia's
 * xorwow with cuRAND's seeding and Weyl counter; Salmon et al.'s Philox4x32-10; Box-Muller),
 * and the host-API layout was established against NVIDIA's own host generator
 * (curandCreateGeneratorHost in the toolkit's libcurand.so.10, which runs without a GPU and
 * whose results the documentation says are those of the device generator):
 *   XORWOW  4096 subsequences, 2^67 apart (subsequence t = curand_init(seed, t, 0)); element
 *           g of the output stream comes from subsequence g mod 4096. Setting the seed or
 *           the offset places subsequence t at draw (first element >= offset of t) div 4096;
 *           from then on each subsequence simply continues, an element taking one 32-bit
 *           draw (uint, float), two (double: x ^ y << 21; a float normal pair) or four (a
 *           double normal pair), so after doubles the positions are not g div 4096 (found
 *           by comparing mixed call sequences with NVIDIA's generator).
 *   Philox  65536 subsequences (counter = (block, subsequence)); value g is lane g mod 4 of
 *           unit g div 4, of subsequence (g div 4) mod 65536; the offset counts values.
 *           Setting seed/offset puts each subsequence's first unit at block (unit div
 *           65536); lane l of a unit is word c*l from the unit's base block (c = 2 for
 *           doubles: a uniform double from 2 words, a double normal pair from a whole block;
 *           else 1); completing a unit moves the base past its last block. So 4 doubles
 *           span 2 blocks, and after them the next unit starts 2 blocks on.
 * The generator offset counts elements (XORWOW) / values (Philox) and advances by what each
 * call produced. Normals use the host formulas (sinf/cosf/logf; sin/cos/log of v*pi for
 * double): bit-exact against NVIDIA's host generator with glibc's libm; a GPU computes them
 * with __sincosf/sincospi, so device results differ from both in the last bits.
 * DEFAULT, BEST, LEGACY and DYNAMIC orderings give the layout above (NVIDIA's host generator
 * gives the same for DEFAULT and LEGACY); SEEDED is refused (CURAND_STATUS_ARCH_MISMATCH,
 * cuRAND's "GPU does not support requested feature"), as are the other generator types and
 * curandGeneratePoisson: no status means "not supported" in cuRAND, that is the nearest.
 *
 * Jumping 2^67 draws (and to an offset) uses XORWOW's 160x160 GF(2) transition matrix M,
 * squared up to M^(2^127) once per process; each of the 4096 subsequence states is the
 * previous one times M^(2^67). Between calls a generator keeps its 4096 states (Philox: the
 * base block of each of its 65536 subsequences), so sequential calls only step forward.
 * Measured on the 2-vCPU VM against NVIDIA's host generator in the same run (host memory,
 * ours on one thread): first call (matrices + states) 13.5 ms vs 10.4; re-seed 1.1 ms vs 11.0;
 * 16M XORWOW uints 57 ms vs 174; offset jump 13 ms vs 46; 16M Philox uints 84 ms vs 40.
 *
 * Generation runs on the calling host thread after the generator's stream has drained
 * (cudaStreamSynchronize semantics), into device memory that is host memory here; the
 * output range must lie inside one device allocation (CURAND_STATUS_LAUNCH_FAILURE
 * otherwise, as a kernel fault would be on a GPU). Thread-safety: one mutex per generator.
 */
#include <curand.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interpose/common/shim.h"

#define GEN_MAGIC 0x4e505552u        /* "RUPN" */
#define XW_THREADS 4096
#define PH_THREADS 65536
#define JUMP_POWERS 128

typedef struct xw_state {
    uint32_t d, v[5];
} xw_state_t;

struct curandGenerator_st {
    uint32_t magic;
    curandRngType_t type;
    int host;                        /* curandCreateGeneratorHost: output in host memory */
    int device;
    unsigned long long seed, offset;
    curandOrdering_t ordering;
    cudaStream_t stream;
    pthread_mutex_t lock;
    /* XORWOW: states of the 4096 subsequences and how many draws each has made */
    xw_state_t *xw;
    unsigned long long *xw_pos;
    int xw_valid;
    /* Philox: base block of each of the 65536 subsequences' current unit */
    unsigned long long *ph_base;
    int ph_valid;
};

/* ------------------------------------------------------------ XORWOW ---- */
static uint32_t xw_next(xw_state_t *s)
{
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

static void xw_seed(xw_state_t *s, unsigned long long seed)
{
    uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
    uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    s->d = 6615241u + t1 + t0;
    s->v[0] = 123456789u + t0;
    s->v[1] = 362436069u ^ t0;
    s->v[2] = 521288629u + t1;
    s->v[3] = 88675123u ^ t1;
    s->v[4] = 5783321u + t0;
}

/* GF(2) matrices over the 160 state bits: row i holds the 5 words whose parity with the state
 * gives new bit i. jump_pow[k] = M^(2^k). */
typedef struct xw_mat {
    uint32_t r[160][5];
} xw_mat_t;
static xw_mat_t *jump_pow;
static pthread_once_t jump_once = PTHREAD_ONCE_INIT;

static void mat_vec(const xw_mat_t *m, uint32_t v[5])
{
    uint32_t o[5] = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < 160; i++) {
        uint32_t acc = (m->r[i][0] & v[0]) ^ (m->r[i][1] & v[1]) ^ (m->r[i][2] & v[2]) ^
                       (m->r[i][3] & v[3]) ^ (m->r[i][4] & v[4]);
        o[i >> 5] |= (uint32_t)__builtin_parity(acc) << (i & 31);
    }
    memcpy(v, o, sizeof o);
}

static void mat_square(const xw_mat_t *a, xw_mat_t *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 160; i++)
        for (int k = 0; k < 160; k++)
            if (a->r[i][k >> 5] >> (k & 31) & 1)
                for (int w = 0; w < 5; w++)
                    out->r[i][w] ^= a->r[k][w];
}

static void jump_init(void)
{
    xw_mat_t *p = calloc(JUMP_POWERS, sizeof *p);
    if (!p)
        return;
    for (int j = 0; j < 160; j++) {     /* column j: the step applied to basis vector j */
        xw_state_t s;
        memset(&s, 0, sizeof s);
        s.v[j >> 5] = 1u << (j & 31);
        xw_next(&s);
        for (int i = 0; i < 160; i++)
            if (s.v[i >> 5] >> (i & 31) & 1)
                p[0].r[i][j >> 5] |= 1u << (j & 31);
    }
    for (int k = 1; k < JUMP_POWERS; k++)
        mat_square(&p[k - 1], &p[k]);
    jump_pow = p;
}

/* Advances s by n draws (n * 2^base when base > 0: used for subsequences, where the Weyl
 * counter d moves by a multiple of 2^32, i.e. not at all). */
static void xw_jump(xw_state_t *s, unsigned long long n, int base)
{
    if (base == 0 && n < 64) {
        while (n--)
            xw_next(s);
        return;
    }
    if (base == 0)
        s->d += 362437u * (uint32_t)n;
    for (int k = base; n && k < JUMP_POWERS; k++, n >>= 1)
        if (n & 1)
            mat_vec(&jump_pow[k], s->v);
}

static curandStatus_t xw_prepare(curandGenerator_t g)
{
    if (!g->xw) {
        g->xw = malloc(XW_THREADS * sizeof *g->xw);
        g->xw_pos = malloc(XW_THREADS * sizeof *g->xw_pos);
        if (!g->xw || !g->xw_pos)
            return CURAND_STATUS_ALLOCATION_FAILED;
    }
    pthread_once(&jump_once, jump_init);
    if (!jump_pow)
        return CURAND_STATUS_ALLOCATION_FAILED;
    if (!g->xw_valid) {
        /* subsequence t starts at the draw of its first element at or after the offset */
        unsigned long long o = g->offset;
        xw_state_t s;
        xw_seed(&s, g->seed);
        for (unsigned t = 0; t < XW_THREADS; t++) {
            unsigned long long first = o + ((t + XW_THREADS - (unsigned)(o % XW_THREADS)) % XW_THREADS);
            g->xw[t] = s;
            g->xw_pos[t] = first / XW_THREADS;
            xw_jump(&g->xw[t], g->xw_pos[t], 0);
            xw_jump(&s, 1, 67);
        }
        g->xw_valid = 1;
    }
    return CURAND_STATUS_SUCCESS;
}

/* ------------------------------------------------------------- Philox ---- */
static void philox_block(uint32_t ctr[4], uint32_t k0, uint32_t k1, uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1, n3 = (uint32_t)p0;
        c0 = n0; c1 = n1; c2 = n2; c3 = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/* The 4 values of unit u (subsequence u mod 65536, block u div 65536). */
static void ph_unit(const struct curandGenerator_st *g, unsigned long long u, uint32_t out[4])
{
    unsigned long long blk = u / PH_THREADS, sub = u % PH_THREADS;
    uint32_t ctr[4] = { (uint32_t)blk, (uint32_t)(blk >> 32), (uint32_t)sub, (uint32_t)(sub >> 32) };
    philox_block(ctr, (uint32_t)g->seed, (uint32_t)(g->seed >> 32), out);
}

/* --------------------------------------------------------- transforms ---- */
#define INV32 2.3283064e-10f
#define INV32_2PI (2.3283064e-10f * 6.2831855f)
#define INV53 1.1102230246251565e-16
#define PI_D 3.1415926535897932

static float u32_float(uint32_t x) { return x * INV32 + (INV32 / 2.0f); }

static double u32x2_double(uint32_t x, uint32_t y)
{
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
    return z * INV53 + (INV53 / 2.0);
}

static void box_muller(uint32_t x, uint32_t y, float *a, float *b)
{
    float u = x * INV32 + (INV32 / 2);
    float v = y * INV32_2PI + (INV32_2PI / 2);
    float s = sqrtf(-2.0f * logf(u));
    *a = sinf(v) * s;
    *b = cosf(v) * s;
}

static void box_muller_double(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double *a, double *b)
{
    unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
    double u = zx * INV53 + (INV53 / 2.0);
    unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
    double v = zy * (INV53 * 2.0) + INV53;
    double s = sqrt(-2.0 * log(u));
    *a = sin(v * PI_D) * s;
    *b = cos(v * PI_D) * s;
}

/* ------------------------------------------------------------- common ---- */
enum kind { K_UINT, K_FLOAT, K_DOUBLE, K_NORMAL, K_NORMAL_D, K_LOGNORMAL, K_LOGNORMAL_D };

static int gen_valid(curandGenerator_t g)
{
    return g != NULL && g->magic == GEN_MAGIC;
}

static curandStatus_t check_output(curandGenerator_t g, const void *p, size_t bytes)
{
    if (p == NULL)
        return CURAND_STATUS_LAUNCH_FAILURE;
    if (g->host)
        return CURAND_STATUS_SUCCESS;
    npu_ptr_info_t info;
    if (npu_mem_lookup(p, &info) != NPU_OK ||
        (info.kind != NPU_MEM_DEVICE && info.kind != NPU_MEM_MANAGED && info.kind != NPU_MEM_HOST))
        return CURAND_STATUS_LAUNCH_FAILURE;
    if ((const char *)p + bytes > (const char *)info.base + info.size)
        return CURAND_STATUS_LAUNCH_FAILURE;
    return CURAND_STATUS_SUCCESS;
}

static void store(enum kind k, void *out, size_t i, float f, double d, float mean, float sd,
                  double meand, double sdd)
{
    switch (k) {
    case K_FLOAT: ((float *)out)[i] = f; break;
    case K_DOUBLE: ((double *)out)[i] = d; break;
    case K_NORMAL: ((float *)out)[i] = f * sd + mean; break;
    case K_LOGNORMAL: ((float *)out)[i] = expf(f * sd + mean); break;
    case K_NORMAL_D: ((double *)out)[i] = d * sdd + meand; break;
    case K_LOGNORMAL_D: ((double *)out)[i] = exp(d * sdd + meand); break;
    default: break;
    }
}

static curandStatus_t generate_xorwow(curandGenerator_t g, enum kind k, void *out, size_t n,
                                      double mean, double sd)
{
    int per = (k == K_UINT || k == K_FLOAT) ? 1 : (k == K_NORMAL_D || k == K_LOGNORMAL_D) ? 4 : 2;
    int pair = (k == K_NORMAL || k == K_LOGNORMAL || k == K_NORMAL_D || k == K_LOGNORMAL_D);
    size_t elems = pair ? n / 2 : n;
    curandStatus_t st = xw_prepare(g);
    if (st != CURAND_STATUS_SUCCESS)
        return st;
    for (size_t e = 0; e < elems; e++) {
        unsigned t = (unsigned)((g->offset + e) % XW_THREADS);
        xw_state_t *s = &g->xw[t];
        g->xw_pos[t] += (unsigned long long)per;
        if (k == K_UINT) {
            ((uint32_t *)out)[e] = xw_next(s);
        } else if (k == K_FLOAT) {
            ((float *)out)[e] = u32_float(xw_next(s));
        } else if (k == K_DOUBLE) {
            uint32_t x = xw_next(s), y = xw_next(s);
            ((double *)out)[e] = u32x2_double(x, y);
        } else if (k == K_NORMAL || k == K_LOGNORMAL) {
            uint32_t x = xw_next(s), y = xw_next(s);
            float a, b;
            box_muller(x, y, &a, &b);
            store(k, out, 2 * e, a, 0, (float)mean, (float)sd, 0, 0);
            store(k, out, 2 * e + 1, b, 0, (float)mean, (float)sd, 0, 0);
        } else {
            uint32_t x0 = xw_next(s), x1 = xw_next(s), y0 = xw_next(s), y1 = xw_next(s);
            double a, b;
            box_muller_double(x0, x1, y0, y1, &a, &b);
            store(k, out, 2 * e, 0, a, 0, 0, mean, sd);
            store(k, out, 2 * e + 1, 0, b, 0, 0, mean, sd);
        }
    }
    g->offset += elems;
    return CURAND_STATUS_SUCCESS;
}

static curandStatus_t generate_philox(curandGenerator_t g, enum kind k, void *out, size_t n,
                                      double mean, double sd)
{
    /* Value gi is lane gi % 4 of unit u = gi / 4, of subsequence u mod 65536. Each subsequence
     * keeps the base block of its current unit; lane l of a unit is word c*l from that base
     * (c = 2 words for doubles, 1 otherwise); finishing a unit (lane 3) moves the base past
     * the last block used. */
    int c = (k == K_DOUBLE || k == K_NORMAL_D || k == K_LOGNORMAL_D) ? 2 : 1;
    if (!g->ph_base) {
        g->ph_base = malloc(PH_THREADS * sizeof *g->ph_base);
        if (!g->ph_base)
            return CURAND_STATUS_ALLOCATION_FAILED;
    }
    unsigned long long o = g->offset;
    if (!g->ph_valid) {
        unsigned long long u0 = o / 4;
        for (unsigned t = 0; t < PH_THREADS; t++)
            g->ph_base[t] = (u0 + (t + PH_THREADS - (unsigned)(u0 % PH_THREADS)) % PH_THREADS) / PH_THREADS;
        g->ph_valid = 1;
    }
    uint32_t b[4];
    unsigned long long cur = ~0ull;
    for (size_t i = 0; i < n; i++) {
        unsigned long long gi = o + i;
        unsigned lane = (unsigned)(gi % 4), t = (unsigned)((gi / 4) % PH_THREADS);
        unsigned pos = (unsigned)c * lane;
        unsigned long long blk = g->ph_base[t] + pos / 4;
        unsigned long long unit = blk * PH_THREADS + t;
        unsigned w = pos % 4;
        if (unit != cur) {
            ph_unit(g, unit, b);
            cur = unit;
        }
        if (lane == 3)
            g->ph_base[t] = blk + 1;
        switch (k) {
        case K_UINT: ((uint32_t *)out)[i] = b[w]; break;
        case K_FLOAT: ((float *)out)[i] = u32_float(b[w]); break;
        case K_DOUBLE: ((double *)out)[i] = u32x2_double(b[w & 2], b[(w & 2) + 1]); break;
        case K_NORMAL:
        case K_LOGNORMAL: {
            float x, y;
            box_muller(b[w & 2], b[(w & 2) + 1], &x, &y);
            store(k, out, i, (w & 1) ? y : x, 0, (float)mean, (float)sd, 0, 0);
            break;
        }
        default: {
            double x, y;
            box_muller_double(b[0], b[1], b[2], b[3], &x, &y);
            store(k, out, i, 0, (w & 2) ? y : x, 0, 0, mean, sd);
            break;
        }
        }
    }
    g->offset += n;
    return CURAND_STATUS_SUCCESS;
}

static curandStatus_t generate(curandGenerator_t g, enum kind k, void *out, size_t n, size_t elem,
                               double mean, double sd)
{
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    int pair = (k == K_NORMAL || k == K_LOGNORMAL || k == K_NORMAL_D || k == K_LOGNORMAL_D);
    if (pair && (n & 1))
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    if (n == 0)
        return CURAND_STATUS_SUCCESS;
    if (n > (size_t)-1 / 8)
        return CURAND_STATUS_OUT_OF_RANGE;
    curandStatus_t st = check_output(g, out, n * elem);
    if (st != CURAND_STATUS_SUCCESS)
        return st;
    if (!g->host) {
        if (npu_init() != NPU_OK)
            return CURAND_STATUS_INITIALIZATION_FAILED;
        npu_stream_t *s = shim_stream(g->stream, 0);
        if (s == NULL)
            return CURAND_STATUS_LAUNCH_FAILURE;
        if (npu_stream_sync(s) != NPU_OK)
            return CURAND_STATUS_PREEXISTING_FAILURE;
    }
    pthread_mutex_lock(&g->lock);
    if (g->type == CURAND_RNG_PSEUDO_XORWOW)
        st = generate_xorwow(g, k, out, n, mean, sd);
    else
        st = generate_philox(g, k, out, n, mean, sd);
    pthread_mutex_unlock(&g->lock);
    return st;
}

/* ----------------------------------------------------------- exported ---- */
static curandStatus_t create(curandGenerator_t *out, curandRngType_t type, int host)
{
    if (out == NULL)
        return CURAND_STATUS_NOT_INITIALIZED;
    *out = NULL;
    if (type == CURAND_RNG_PSEUDO_DEFAULT)
        type = CURAND_RNG_PSEUDO_XORWOW;
    if (type != CURAND_RNG_PSEUDO_XORWOW && type != CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        if (type == CURAND_RNG_TEST || (type >= CURAND_RNG_PSEUDO_MRG32K3A &&
                                         type <= CURAND_RNG_QUASI_SCRAMBLED_SOBOL64)) {
            NPU_WARN("curandCreateGenerator: generator type %d is not supported by transfer_to_npu "
                     "(XORWOW and PHILOX4_32_10 are)", (int)type);
            return CURAND_STATUS_ARCH_MISMATCH;
        }
        return CURAND_STATUS_TYPE_ERROR;
    }
    curandGenerator_t g = calloc(1, sizeof *g);
    if (g == NULL)
        return CURAND_STATUS_ALLOCATION_FAILED;
    g->magic = GEN_MAGIC;
    g->type = type;
    g->host = host;
    g->seed = 0;                     /* cuRAND's documented default seed */
    g->ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
    pthread_mutex_init(&g->lock, NULL);
    if (!host) {
        if (npu_init() != NPU_OK) {
            free(g);
            return CURAND_STATUS_INITIALIZATION_FAILED;
        }
        g->device = npu_device_current();
    }
    *out = g;
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
    NPU_API_SCOPE(__func__);
    return create(generator, rng_type, 0);
}

NPU_EXPORT curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
    NPU_API_SCOPE(__func__);
    return create(generator, rng_type, 1);
}

NPU_EXPORT curandStatus_t curandDestroyGenerator(curandGenerator_t g)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    g->magic = 0;
    pthread_mutex_destroy(&g->lock);
    free(g->xw);
    free(g->xw_pos);
    free(g->ph_base);
    free(g);
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandGetVersion(int *version)
{
    NPU_API_SCOPE(__func__);
    if (version == NULL)
        return CURAND_STATUS_OUT_OF_RANGE;
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandGetProperty(libraryPropertyType type, int *value)
{
    NPU_API_SCOPE(__func__);
    if (value == NULL)
        return CURAND_STATUS_OUT_OF_RANGE;
    switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; break;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; break;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; break;
    default: return CURAND_STATUS_OUT_OF_RANGE;
    }
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    g->stream = stream;
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&g->lock);
    g->seed = seed;
    g->xw_valid = 0;
    g->ph_valid = 0;
    pthread_mutex_unlock(&g->lock);
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&g->lock);
    g->offset = offset;
    g->xw_valid = 0;
    g->ph_valid = 0;
    pthread_mutex_unlock(&g->lock);
    return CURAND_STATUS_SUCCESS;
}

NPU_EXPORT curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t order)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    switch (order) {
    case CURAND_ORDERING_PSEUDO_BEST:
    case CURAND_ORDERING_PSEUDO_DEFAULT:
    case CURAND_ORDERING_PSEUDO_LEGACY:
    case CURAND_ORDERING_PSEUDO_DYNAMIC:
        g->ordering = order;
        return CURAND_STATUS_SUCCESS;
    case CURAND_ORDERING_PSEUDO_SEEDED:
        NPU_WARN("curandSetGeneratorOrdering: CURAND_ORDERING_PSEUDO_SEEDED is not supported by transfer_to_npu");
        return CURAND_STATUS_ARCH_MISMATCH;
    default:
        return CURAND_STATUS_OUT_OF_RANGE;
    }
}

NPU_EXPORT curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t g, unsigned int dims)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    return CURAND_STATUS_TYPE_ERROR;  /* pseudorandom generators have no dimensions */
}

NPU_EXPORT curandStatus_t curandGenerateSeeds(curandGenerator_t g)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&g->lock);
    curandStatus_t st = g->type == CURAND_RNG_PSEUDO_XORWOW ? xw_prepare(g) : CURAND_STATUS_SUCCESS;
    pthread_mutex_unlock(&g->lock);
    return st;
}

NPU_EXPORT curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *out, size_t num)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_UINT, out, num, 4, 0, 1);
}

NPU_EXPORT curandStatus_t curandGenerateLongLong(curandGenerator_t g, unsigned long long *out, size_t num)
{
    NPU_API_SCOPE(__func__);
    if (!gen_valid(g))
        return CURAND_STATUS_NOT_INITIALIZED;
    return CURAND_STATUS_TYPE_ERROR;  /* 64-bit results come only from 64-bit quasirandom generators */
}

NPU_EXPORT curandStatus_t curandGenerateUniform(curandGenerator_t g, float *out, size_t num)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_FLOAT, out, num, 4, 0, 1);
}

NPU_EXPORT curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double *out, size_t num)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_DOUBLE, out, num, 8, 0, 1);
}

NPU_EXPORT curandStatus_t curandGenerateNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_NORMAL, out, n, 4, mean, stddev);
}

NPU_EXPORT curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double *out, size_t n, double mean,
                                                     double stddev)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_NORMAL_D, out, n, 8, mean, stddev);
}

NPU_EXPORT curandStatus_t curandGenerateLogNormal(curandGenerator_t g, float *out, size_t n, float mean,
                                                  float stddev)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_LOGNORMAL, out, n, 4, mean, stddev);
}

NPU_EXPORT curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t g, double *out, size_t n, double mean,
                                                        double stddev)
{
    NPU_API_SCOPE(__func__);
    return generate(g, K_LOGNORMAL_D, out, n, 8, mean, stddev);
}
