/*
 * fuzz_module.c - libFuzzer harness for module loading and the initialisers of module
 * variables (npu_kmodule_load_ptx / npu_kmodule_link_ptx, npu_kmodule_get_global for every
 * .global/.const variable, the entry listing), i.e. module.c on top of the PTX indexer.
 * No JIT: npu_kmodule_get_function is not called, and npu_jit_load is a stub that fails.
 * Device memory for the variables comes from an exactly-sized malloc (npu_mem_alloc_module
 * stub), so ASan flags an initialiser written past its variable's block; the real
 * allocator would hide that inside its reserved range.
 * Input: PTX text; "\n//FUZZSPLIT\n" splits it into up to 4 texts that are linked.
 */
#include "npu_runtime/kernel/ptx_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- stubs for what module.c needs from the rest of the runtime ---- */
npu_status_t npu_mem_alloc_module(int dev, size_t size, void **out)
{
    if (size > (64u << 20))
        return NPU_ENOMEM;
    *out = malloc(size ? size : 1);
    return *out ? NPU_OK : NPU_ENOMEM;
}
npu_status_t npu_mem_free(void *p)
{
    free(p);
    return NPU_OK;
}
npu_status_t npu_jit_load(const char *csrc, size_t len, const char *what, int private_copy,
                          npu_jit_result_t *out)
{
    return NPU_EJIT;
}
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    setenv("TRANSFER_TO_NPU_LOG", "off", 1);
    return 0;
}

static const char SPLIT[] = "\n//FUZZSPLIT\n";

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
    char *texts[4];
    size_t lens[4];
    int nt = 0;
    size_t start = 0;
    while (nt < 4) {
        const uint8_t *sep = nt < 3 ? memmem(in + start, n - start, SPLIT, sizeof SPLIT - 1) : NULL;
        size_t end = sep ? (size_t)(sep - in) : n;
        lens[nt] = end - start;
        texts[nt] = malloc(lens[nt] ? lens[nt] : 1);
        if (!texts[nt])
            break;
        memcpy(texts[nt], in + start, lens[nt]);
        nt++;
        if (!sep)
            break;
        start = end + sizeof SPLIT - 1;
    }
    npu_kmodule_t *m = NULL;
    if (nt > 0 && npu_kmodule_link_ptx(0, (const char *const *)texts, lens, nt, &m) == NPU_OK) {
        for (int i = 0; i < npu_kmodule_entry_count(m); i++)
            if (!npu_kmodule_entry_name(m, i))
                abort();
        /* every variable of every text, by name (the module knows them all) */
        ptx_prog_t p;
        if (ptx_index(&p, (const char *const *)texts, lens, nt) == NPU_OK) {
            for (int i = 0; i < p.nvars && i < 64; i++) {
                void *d = NULL;
                size_t sz = 0;
                if (npu_kmodule_get_global(m, p.vars[i].name, &d, &sz) == NPU_OK && sz) {
                    volatile uint8_t sink = ((uint8_t *)d)[sz - 1];   /* the whole size is ours */
                    (void)sink;
                }
            }
        }
        ptx_prog_free(&p);
        npu_kmodule_unload(m);
    }
    for (int i = 0; i < nt; i++)
        free(texts[i]);
    return 0;
}
