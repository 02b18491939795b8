/*
 * npu_override.h - ABI for native kernel overrides: the NPU's "custom operators".
 * Installed for plugin authors; no CUDA types, only <stddef.h>/<stdint.h>.
 *
 * A plugin is a shared library named in TRANSFER_TO_NPU_KERNELS (several: ':'-separated).
 * To replace the kernel whose mangled PTX name is K (e.g. _Z6vecaddPKfS0_Pfi, as printed by
 * `cuobjdump -symbols` or TRANSFER_TO_NPU_LOG=info), it exports two symbols:
 *
 *   const char K__npu_params[] = "u64,u64,u64,s32";   // the kernel's PTX .param list
 *   void K(const float *a, const float *b, float *c, int n, const npu_override_ctx_t *ctx);
 *
 * K receives the kernel's parameters in PTX order, then the launch context, and runs the
 * whole grid (it may use its own threads). It is called in stream order on a runtime thread,
 * instead of the translated PTX, through libffi with the types of the PTX .param list:
 *   u8 u16 u32 u64 f32 f64   - scalars (pointers are u64); PTX declares no signedness
 *                             (nvcc writes int as .u32), so s32/b32 are accepted for u32
 *                             and so on; the C parameter may be signed or unsigned
 *   b8[N]                                          - a struct passed by value (N bytes not 1,
 *                                                    2, 4 or 8): K receives a const void *
 *                                                    to its bytes; 1/2/4/8-byte structs come
 *                                                    as the unsigned integer of that size
 * If K__npu_params is missing or differs from the kernel's list, the launch fails with
 * cudaErrorInvalidDeviceFunction and a log line naming both signatures.
 */
#ifndef NPU_OVERRIDE_H
#define NPU_OVERRIDE_H
#include <stddef.h>
#include <stdint.h>

typedef struct npu_override_ctx {
    uint32_t grid[3];
    uint32_t block[3];
    size_t dyn_shared;
    const char *kernel_name;
    void *reserved[4];
} npu_override_ctx_t;

#endif
