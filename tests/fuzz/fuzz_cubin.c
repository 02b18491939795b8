/*
 * fuzz_cubin.c - libFuzzer harness for npu_cubin_parse (npu_runtime/kernel/cubin.c).
 *
 * The contract cubin.c claims: every size, offset and index is checked against the image,
 * so parsing any bytes returns NPU_OK or NPU_ECUBIN and never reads outside them. The parser
 * copies the input into a block of exactly its size, so ASan flags any read past the end.
 * An accepted model is walked completely (every pointer it holds is dereferenced over the
 * length it claims, and the dump is written to /dev/null) and the relocation patcher is run
 * on every relocation of the model against a scratch copy of its section.
 * Seeds (tests/fuzz/seeds/cubin/, make_seeds.sh): nvcc -cubin outputs for sm_75/80/90,
 * linked and -rdc=true objects, kernels with printf, switch jump tables, large parameters.
 */
#include "npu_runtime/kernel/cubin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *null_out;

static unsigned long touch(const uint8_t *p, uint64_t n)
{
    unsigned long s = 0;
    for (uint64_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    setenv("TRANSFER_TO_NPU_LOG", "off", 1);
    null_out = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
    npu_cubin_t *c = NULL;
    npu_status_t st = npu_cubin_parse(in, n, &c);
    if (st != NPU_OK) {
        if (st != NPU_ECUBIN || c)
            abort();
        return 0;
    }
    volatile unsigned long sum = 0;
    for (uint32_t i = 0; i < c->nsections; i++)
        if (c->sections[i].data)
            sum += touch(c->sections[i].data, c->sections[i].size);
    for (uint32_t i = 0; i < c->nkernels; i++) {
        const npu_cubin_kernel_t *k = &c->kernels[i];
        sum += touch(k->code, k->code_size);
        if (k->cmem2)
            sum += touch(k->cmem2, k->cmem2_size);
        for (uint32_t j = 0; j < k->nattrs; j++)
            sum += touch(k->attrs[j].value, k->attrs[j].size);
        for (uint32_t j = 0; j < k->nibranches; j++)
            sum += touch((const uint8_t *)k->ibranches[j].targets, 4ull * k->ibranches[j].ntargets);
        for (uint32_t j = 0; j < k->exit_offsets.n; j++)
            sum += k->exit_offsets.v[j];
        for (uint32_t j = 0; j < k->text_relocs.n; j++) {
            const npu_cubin_reloc_t *r = &k->text_relocs.v[j];
            uint8_t scratch[16];
            memset(scratch, 0, sizeof scratch);
            uint64_t v;
            if (npu_cubin_reloc_patch(r->type, scratch, r->offset) == NPU_OK)
                npu_cubin_reloc_field(r->type, scratch, &v);
        }
        if (k->nparams && k->params[k->nparams - 1].ordinal < k->params[0].ordinal)
            abort();                    /* params are sorted by ordinal */
    }
    for (uint32_t i = 0; i < c->nvars; i++)
        if (c->vars[i].init)
            sum += touch(c->vars[i].init, c->vars[i].size);
    for (uint32_t i = 0; i < c->nfuncs; i++) {
        if (c->funcs[i].code)
            sum += touch(c->funcs[i].code, c->funcs[i].code_size);
        for (uint32_t j = 0; j < c->funcs[i].nattrs; j++)
            sum += touch(c->funcs[i].attrs[j].value, c->funcs[i].attrs[j].size);
    }
    for (uint32_t i = 0; i < c->nrelocs; i++)
        if (c->relocs[i].section >= c->nsections)
            abort();
    if (null_out)
        npu_cubin_dump(c, null_out);
    (void)sum;
    npu_cubin_free(c);
    return 0;
}
