/*
 * ptx_run.c - runner of the PTX tier: loads NAME.ptx, translates its entry `test`, runs it on
 * one block of `threads` threads (from the "// PTX-TEST:" line) with in = words of NAME.in and
 * out = `out` zeroed words, and prints the output words in hex, one per line. When loading or
 * translation fails it prints "STATUS <name>" instead (bad-input cases expect that line).
 */
#include "npu_runtime/kernel/npu_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../slurp.h"

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: ptx_run file.ptx [file.in]\n"); return 2; }
    size_t len = 0;
    char *ptx = slurp(argv[1], &len);
    if (!ptx) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    unsigned threads = 32, nin = 0, nout = 0;
    const char *h = strstr(ptx, "PTX-TEST:");
    if (h) sscanf(h, "PTX-TEST: threads=%u in=%u out=%u", &threads, &nin, &nout);
    uint32_t *in = calloc(nin + 1, 4), *out = calloc(nout + 1, 4);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "r");
        for (unsigned i = 0; f && i < nin; i++)
            if (fscanf(f, "%x", &in[i]) != 1) break;
        if (f) fclose(f);
    }
    npu_init();
    npu_kmodule_t *m = NULL;
    npu_status_t st = npu_kmodule_load_ptx(0, ptx, len, &m);
    npu_kfunc_t *k = NULL;
    if (st == NPU_OK) st = npu_kmodule_get_function(m, "test", &k);
    if (st != NPU_OK) { printf("STATUS %s\n", npu_status_name(st)); return 0; }
    uint8_t params[16];
    memcpy(params, &in, 8);
    memcpy(params + 8, &out, 8);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    st = npu_exec_grid(k, grid, block, 0, params);
    if (st != NPU_OK) { printf("STATUS %s\n", npu_status_name(st)); return 0; }
    for (unsigned i = 0; i < nout; i++) printf("0x%08x\n", out[i]);
    npu_kmodule_unload(m);
    return 0;
}
