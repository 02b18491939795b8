// EXPECT_EXIT: 0
// A program's own SIGSEGV handler, installed before the first kernel launch, still receives the
// program's host-side faults afterwards (the kernel fault handler chains to it with the same
// siginfo), and a wild kernel in between is still isolated (cudaErrorIllegalAddress).
#include "k_util.h"
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static sigjmp_buf jb;
static volatile sig_atomic_t got;
static void *volatile got_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    got++;
    got_addr = si->si_addr;
    siglongjmp(jb, 1);
}

__global__ void wild(int *p) { p[threadIdx.x] = 7; }

int main(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);

    int *d;
    CK(cudaMalloc(&d, 128));
    wild<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    volatile int *volatile np = (int *)(uintptr_t)(0x2000 + argc - 1);
    if (sigsetjmp(jb, 0) == 0) { *np = 1; CHECK_MSG(0, "no fault?"); }
    CHECK_MSG(got == 1, "the program's handler ran %d times", (int)got);
    CHECK_MSG(got_addr == (void *)0x2000, "si_addr %p", got_addr);

    wild<<<1, 32>>>((int *)0x3000);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorIllegalAddress, "wild kernel -> %s", cudaGetErrorName(e));
    CHECK_MSG(got == 1, "the kernel fault reached the program's handler");

    if (sigsetjmp(jb, 0) == 0) { *np = 2; CHECK_MSG(0, "no fault?"); }
    CHECK_MSG(got == 2, "the program's handler ran %d times", (int)got);
    return CHECK_DONE();
}
