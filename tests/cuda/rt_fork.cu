// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * rt_fork.cu - fork() and CUDA. A child forked before the parent started CUDA has nothing to
 * inherit and uses CUDA normally. A child forked after it gets CUDA's answer to every call,
 * cuInit included: CUDA_ERROR_NOT_INITIALIZED from the driver, cudaErrorInitializationError
 * from the runtime (numba relies on it to detect the fork), without hanging on state the
 * parent's worker threads held (the fork happens while a kernel runs in the parent), and it
 * exits cleanly. The parent keeps working afterwards; kernel results are checked against the
 * host.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

__global__ void add_one(int *p, int n, int spins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = p[i];
        for (int k = 0; k < spins; k++)       /* keep the workers busy for a while */
            v = (v * 3 + 1) % 1000003;
        p[i] = spins ? v : p[i] + 1;
    }
}

static int host_spin(int v, int spins)
{
    for (int k = 0; k < spins; k++)
        v = (v * 3 + 1) % 1000003;
    return v;
}

/* Runs in a child: uses CUDA normally. Exit status = number of failures. */
static int child_uses_cuda(void)
{
    int *d, h[256];
    int bad = 0;
    bad += cudaMalloc(&d, sizeof h) != cudaSuccess;
    bad += cudaMemset(d, 0, sizeof h) != cudaSuccess;
    add_one<<<2, 128>>>(d, 256, 0);
    bad += cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess;
    for (int i = 0; i < 256; i++)
        bad += h[i] != 1;
    bad += cudaFree(d) != cudaSuccess;
    return bad > 100 ? 100 : bad;
}

/* Runs in a child of an initialised parent: every call is refused. */
static int child_refused(int *parent_dev)
{
    int bad = 0, n = -1;
    bad += cuInit(0) != CUDA_ERROR_NOT_INITIALIZED;
    bad += cuDeviceGetCount(&n) != CUDA_ERROR_NOT_INITIALIZED;
    CUdeviceptr dp;
    bad += cuMemAlloc(&dp, 64) != CUDA_ERROR_NOT_INITIALIZED;
    CUcontext ctx;
    bad += cuCtxGetCurrent(&ctx) != CUDA_ERROR_NOT_INITIALIZED;
    bad += cudaGetDeviceCount(&n) != cudaErrorInitializationError;
    int *d;
    bad += cudaMalloc(&d, 64) != cudaErrorInitializationError;
    bad += cudaFree(parent_dev) != cudaErrorInitializationError;
    add_one<<<1, 32>>>(parent_dev, 32, 0);
    bad += cudaGetLastError() != cudaErrorInitializationError;
    bad += cudaDeviceSynchronize() != cudaErrorInitializationError;
    return bad;
}

static int run_child(int (*fn)(int *), int *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60);                              /* a hang fails the test instead of blocking it */
        exit(fn(arg));
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    if (!WIFEXITED(status)) {
        fprintf(stderr, "child died: signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
        return -1;
    }
    return WEXITSTATUS(status);
}

static int child_uses_cuda_arg(int *) { return child_uses_cuda(); }

int main(void)
{
    /* before any CUDA call: the child starts its own runtime */
    CHECK_EQ(run_child(child_uses_cuda_arg, NULL), 0);

    const int n = 1 << 16, spins = 2000;
    int *d;
    CHECK_EQ(cudaMalloc(&d, n * sizeof(int)), cudaSuccess);
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK_EQ(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    /* fork while a kernel keeps the parent's workers (and their locks) busy */
    add_one<<<n / 256, 256>>>(d, n, spins);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(run_child(child_refused, d), 0);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != host_spin(i, spins);
    CHECK_EQ(bad, 0);

    /* a second child, forked while idle, is refused too; the parent goes on */
    CHECK_EQ(run_child(child_refused, d), 0);
    add_one<<<n / 256, 256>>>(d, n, 0);
    CHECK_EQ(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != host_spin(i, spins) + 1;
    CHECK_EQ(bad, 0);
    CHECK_EQ(cudaFree(d), cudaSuccess);
    free(h);
    return CHECK_DONE();
}
