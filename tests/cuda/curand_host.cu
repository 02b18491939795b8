// NVCC_FLAGS: -ldl
// cuRAND host API on the NPU (interpose/curand): XORWOW and Philox4x32-10 sequences, bit for
// bit against NVIDIA's own host generator (curandCreateGeneratorHost in the toolkit's
// libcurand.so.10, reached with dlopen/dlsym so that it is not interposed; it runs on the CPU),
// device generators into cudaMalloc memory, offsets, successive calls, mixed distributions,
// statistics, and bad input. The program does not link libcurand: our functions come from the
// preloaded runtime (dlsym(RTLD_DEFAULT)), NVIDIA's from a private RTLD_DEEPBIND load, so the
// two never resolve to each other.
#include <curand.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OURS(X) X(curandCreateGenerator) X(curandCreateGeneratorHost) X(curandSetPseudoRandomGeneratorSeed) \
    X(curandSetGeneratorOffset) X(curandGenerate) X(curandGenerateUniform) X(curandGenerateUniformDouble) \
    X(curandGenerateNormal) X(curandGenerateLogNormal) X(curandGenerateNormalDouble) X(curandDestroyGenerator) \
    X(curandSetStream) X(curandGenerateLongLong) X(curandSetGeneratorOrdering) X(curandGetVersion)
#define DECL(f) static decltype(&f) p_##f;
OURS(DECL)
static int load_ours(void)
{
    int ok = 1;
#define LOAD(f) p_##f = (decltype(&f))dlsym(RTLD_DEFAULT, #f); ok &= p_##f != NULL;
    OURS(LOAD)
    return ok;
}
#define curandCreateGenerator p_curandCreateGenerator
#define curandCreateGeneratorHost p_curandCreateGeneratorHost
#define curandSetPseudoRandomGeneratorSeed p_curandSetPseudoRandomGeneratorSeed
#define curandSetGeneratorOffset p_curandSetGeneratorOffset
#define curandGenerate p_curandGenerate
#define curandGenerateUniform p_curandGenerateUniform
#define curandGenerateUniformDouble p_curandGenerateUniformDouble
#define curandGenerateNormal p_curandGenerateNormal
#define curandGenerateLogNormal p_curandGenerateLogNormal
#define curandGenerateNormalDouble p_curandGenerateNormalDouble
#define curandDestroyGenerator p_curandDestroyGenerator
#define curandSetStream p_curandSetStream
#define curandGenerateLongLong p_curandGenerateLongLong
#define curandSetGeneratorOrdering p_curandSetGeneratorOrdering
#define curandGetVersion p_curandGetVersion

typedef curandStatus_t (*create_fn)(curandGenerator_t *, curandRngType_t);
typedef curandStatus_t (*gen_fn)(curandGenerator_t, void *, size_t);
typedef curandStatus_t (*seed_fn)(curandGenerator_t, unsigned long long);
typedef curandStatus_t (*norm_fn)(curandGenerator_t, float *, size_t, float, float);
typedef curandStatus_t (*normd_fn)(curandGenerator_t, double *, size_t, double, double);
typedef curandStatus_t (*destroy_fn)(curandGenerator_t);

struct api {
    create_fn createHost;
    seed_fn seed, offset;
    gen_fn u32, uni, unid;
    norm_fn normal, lognormal;
    normd_fn normald;
    destroy_fn destroy;
};

static struct api ours;
static void fill_ours(void)
{
    struct api a = {
    curandCreateGeneratorHost, curandSetPseudoRandomGeneratorSeed, curandSetGeneratorOffset,
    (gen_fn)curandGenerate, (gen_fn)curandGenerateUniform, (gen_fn)curandGenerateUniformDouble,
    curandGenerateNormal, curandGenerateLogNormal, curandGenerateNormalDouble, curandDestroyGenerator};
    ours = a;
}

static int load_ref(struct api *r)
{
    void *h = dlopen("/usr/local/cuda/lib64/libcurand.so.10", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) return 0;
    r->createHost = (create_fn)dlsym(h, "curandCreateGeneratorHost");
    r->seed = (seed_fn)dlsym(h, "curandSetPseudoRandomGeneratorSeed");
    r->offset = (seed_fn)dlsym(h, "curandSetGeneratorOffset");
    r->u32 = (gen_fn)dlsym(h, "curandGenerate");
    r->uni = (gen_fn)dlsym(h, "curandGenerateUniform");
    r->unid = (gen_fn)dlsym(h, "curandGenerateUniformDouble");
    r->normal = (norm_fn)dlsym(h, "curandGenerateNormal");
    r->lognormal = (norm_fn)dlsym(h, "curandGenerateLogNormal");
    r->normald = (normd_fn)dlsym(h, "curandGenerateNormalDouble");
    r->destroy = (destroy_fn)dlsym(h, "curandDestroyGenerator");
    if (!r->createHost || !r->u32 || !r->normald) return 0;
    // the handle must be NVIDIA's library, not our interposed symbols
    return (void *)r->createHost != (void *)p_curandCreateGeneratorHost;
}

// One scenario: a seed, an offset, then a list of calls (kind, n). Returns all bytes produced.
struct call { int kind; size_t n; };
static size_t run(const struct api *a, curandRngType_t type, unsigned long long seed,
                  unsigned long long off, const struct call *calls, int ncalls, unsigned char *out)
{
    curandGenerator_t g;
    CHECK(a->createHost(&g, type) == CURAND_STATUS_SUCCESS);
    CHECK(a->seed(g, seed) == CURAND_STATUS_SUCCESS);
    CHECK(a->offset(g, off) == CURAND_STATUS_SUCCESS);
    size_t pos = 0;
    for (int i = 0; i < ncalls; i++) {
        size_t n = calls[i].n;
        curandStatus_t s;
        pos = (pos + 15) & ~(size_t)15;   // NVIDIA's generator stores double2 pairs: 16-byte aligned
        switch (calls[i].kind) {
        case 0: s = a->u32(g, out + pos, n); pos += 4 * n; break;
        case 1: s = a->uni(g, out + pos, n); pos += 4 * n; break;
        case 2: s = a->unid(g, out + pos, n); pos += 8 * n; break;
        case 3: s = a->normal(g, (float *)(out + pos), n, 0.f, 1.f); pos += 4 * n; break;
        case 4: s = a->normald(g, (double *)(out + pos), n, 0., 1.); pos += 8 * n; break;
        default: s = a->lognormal(g, (float *)(out + pos), n, 0.5f, 0.25f); pos += 4 * n; break;
        }
        CHECK(s == CURAND_STATUS_SUCCESS);
    }
    a->destroy(g);
    return pos;
}

static void stats_check(void)
{
    // Distribution sanity on our device generators (independent of any reference library).
    for (int t = 0; t < 2; t++) {
        curandRngType_t type = t ? CURAND_RNG_PSEUDO_PHILOX4_32_10 : CURAND_RNG_PSEUDO_DEFAULT;
        curandGenerator_t g;
        CHECK(curandCreateGenerator(&g, type) == CURAND_STATUS_SUCCESS);
        CHECK(curandSetPseudoRandomGeneratorSeed(g, 42) == CURAND_STATUS_SUCCESS);
        const size_t n = 1 << 20;
        float *d;
        CHECK(cudaMalloc(&d, n * sizeof(float)) == cudaSuccess);
        float *h = (float *)malloc(n * sizeof(float));
        CHECK(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS);
        CHECK(cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        double m = 0, v = 0;
        for (size_t i = 0; i < n; i++) { CHECK(h[i] > 0.f && h[i] <= 1.f); m += h[i]; }
        m /= n;
        for (size_t i = 0; i < n; i++) v += (h[i] - m) * (h[i] - m);
        v /= n;
        CHECK(fabs(m - 0.5) < 0.002 && fabs(v - 1.0 / 12) < 0.001);
        CHECK(curandGenerateNormal(g, d, n, 2.0f, 3.0f) == CURAND_STATUS_SUCCESS);
        CHECK(cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        m = 0; v = 0;
        for (size_t i = 0; i < n; i++) m += h[i];
        m /= n;
        for (size_t i = 0; i < n; i++) v += (h[i] - m) * (h[i] - m);
        v /= n;
        CHECK(fabs(m - 2.0) < 0.01 && fabs(sqrt(v) - 3.0) < 0.01);
        cudaFree(d); free(h);
        CHECK(curandDestroyGenerator(g) == CURAND_STATUS_SUCCESS);
    }
}

int main(void)
{
    if (!load_ours()) {
        fprintf(stderr, "the cuRAND entry points are not in the preloaded runtime\n");
        return 1;
    }
    fill_ours();
    struct api ref;
    int have_ref = load_ref(&ref);
    if (!have_ref) printf("note: NVIDIA's libcurand.so.10 not found: bit-exact comparisons skipped\n");
    static const struct call plan[][6] = {
        {{0, 10000}, {0, 5000}, {1, 4097}, {0, 3}},
        {{2, 9000}, {0, 100}, {3, 8192}, {0, 17}},
        {{3, 10}, {0, 8}, {4, 12002}, {1, 77}},
        {{5, 20000}, {2, 33}, {0, 1}},
        {{2, 300001}, {0, 270000}, {4, 300002}, {3, 530000}},   // past one round of every subsequence
    };
    static const int nplan[] = {4, 4, 4, 3, 4};
    static const unsigned long long offs[] = {0, 5, 4100, 123456789ULL, (1ULL << 40) + 3};
    size_t cap = 64 << 20;
    unsigned char *a = (unsigned char *)malloc(cap), *b = (unsigned char *)malloc(cap);
    int compared = 0;
    memset(a, 0, cap);
    for (int t = 0; t < 2; t++) {
        curandRngType_t type = t ? CURAND_RNG_PSEUDO_PHILOX4_32_10 : CURAND_RNG_PSEUDO_XORWOW;
        for (int p = 0; p < 5; p++)
            for (int o = 0; o < 5; o++) {
                unsigned long long seed = 1234ULL + 977ULL * p + ((unsigned long long)o << 33);
                memset(a, 0, cap / 2);
                size_t na = run(&ours, type, seed, offs[o], plan[p], nplan[p], a);
                if (!have_ref) continue;
                if (getenv("CURAND_TEST_VERBOSE")) fprintf(stderr, "type %d plan %d offset %llu\n", (int)type, p, offs[o]);
                memset(b, 0, na);
                size_t nb = run(&ref, type, seed, offs[o], plan[p], nplan[p], b);
                CHECK(na == nb);
                if (memcmp(a, b, na) != 0) {
                    size_t i = 0;
                    while (a[i] == b[i]) i++;
                    fprintf(stderr, "type %d plan %d offset %llu: first difference at byte %zu of %zu\n", (int)type, p, offs[o], i, na);
                    CHECK(0);
                }
                compared++;
            }
    }
    printf("%d scenarios bit-exact against NVIDIA's host generator\n", compared);

    // device generator == host generator, into device memory, and a stream
    {
        curandGenerator_t gd, gh;
        CHECK(curandCreateGenerator(&gd, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS);
        CHECK(curandCreateGeneratorHost(&gh, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS);
        cudaStream_t st;
        CHECK(cudaStreamCreate(&st) == cudaSuccess);
        CHECK(curandSetStream(gd, st) == CURAND_STATUS_SUCCESS);
        unsigned int *d, *h1 = (unsigned int *)malloc(40000), *h2 = (unsigned int *)malloc(40000);
        CHECK(cudaMalloc(&d, 40000) == cudaSuccess);
        CHECK(curandGenerate(gd, d, 10000) == CURAND_STATUS_SUCCESS);
        CHECK(cudaMemcpyAsync(h1, d, 40000, cudaMemcpyDeviceToHost, st) == cudaSuccess);
        CHECK(cudaStreamSynchronize(st) == cudaSuccess);
        CHECK(curandGenerate(gh, h2, 10000) == CURAND_STATUS_SUCCESS);
        CHECK(memcmp(h1, h2, 40000) == 0);
        // bad input
        CHECK(curandGenerate(gd, d, 10001) == CURAND_STATUS_LAUNCH_FAILURE);      // past the allocation
        CHECK(curandGenerate(gd, h1, 10) == CURAND_STATUS_LAUNCH_FAILURE);        // host memory
        CHECK(curandGenerate(gd, NULL, 10) == CURAND_STATUS_LAUNCH_FAILURE);
        CHECK(curandGenerateNormal(gd, (float *)d, 7, 0, 1) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
        CHECK(curandGenerateLongLong(gd, (unsigned long long *)d, 2) == CURAND_STATUS_TYPE_ERROR);
        CHECK(curandGenerate(gd, d, 0) == CURAND_STATUS_SUCCESS);
        CHECK(curandSetGeneratorOrdering(gd, CURAND_ORDERING_PSEUDO_LEGACY) == CURAND_STATUS_SUCCESS);
        CHECK(curandSetGeneratorOrdering(gd, (curandOrdering_t)9999) == CURAND_STATUS_OUT_OF_RANGE);
        CHECK(curandDestroyGenerator(gd) == CURAND_STATUS_SUCCESS);
        CHECK(curandDestroyGenerator(gh) == CURAND_STATUS_SUCCESS);
        cudaFree(d); free(h1); free(h2);
        cudaStreamDestroy(st);
    }
    {
        curandGenerator_t g = NULL;
        CHECK(curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32) == CURAND_STATUS_ARCH_MISMATCH && g == NULL);
        CHECK(curandCreateGenerator(&g, (curandRngType_t)12345) == CURAND_STATUS_TYPE_ERROR);
        CHECK(curandCreateGenerator(NULL, CURAND_RNG_PSEUDO_XORWOW) != CURAND_STATUS_SUCCESS);
        CHECK(curandGenerate(NULL, NULL, 4) == CURAND_STATUS_NOT_INITIALIZED);
        CHECK(curandSetPseudoRandomGeneratorSeed(NULL, 1) == CURAND_STATUS_NOT_INITIALIZED);
        int v = 0;
        CHECK(curandGetVersion(&v) == CURAND_STATUS_SUCCESS && v == CURAND_VERSION);
    }
    stats_check();
    free(a); free(b);
    return CHECK_DONE();
}
