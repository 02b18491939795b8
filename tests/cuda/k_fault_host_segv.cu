// EXPECT_EXIT: 139
// The kernel fault handler must not swallow the host program's own faults: after a kernel launch
// (which installs the handler), a host-side NULL dereference still kills the process with SIGSEGV
// (exit status 128 + 11 through the test runner's timeout), as it would without the preload.
#include "k_util.h"
#include <stdio.h>
#include <sys/resource.h>

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main(int argc, char **argv)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    int *d;
    CK(cudaMalloc(&d, 128));
    CK(cudaMemset(d, 0, 128));
    inc<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    int h[32];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) if (h[i] != 1) { CHECK_MSG(0, "h[%d] = %d", i, h[i]); break; }
    if (check_failures_) return CHECK_DONE();
    fprintf(stderr, "kernel ok; now a host NULL dereference\n");
    volatile int *volatile np = (int *)(uintptr_t)(argc - 1);   /* NULL, unknown to the compiler */
    *np = 42;
    fprintf(stderr, "survived a host NULL dereference: the handler swallowed it\n");
    return 0;
}
