/*
 * npu_kernel.h - kernel engine API: fatbin -> PTX -> C -> native code -> grid execution.
 *
 *  fatbin.c    npu_fatbin_*   find and decompress the PTX or the cubins in a fatbin (zstd,
 *                             LZ4, plain); cubin.c parses a cubin (cubin.h)
 *  ptx_*.c     npu_kmodule_*  parse PTX, check, lower, emit C; jit.c compiles with the
 *                             system C compiler, caches on disk (TRANSFER_TO_NPU_CACHE),
 *                             dlopens; a module's .global/.const variables live in device
 *                             memory (npu_mem_alloc) of the module's device
 *  exec.c      npu_kfunc_launch / npu_exec_grid   launch checks, parameter packing, stream
 *                             submission, block workers, fibers, collectives (npu_kabi.h)
 *
 * Thread-safety: all calls are callable from any host thread. Loading a module only indexes
 * it (cheap); translation and compilation happen on the first npu_kmodule_get_function of an
 * entry and are done once per (module, entry) even when threads race.
 */
#ifndef NPU_KERNEL_H
#define NPU_KERNEL_H
#include "../npu.h"
#include "npu_kabi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ fatbin ---- */
/* One PTX text taken from a fatbin (NUL-terminated, malloc'ed; free with free()). */
typedef struct npu_ptx_image {
    char *text;
    size_t len;
    unsigned arch;          /* sm_XX the PTX was generated for, e.g. 90 */
    unsigned ptx_version;   /* e.g. 90 for ISA 9.0 (from the .version line), 0 if unknown */
    unsigned max_regs;      /* -maxrregcount the entry's JIT options carry (nvcc records it
                               for the driver's JIT), 0 if none */
} npu_ptx_image_t;

/* data: a fatbin (magic 0xBA55ED50) or a fatbin wrapper (magic 0x466243B1, version 1 or 2).
 * Picks the highest-version PTX. NPU_ENOIMAGE when the fatbin holds only ELF (cubins),
 * NPU_EFATBIN when malformed (bad magic, sizes past the end, decompression failure).
 * For a wrapper of version 2 (-rdc=true) use npu_fatbin_extract_all. */
npu_status_t npu_fatbin_extract_ptx(const void *data, npu_ptx_image_t *out);
/* All per-object PTX images of a version-2 wrapper (or the one of a plain fatbin/version-1
 * wrapper): *out is a malloc'ed array of *count images. */
npu_status_t npu_fatbin_extract_all(const void *data, npu_ptx_image_t **out, int *count);
/* Size in bytes of a fatbin image starting at data (header + entries), 0 if not a fatbin. */
size_t npu_fatbin_size(const void *data);
void npu_ptx_image_free(npu_ptx_image_t *img);

/* One ELF (cubin) entry of a fatbin, listed without decompressing it. Points into the
 * caller's fatbin, which must outlive it. */
typedef struct npu_fatbin_cubin {
    unsigned arch;          /* sm_XX of the entry header, e.g. 80 */
    unsigned obj;           /* 0: the fatbin (a wrapper's linked image); i > 0: object i-1 of a
                             * -rdc=true wrapper's filename_or_fatbins (relocatable cubins) */
    int arch_specific;      /* sm_XXa: runs only on exactly that CC */
    int family_specific;    /* sm_XXf */
    int compressed;         /* zstd or LZ4 */
    uint64_t size;          /* bytes once decompressed (stored entries: padded payload) */
    uint64_t flags;         /* entry header flags, as stored */
    const uint8_t *entry_;  /* the entry header (private to fatbin.c) */
} npu_fatbin_cubin_t;

/* Every ELF entry of a fatbin or wrapper (version 2: the linked image first, then each
 * object's), in fatbin order: *out is malloc'ed (free()), *count may be 0. NPU_EFATBIN when
 * malformed. Reads headers only; nothing is decompressed. */
npu_status_t npu_fatbin_list_cubins(const void *data, npu_fatbin_cubin_t **out, int *count);
/* Index of the cubin a device of compute capability cc (major*10+minor, e.g. 86) runs, by
 * CUDA's binary compatibility rule (fatbin.c): exact sm first, then the same major with the
 * highest lower minor; arch-specific cubins only on their exact CC; only entries of obj 0.
 * -1 when none fits (the caller then needs PTX, or another cc it can claim). */
int npu_fatbin_pick_cubin(const npu_fatbin_cubin_t *list, int n, unsigned cc);
/* Decompressed ELF bytes of one listed cubin (*data malloc'ed, free()). NPU_EFATBIN when the
 * payload does not decompress to its declared size. */
npu_status_t npu_fatbin_cubin_load(const npu_fatbin_cubin_t *c, uint8_t **data, size_t *size);

/* ------------------------------------------------------------------ module ---- */
typedef struct npu_kmodule npu_kmodule_t;
typedef struct npu_kfunc npu_kfunc_t;

typedef struct npu_kparam {
    uint32_t offset;        /* byte offset in the packed parameter buffer */
    uint32_t size;          /* bytes */
    uint32_t align;
    char type;              /* 'u','s','f','b' (incl. .b8 arrays for structs) */
    uint8_t is_ptr;         /* declared .ptr or a .u64 that the body uses as an address (hint) */
} npu_kparam_t;

typedef struct npu_kfunc_info {
    const char *name;           /* mangled entry name */
    uint32_t nparams;
    const npu_kparam_t *params;
    uint32_t param_size;        /* bytes of the packed buffer (last offset + size, aligned 8) */
    uint32_t static_shared;     /* bytes of static .shared variables */
    uint32_t local_size;        /* bytes of .local per thread (entry frame) */
    uint32_t maxntid[3];        /* 0 when not declared */
    uint32_t reqntid[3];
    uint32_t minnctapersm;
    uint32_t maxnreg;
    uint32_t ptx_version;       /* e.g. 90 */
    uint32_t target_sm;         /* e.g. 90 from .target sm_90 */
    int uses_sync;              /* 1: thread mode (fibers); 0: block mode */
    npu_kblock_fn block_fn;     /* set when uses_sync == 0 */
    npu_kthread_fn thread_fn;   /* set when uses_sync == 1 (also set, when available, in block mode) */
    uint64_t jit_ns;            /* time spent translating + compiling (0 when cached) */
    int from_cache;
    /* set by exec.c / the API layer */
    int max_dynamic_shared;     /* cudaFuncAttributeMaxDynamicSharedMemorySize, default 48 KiB - static */
    int preferred_carveout;
    /* set by override.c on the first launch (zero-initialised by module.c) */
    void *native_override;      /* npu_override_t * when a plugin overrides this kernel */
    int native_override_checked;
    /* what a GPU would report for the kernel (module.c): registers per thread (ptx_regs.c,
     * under .maxnreg / the module's JIT register limit / launch bounds) and bytes of the
     * module's .const variables (user constant memory) */
    uint32_t num_regs;
    uint32_t const_size;
} npu_kfunc_info_t;

/* Load one PTX text (copied). dev: the device whose memory holds the module's globals. */
npu_status_t npu_kmodule_load_ptx(int dev, const char *ptx, size_t len, npu_kmodule_t **out);
/* Load and link several PTX texts (-rdc=true objects, cuLink*): .extern .func/.global
 * references resolve across them. */
npu_status_t npu_kmodule_link_ptx(int dev, const char *const *ptx, const size_t *len, int n,
                                  npu_kmodule_t **out);
/* A module from machine code (sass_lift.c): a cubin (ET_EXEC ELF image, copied), or the
 * cubin of a fatbin this device runs best. NPU_ENOIMAGE when the fatbin has none. */
npu_status_t npu_kmodule_load_cubin(int dev, const void *elf, size_t size, npu_kmodule_t **out);
npu_status_t npu_kmodule_load_fatbin_cubin(int dev, const void *fatbin, npu_kmodule_t **out);
/* A fatbin's module: its PTX (all objects of a -rdc=true wrapper linked), or its machine code
 * when it has no PTX (TRANSFER_TO_NPU_ISA=sass: machine code first). */
npu_status_t npu_kmodule_load_fatbin(int dev, const void *fatbin, npu_kmodule_t **out);
npu_status_t npu_kmodule_unload(npu_kmodule_t *m);
int npu_kmodule_device(const npu_kmodule_t *m);
/* NPU_ENOTFOUND if no such .entry; NPU_EPTX / NPU_EPTXUNSUP / NPU_EJIT with a log line
 * naming the kernel and the construct when translation fails. */
npu_status_t npu_kmodule_get_function(npu_kmodule_t *m, const char *name, npu_kfunc_t **out);
/* Device address and size of a .global or .const variable (allocated and initialised from the
 * PTX initialiser on first use). NPU_ENOTFOUND if no such variable. */
npu_status_t npu_kmodule_get_global(npu_kmodule_t *m, const char *name, void **dptr, size_t *size);
/* Names of all .entry functions (for cuModuleEnumerateFunctions / reports). */
int npu_kmodule_entry_count(const npu_kmodule_t *m);
const char *npu_kmodule_entry_name(const npu_kmodule_t *m, int i);
npu_kfunc_info_t *npu_kfunc_info(npu_kfunc_t *f);
/* The JIT's register limit for the module's kernels (CU_JIT_MAX_REGISTERS, -maxrregcount;
 * 0 = none): reported registers never exceed it. Set before its functions are first got. */
void npu_kmodule_set_max_registers(npu_kmodule_t *m, uint32_t max_regs);
npu_kmodule_t *npu_kfunc_module(npu_kfunc_t *f);

/* ------------------------------------------------------------------ launch ---- */
/* Checks the configuration as CUDA does (block <= 1024 threads and the per-dimension limits,
 * grid limits, zero-sized grid or block, .reqntid/.maxntid, shared memory limits) and returns
 * NPU_ECONFIG / NPU_ERESOURCES; packs args (args[i] points at parameter i) into a buffer
 * using the PTX parameter layout; submits the grid to stream s. */
npu_status_t npu_kfunc_launch(npu_kfunc_t *f, const uint32_t grid[3], const uint32_t block[3],
                              size_t dyn_shared, npu_stream_t *s, void **args);
/* Same with an already packed parameter buffer (cuLaunchKernel's `extra`). */
npu_status_t npu_kfunc_launch_packed(npu_kfunc_t *f, const uint32_t grid[3],
                                     const uint32_t block[3], size_t dyn_shared,
                                     npu_stream_t *s, const void *params, size_t size);
/* Runs a whole grid now, on the block workers; returns the grid's status. Used by stream
 * work items and by native-override plugins' fallbacks. */
npu_status_t npu_exec_grid(npu_kfunc_t *f, const uint32_t grid[3], const uint32_t block[3],
                           size_t dyn_shared, const uint8_t *params);
/* Native kernel overrides (override.c, plugin ABI in npu_override.h): plugins named in
 * TRANSFER_TO_NPU_KERNELS (':'-separated paths) may export a kernel's mangled name.
 * npu_override_lookup: *out = NULL when no plugin overrides the kernel; NPU_EFUNC (logged,
 * naming kernel and plugin) when one does but its declared parameters do not match the PTX.
 * npu_override_call runs the override for a whole grid (called in stream order). */
typedef struct npu_override npu_override_t;
npu_status_t npu_override_lookup(npu_kfunc_info_t *info, npu_override_t **out);
npu_status_t npu_override_call(npu_override_t *o, const npu_kfunc_info_t *info,
                               const uint32_t grid[3], const uint32_t block[3],
                               size_t dyn_shared, const uint8_t *params);

/* Launch limits one function's attributes imply (the API layers report and set these):
 * threads per block per .reqntid / .maxntid (at most 1024); dynamic shared memory allowed
 * without or after cudaFuncAttributeMaxDynamicSharedMemorySize (static + dynamic <= the
 * 227 KiB opt-in limit: NPU_EINVAL beyond it). */
#define NPU_SHARED_OPTIN_MAX (227 * 1024)
int npu_kfunc_max_threads(const npu_kfunc_info_t *in);
int npu_kfunc_max_dynamic_shared(const npu_kfunc_info_t *in);
npu_status_t npu_kfunc_set_max_dynamic_shared(npu_kfunc_info_t *in, int bytes);

/* Occupancy: max active blocks per "SM" for a block size and dynamic shared size. */
int npu_kfunc_max_active_blocks(npu_kfunc_t *f, int block_size, size_t dyn_shared);
/* Dynamic shared memory each block may use when num_blocks blocks of block_size threads share
 * one "SM" (cudaOccupancyAvailableDynamicSMemPerBlock); 0 when they cannot fit. */
size_t npu_kfunc_available_dynamic_shared(npu_kfunc_t *f, int num_blocks, int block_size);

#ifdef __cplusplus
}
#endif
#endif /* NPU_KERNEL_H */
