// rt_memcpy2d.cu - cudaMemcpy2D/2DAsync between pitched device memory (cudaMallocPitch),
// packed and padded host buffers, device-to-device with different pitches, sub-rectangles;
// every result checked against a host-side 2D copy. Bad input: width > pitch, invalid kind,
// regions running past an allocation, invalid stream.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static void copy2d(unsigned char *d, size_t dp, const unsigned char *s, size_t sp, size_t w, size_t h)
{
    for (size_t r = 0; r < h; r++) memcpy(d + r * dp, s + r * sp, w);
}

int main()
{
    const size_t W = 333, H = 77, HP = 400;          /* host rows padded to 400 bytes */
    unsigned char *host = (unsigned char *)malloc(HP * H), *out = (unsigned char *)malloc(HP * H);
    unsigned char *ref = (unsigned char *)malloc(HP * H);
    for (size_t i = 0; i < HP * H; i++) host[i] = (unsigned char)(i * 29 + 3);

    unsigned char *d1 = NULL, *d2 = NULL;
    size_t p1 = 0, p2 = 0;
    CK(cudaMallocPitch((void **)&d1, &p1, W, H));
    CK(cudaMallocPitch((void **)&d2, &p2, W + 700, H));
    CHECK(p1 >= W && p2 >= W + 700 && p1 != p2);
    CK(cudaMemset2D(d1, p1, 0, p1, H));
    CK(cudaMemset2D(d2, p2, 0, p2, H));

    /* host (padded) -> pitched device -> other pitch -> packed host */
    CK(cudaMemcpy2D(d1, p1, host, HP, W, H, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2D(d2, p2, d1, p1, W, H, cudaMemcpyDeviceToDevice));
    memset(out, 0, HP * H);
    CK(cudaMemcpy2D(out, W, d2, p2, W, H, cudaMemcpyDeviceToHost));
    memset(ref, 0, HP * H);
    copy2d(ref, W, host, HP, W, H);
    CHECK(memcmp(out, ref, W * H) == 0);

    /* the padding between rows of d2 was not written */
    unsigned char *full = (unsigned char *)malloc(p2 * H);
    CK(cudaMemcpy(full, d2, p2 * H, cudaMemcpyDeviceToHost));
    int pad_ok = 1;
    for (size_t r = 0; r < H; r++)
        for (size_t c = W; c < p2; c++) pad_ok &= full[r * p2 + c] == 0;
    CHECK(pad_ok);

    /* sub-rectangle at an offset, cudaMemcpyDefault, async on a stream */
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    const size_t sw = 50, sh = 20, ox = 17, oy = 9;
    unsigned char *patch = (unsigned char *)malloc(sw * sh);
    for (size_t i = 0; i < sw * sh; i++) patch[i] = (unsigned char)(200 + i % 50);
    CK(cudaMemcpy2DAsync(d1 + oy * p1 + ox, p1, patch, sw, sw, sh, cudaMemcpyDefault, s));
    memset(patch, 0, sw * sh);                       /* pageable source reusable at once */
    CK(cudaMemcpy2DAsync(out, HP, d1, p1, W, H, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    memset(ref, 0, HP * H);
    copy2d(ref, HP, host, HP, W, H);
    for (size_t r = 0; r < sh; r++)
        for (size_t c = 0; c < sw; c++) ref[(oy + r) * HP + ox + c] = (unsigned char)(200 + (r * sw + c) % 50);
    int ok = 1;
    for (size_t r = 0; r < H; r++) ok &= memcmp(out + r * HP, ref + r * HP, W) == 0;
    CHECK(ok);

    /* height 1 and width 0 */
    CK(cudaMemcpy2D(d1, p1, host, HP, W, 1, cudaMemcpyHostToDevice));
    CK(cudaMemcpy2D(d1, p1, host, HP, 0, H, cudaMemcpyHostToDevice));

    /* bad input */
    CHECK_EQ(cudaMemcpy2D(d1, p1, host, HP, p1 + 1, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    CHECK_EQ(cudaMemcpy2D(d1, p1, host, 10, 20, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    CHECK_EQ(cudaMemcpy2D(d1, p1, host, HP, W, H, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaMemcpy2D(d1, p1, host, HP, W, H + 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpy2D(d1 + p1, p1, host, HP, W, H, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpy2D(NULL, p1, host, HP, W, H, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    CHECK_EQ(cudaMemcpy2DAsync(d1, p1, host, HP, W, H, cudaMemcpyHostToDevice, gone),
             cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    /* d2 still holds what was copied before the failures */
    memset(out, 0, HP * H);
    CK(cudaMemcpy2D(out, W, d2, p2, W, H, cudaMemcpyDeviceToHost));
    memset(ref, 0, HP * H);
    copy2d(ref, W, host, HP, W, H);
    CHECK(memcmp(out, ref, W * H) == 0);

    CK(cudaStreamDestroy(s));
    CK(cudaFree(d1));
    CK(cudaFree(d2));
    free(host); free(out); free(ref); free(full); free(patch);
    return CHECK_DONE();
}
