/* override_plugin.c - a native-kernel plugin for override_app.cu (see npu_override.h). */
#include <stdint.h>
#include <string.h>
#include "npu_runtime/kernel/npu_override.h"

/* saxpy(float, const float *, float *, int) */
const char _Z5saxpyfPKfPfi__npu_params[] = "f32,u64,u64,u32";
void _Z5saxpyfPKfPfi(float a, const float *x, float *y, int32_t n, const npu_override_ctx_t *ctx)
{
    (void)ctx;
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* scale_struct(Affine, float *, int): Affine is 32 bytes, passed by address */
struct Affine { float mul; float add; int pad[4]; double extra; };
const char _Z12scale_struct6AffinePfi__npu_params[] = "b8[32],u64,s32";
void _Z12scale_struct6AffinePfi(const struct Affine *f, float *y, int32_t n, const npu_override_ctx_t *ctx)
{
    uint64_t threads = (uint64_t)ctx->grid[0] * ctx->block[0];
    for (uint64_t i = 0; i < threads && i < (uint64_t)n; i++)
        y[i] = y[i] * f->mul + f->add + (float)f->extra;
}

/* bad_sig(int *, int) declared with the wrong parameter list on purpose */
const char _Z7bad_sigPii__npu_params[] = "u64,u64";
void _Z7bad_sigPii(int *p, int n, const npu_override_ctx_t *ctx) { (void)p; (void)n; (void)ctx; }
