/*
 * fuzz_ptx.c - libFuzzer harness for the PTX translator without the C compiler: index
 * (ptx_index, what npu_kmodule_load_ptx / npu_kmodule_link_ptx run), then for every .entry
 * parse + check + lower + emit C (ptx_translate, what npu_kmodule_get_function runs before
 * it hands the C source to jit.c), and the parameter layout (ptx_param_layout). The JIT is
 * never invoked: ptx_translate is already a translate-only entry point (ptx_internal.h), so
 * no runtime change was needed.
 *
 * The input is handed over in exactly-sized, not NUL-terminated malloc blocks (the API takes
 * a length), so ASan flags any read past the end of the text. A "\n//FUZZSPLIT\n" line splits
 * the input into several texts that are linked (-rdc=true, cuLink*), at most 4.
 * The translator's contract (ptx_parse.c): malformed text gives NPU_EPTX / NPU_EPTXUNSUP,
 * never a read past the text, never a crash.
 */
#include "npu_runtime/kernel/ptx_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    if (nt == 0)
        return 0;
    ptx_prog_t prog;
    npu_status_t st = ptx_index(&prog, (const char *const *)texts, lens, nt);
    if (st == NPU_OK) {
        int translated = 0;
        for (int i = 0; i < prog.nfuncs && translated < 8; i++) {
            ptx_func_t *f = &prog.funcs[i];
            if (!f->is_entry || f->is_decl)
                continue;
            translated++;
            ptx_out_t out;
            memset(&out, 0, sizeof out);
            if (ptx_translate(&prog, f, &out) == NPU_OK) {
                if (!out.csrc || strlen(out.csrc) != out.clen)
                    abort();
                ptx_out_free(&out);
            }
            npu_kparam_t *params = calloc((size_t)f->nparams + 1, sizeof *params);
            uint32_t total = 0;
            if (params) {
                ptx_param_layout(f, params, &total);
                for (int j = 0; j < f->nparams; j++)
                    if (params[j].offset + (uint64_t)params[j].size > total)
                        abort();
                free(params);
            }
        }
    }
    ptx_prog_free(&prog);
    for (int i = 0; i < nt; i++)
        free(texts[i]);
    return 0;
}
