/*
 * k_util.h - helpers shared by the kernel-engine CUDA tests (tests/cuda/k_*.cu): a checked
 * CUDA call, bit casts, ULP distances and a deterministic host RNG. Host side only.
 */
#ifndef K_UTIL_H
#define K_UTIL_H
#include "check.h"
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define CK(call) do { cudaError_t e_ = (call); CHECK_MSG(e_ == cudaSuccess, "%s -> %s", #call, \
    cudaGetErrorName(e_)); } while (0)

static inline uint32_t k_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float k_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t k_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double k_u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* p + z exactly in double, for fma references of f16/bf16: p a product of two 16-bit floats
 * (<= 22 significant bits), z a 16-bit float (<= 11). An operand more than 23 binades below the
 * other lies wholly below the 16-bit result's last bit and only acts as a sticky bit for the
 * rounding, so it is replaced by +-2^(top - 30); then the sum spans at most 45 bits. */
static inline double k_fma_exact(double p, double z)
{
    if (p == 0 || z == 0) return p + z;
    int ep = ilogb(p), ez = ilogb(z);
    if (ez < ep - 23) z = copysign(ldexp(1.0, ep - 30), z);
    else if (ep < ez - 23) p = copysign(ldexp(1.0, ez - 30), p);
    return p + z;
}

/* Distance in representable values between two floats (0 = identical, NaN vs NaN = 0). */
static inline int64_t k_ulpf(float a, float b)
{
    if (a != a && b != b) return 0;
    if (a != a || b != b) return INT64_MAX;
    int32_t ia, ib; memcpy(&ia, &a, 4); memcpy(&ib, &b, 4);
    int64_t oa = ia < 0 ? -(int64_t)(ia & 0x7fffffff) : ia;
    int64_t ob = ib < 0 ? -(int64_t)(ib & 0x7fffffff) : ib;
    return oa > ob ? oa - ob : ob - oa;
}
static inline int64_t k_ulpd(double a, double b)
{
    if (a != a && b != b) return 0;
    if (a != a || b != b) return INT64_MAX;
    int64_t ia, ib; memcpy(&ia, &a, 8); memcpy(&ib, &b, 8);
    int64_t oa = ia < 0 ? -(ia & INT64_MAX) : ia;
    int64_t ob = ib < 0 ? -(ib & INT64_MAX) : ib;
    if ((oa < 0) != (ob < 0)) return (oa < 0 ? -oa : oa) + (ob < 0 ? -ob : ob);
    return oa > ob ? oa - ob : ob - oa;
}

/* xorshift64*: deterministic inputs, same on every run. */
static uint64_t k_rng_state = 0x9E3779B97F4A7C15ull;
static inline uint64_t k_rand64(void)
{
    k_rng_state ^= k_rng_state >> 12; k_rng_state ^= k_rng_state << 25; k_rng_state ^= k_rng_state >> 27;
    return k_rng_state * 0x2545F4914F6CDD1Dull;
}
static inline uint32_t k_rand32(void) { return (uint32_t)(k_rand64() >> 32); }
/* uniform in [lo, hi) */
static inline double k_randu(double lo, double hi) { return lo + (hi - lo) * ((k_rand64() >> 11) * (1.0 / 9007199254740992.0)); }

/* lop3.b32's truth table on the host (PTX ISA): bit k of the result is bit
 * (a_k << 2 | b_k << 1 | c_k) of lut. */
static inline unsigned k_lop3(unsigned a, unsigned b, unsigned c, unsigned lut)
{
    unsigned r = 0;
    for (int k = 0; k < 32; k++) {
        int idx = (((a >> k) & 1) << 2) | (((b >> k) & 1) << 1) | ((c >> k) & 1);
        r |= ((lut >> idx) & 1u) << k;
    }
    return r;
}
#ifdef __cplusplus
/* Device and host buffers with 16 guard bytes filled with a pattern (0xA5: stale data shows),
 * copies both ways, and a launch check (launch error, then the kernel's own status). */
template <typename T> static T *k_dnew(size_t n, int fill = 0xA5)
{
    T *d = NULL;
    CK(cudaMalloc(&d, n * sizeof(T) + 16));
    CK(cudaMemset(d, fill, n * sizeof(T) + 16));
    return d;
}
template <typename T> static T *k_dup(const T *h, size_t n)
{
    T *d = k_dnew<T>(n);
    CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <typename T> static void k_get(T *h, const T *d, size_t n) { CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost)); }
template <typename T> static T *k_hnew(size_t n, int fill = 0xA5) { T *h = (T *)malloc(n * sizeof(T) + 16); memset(h, fill, n * sizeof(T) + 16); return h; }
/* Block sizes for the lane-group tests (ptx_emit.c): 128 and 256 run as 16- or 32-lane groups,
 * 16 and 48 only as 16-lane groups, 40 per thread. k_lanes_affine relies on 16, 128, 256 first. */
static const unsigned K_LANE_BLOCKS[] = {16, 128, 256, 48, 40};
#define K_NLANE_BLOCKS (sizeof K_LANE_BLOCKS / sizeof K_LANE_BLOCKS[0])
static inline void k_sync_ok(const char *what)
{
    CK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaSuccess, "%s: %s", what, cudaGetErrorName(e));
}
#endif

#endif
