/*
 * bench_jit.c - first-run JIT time (translate + cc + dlopen) per typical kernel, against the
 * 300 ms budget, and the cached path (translate + dlopen of the cached .so) against the first
 * run. Kernels: bench/jit_kernels.ptx (nvcc 13 output of vectorAdd, a shared-memory + shfl
 * reduction, a libm-heavy kernel with printf, a tiled matmul) and tests/ptx/int_ops.ptx (a
 * long straight-line kernel). Each cold measurement uses a fresh cache directory.
 */
#include "npu_runtime/kernel/npu_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurp.h"
#include <unistd.h>

static void bench_file(const char *path, const char *label)
{
    size_t len;
    char *ptx = slurp(path, &len);
    if (!ptx) { printf("cannot read %s\n", path); return; }
    npu_kmodule_t *m;
    if (npu_kmodule_load_ptx(0, ptx, len, &m) != NPU_OK) { printf("cannot load %s\n", path); return; }
    for (int i = 0; i < npu_kmodule_entry_count(m); i++) {
        const char *name = npu_kmodule_entry_name(m, i);
        char dir[] = "/tmp/bench_jit_XXXXXX";
        if (!mkdtemp(dir)) return;
        setenv("TRANSFER_TO_NPU_CACHE", dir, 1);
        npu_kmodule_t *a, *b;
        npu_kfunc_t *f;
        npu_kmodule_load_ptx(0, ptx, len, &a);
        uint64_t t0 = npu_now_ns();
        npu_status_t st = npu_kmodule_get_function(a, name, &f);
        double cold = (npu_now_ns() - t0) / 1e6;
        npu_kmodule_load_ptx(0, ptx, len, &b);
        t0 = npu_now_ns();
        npu_status_t st2 = npu_kmodule_get_function(b, name, &f);
        double warm = (npu_now_ns() - t0) / 1e6;
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0) {}
        if (st != NPU_OK || st2 != NPU_OK) { printf("%s %s: %s\n", label, name, npu_status_name(st)); continue; }
        char shortname[40];
        snprintf(shortname, sizeof shortname, "%s", name);
        printf("BENCH jit_first_%s_%s: %.1f ms vs 300 ms ratio %.2f (target <= 1.0)\n", label, shortname, cold, cold / 300.0);
        printf("BENCH jit_cached_%s_%s: %.2f ms vs %.1f ms ratio %.4f (target <= 0.05)\n", label, shortname, warm, cold, warm / cold);
        npu_kmodule_unload(a);
        npu_kmodule_unload(b);
    }
    npu_kmodule_unload(m);
    free(ptx);
}

int main(void)
{
    npu_init();
    bench_file("bench/jit_kernels.ptx", "nvcc");
    bench_file("tests/ptx/int_ops.ptx", "ptx");
    return 0;
}
