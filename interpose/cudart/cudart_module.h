/*
 * cudart_module.h - registry of what CUDA binaries register at load time (fatbins, kernels,
 * variables) and its lazy resolution to runtime modules and functions.
 *
 * DESIGN: registration only records (PyTorch-sized libraries register tens of thousands of
 * kernels from static constructors); nothing is parsed until a kernel is launched or a symbol
 * is used. One record per registered fatbin, kernel (host stub) and variable (host shadow);
 * records are never freed while the process lives, so a cudaKernel_t cached in a host stub's
 * static stays a valid pointer even after __cudaUnregisterFatBinary. Lookups by host address go
 * through uthash tables under one rwlock; a fatbin's modules (one per device) are loaded under
 * that fatbin's mutex, so concurrent first launches load and compile once.
 */
#ifndef CUDART_MODULE_H
#define CUDART_MODULE_H

#include "interpose/common/shim.h"
#include "npu_runtime/kernel/npu_kernel.h"

typedef struct cudart_kernel cudart_kernel_t;

/* cudaKernel_t / host stub -> record; NULL if unknown. */
cudart_kernel_t *cudart_kernel_from_handle(const void *handle);
cudart_kernel_t *cudart_kernel_from_hostfun(const void *hostfun);
/* The compiled function of a kernel on device dev (loads the module and JITs on first use). */
npu_status_t cudart_kernel_resolve(cudart_kernel_t *k, int dev, npu_kfunc_t **out);
const char *cudart_kernel_name(const cudart_kernel_t *k);

/* A registered __device__/__constant__/__managed__ variable: device address and size. */
npu_status_t cudart_symbol_resolve(const void *symbol, int dev, void **dptr, size_t *size);

#endif
