// 8- and 16-bit integers: loads/stores of char/short (ld.s8/u8/s16/u16, st.u8/u16), wrapping
// arithmetic after truncation, sign/zero extension, narrow division with negatives, and
// 16-bit multiplies via mul.lo/mul.wide on 16-bit operands (inline PTX).
#include "k_util.h"
#include <stdint.h>

#define N 1024

__global__ void narrow(const int8_t *a8, const int8_t *b8, const uint8_t *u8, const int16_t *a16,
                       const int16_t *b16, const uint16_t *u16, int8_t *o8, int16_t *o16, int *o32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int8_t x = a8[i], y = b8[i];
    int16_t s = a16[i], t = b16[i];
    o8[i * 6 + 0] = (int8_t)(x + y);
    o8[i * 6 + 1] = (int8_t)(x * y);
    o8[i * 6 + 2] = y != 0 ? (int8_t)(x / y) : 0;
    o8[i * 6 + 3] = y != 0 ? (int8_t)(x % y) : 0;
    o8[i * 6 + 4] = (int8_t)(u8[i] >> 3);
    o8[i * 6 + 5] = (int8_t)(x >> 2);
    o16[i * 6 + 0] = (int16_t)(s + t);
    o16[i * 6 + 1] = (int16_t)(s * t);
    o16[i * 6 + 2] = t != 0 ? (int16_t)(s / t) : 0;
    o16[i * 6 + 3] = t != 0 ? (int16_t)(s % t) : 0;
    o16[i * 6 + 4] = (int16_t)(u16[i] / 3u);
    o16[i * 6 + 5] = (int16_t)((uint16_t)s >> 4);
    short lo, hi; int wide;
    asm("mul.lo.s16 %0, %1, %2;" : "=h"(lo) : "h"(s), "h"(t));
    asm("mul.hi.s16 %0, %1, %2;" : "=h"(hi) : "h"(s), "h"(t));
    asm("mul.wide.s16 %0, %1, %2;" : "=r"(wide) : "h"(s), "h"(t));
    o32[i * 6 + 0] = lo;
    o32[i * 6 + 1] = hi;
    o32[i * 6 + 2] = wide;
    o32[i * 6 + 3] = x;          /* sign extension of s8 */
    o32[i * 6 + 4] = u8[i];      /* zero extension of u8 */
    o32[i * 6 + 5] = u16[i] + s; /* u16 zero-extended + s16 sign-extended */
}

int main(void)
{
    static int8_t a8[N], b8[N], o8[6 * N]; static uint8_t u8[N];
    static int16_t a16[N], b16[N], o16[6 * N]; static uint16_t u16[N]; static int o32[6 * N];
    for (int i = 0; i < N; i++) {
        a8[i] = (int8_t)(i < 256 ? i : k_rand32()); b8[i] = (int8_t)(i < 256 ? (i * 7 + 3) : k_rand32());
        u8[i] = (uint8_t)k_rand32();
        a16[i] = (int16_t)k_rand32(); b16[i] = (int16_t)(i % 3 ? k_rand32() : (k_rand32() % 15) - 7);
        u16[i] = (uint16_t)k_rand32();
    }
    a8[5] = -128; b8[5] = -1; a16[5] = -32768; b16[5] = -1;   /* wrap to -128 / -32768 */
    int8_t *d_a8, *d_b8, *d_o8; uint8_t *d_u8; int16_t *d_a16, *d_b16, *d_o16; uint16_t *d_u16; int *d_o32;
    CK(cudaMalloc(&d_a8, N)); CK(cudaMalloc(&d_b8, N)); CK(cudaMalloc(&d_u8, N)); CK(cudaMalloc(&d_o8, 6 * N));
    CK(cudaMalloc(&d_a16, 2 * N)); CK(cudaMalloc(&d_b16, 2 * N)); CK(cudaMalloc(&d_u16, 2 * N));
    CK(cudaMalloc(&d_o16, 12 * N)); CK(cudaMalloc(&d_o32, sizeof o32));
    CK(cudaMemcpy(d_a8, a8, N, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d_b8, b8, N, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_u8, u8, N, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_a16, a16, 2 * N, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d_b16, b16, 2 * N, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_u16, u16, 2 * N, cudaMemcpyHostToDevice));
    narrow<<<N / 256, 256>>>(d_a8, d_b8, d_u8, d_a16, d_b16, d_u16, d_o8, d_o16, d_o32, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o8, d_o8, 6 * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o16, d_o16, 12 * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o32, d_o32, sizeof o32, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = a8[i], y = b8[i], s = a16[i], t = b16[i];
        int e8[6] = {(int8_t)(x + y), (int8_t)(x * y), y ? (int8_t)(x / y) : 0, y ? (int8_t)(x % y) : 0,
                     (int8_t)(u8[i] >> 3), (int8_t)(x >> 2)};
        int e16[6] = {(int16_t)(s + t), (int16_t)(s * t), t ? (int16_t)(s / t) : 0, t ? (int16_t)(s % t) : 0,
                      (int16_t)(u16[i] / 3u), (int16_t)((uint16_t)s >> 4)};
        int e32[6] = {(int16_t)(s * t), (int)((s * t) >> 16), s * t, x, u8[i], u16[i] + s};
        for (int k = 0; k < 6; k++) {
            if (o8[i * 6 + k] != e8[k] && bad++ < 20) CHECK_MSG(0, "i8 op %d (%d,%d): got %d want %d", k, x, y, o8[i * 6 + k], e8[k]);
            if (o16[i * 6 + k] != e16[k] && bad++ < 20) CHECK_MSG(0, "i16 op %d (%d,%d): got %d want %d", k, s, t, o16[i * 6 + k], e16[k]);
            if (o32[i * 6 + k] != e32[k] && bad++ < 20) CHECK_MSG(0, "op32 %d (%d,%d): got %d want %d", k, s, t, o32[i * 6 + k], e32[k]);
        }
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
