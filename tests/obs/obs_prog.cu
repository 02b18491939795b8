// obs_prog.cu - a CUDA program whose calls the observability tests know exactly.
//   obs_prog work       3 cudaMalloc, 3 cudaFree, 2 cudaMemcpy, 1 cudaStreamCreate, 1 H2D
//                       cudaMemcpyAsync then 5 launches of scale_kernel on that stream, 1 D2H
//                       cudaMemcpyAsync, 1 cudaStreamSynchronize, 1 cublasSgemm (16x8x4) on the
//                       stream, 2 calls of unsupported cudaCreateTextureObject, one cudaMalloc
//                       of 2^40 bytes that fails, and one cudaGetDeviceCount from a second
//                       host thread; checks every result against a host computation.
//   obs_prog hold MiB F allocates MiB of device memory, prints "READY <pid>", waits until
//                       file F exists (at most 60 s), frees and exits
//   obs_prog exitcb     exits (exit(0)) from inside a host callback on a stream, while a
//                       kernel and API calls are in flight: report and trace must still be whole
//   obs_prog profiler   scale_kernel with grids 1..5: 1 before cudaProfilerStart, 2 in the first
//                       range, 3 between ranges, 4 in the second range, 5 after it (plus a
//                       Start while started and a Stop while stopped, which change nothing)
//   obs_prog spin [own|late]  allocates 1 MiB, launches scale_kernel until killed (at most
//                       60 s), printing "READY <pid>" after the first one. SIGINT is reset to
//                       its default first (a background job of a script starts with it
//                       ignored). own: installs its own SIGTERM/SIGINT handler before any CUDA
//                       call; late: after the first CUDA call; either handler makes the loop
//                       stop and the program exit(7)
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__global__ void scale_kernel(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + 1.0f;
}

#define OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__); \
    return 1; } } while (0)

static void *other_thread(void *arg)
{
    int n = 0;
    cudaGetDeviceCount(&n);
    *(int *)arg = n;
    return NULL;
}

static int work(void)
{
    const int n = 1000;
    float h[1000], ref[1000];
    for (int i = 0; i < n; i++) { h[i] = (float)i * 0.5f; ref[i] = h[i]; }
    float *d, *a, *b;
    OK(cudaMalloc(&d, n * sizeof(float)));
    OK(cudaMalloc(&a, 64 * sizeof(float)));
    OK(cudaMalloc(&b, 64 * sizeof(float)));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    for (int r = 0; r < 5; r++) {
        scale_kernel<<<(n + 127) / 128, 128, 0, s>>>(d, 2.0f, n);
        for (int i = 0; i < n; i++) ref[i] = ref[i] * 2.0f + 1.0f;
    }
    OK(cudaGetLastError());
    OK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        if (h[i] != ref[i]) { fprintf(stderr, "kernel result %d: %g != %g\n", i, h[i], ref[i]); return 1; }

    /* C(16x8) = A(16x4) * B(4x8), column-major */
    float ha[64], hb[32], hc[128];
    for (int i = 0; i < 64; i++) ha[i] = (float)(i % 7) - 3;
    for (int i = 0; i < 32; i++) hb[i] = (float)(i % 5) - 2;
    OK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    float *c;
    OK(cudaMalloc(&c, sizeof hc));
    cublasHandle_t hd;
    if (cublasCreate(&hd) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublasCreate\n"); return 1; }
    cublasSetStream(hd, s);
    float one = 1, zero = 0;
    if (cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, 16, 8, 4, &one, a, 16, b, 4, &zero, c, 16) !=
        CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "sgemm\n"); return 1; }
    OK(cudaStreamSynchronize(s));
    cudaMemcpyAsync(hc, c, sizeof hc, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 16; i++) {
            float r = 0;
            for (int k = 0; k < 4; k++) r += ha[i + k * 16] * hb[k + j * 4];
            if (hc[i + j * 16] != r) { fprintf(stderr, "gemm %d,%d\n", i, j); return 1; }
        }
    cublasDestroy(hd);

    /* unsupported: twice */
    cudaTextureObject_t tex;
    struct cudaResourceDesc rd; struct cudaTextureDesc td;
    memset(&rd, 0, sizeof rd); memset(&td, 0, sizeof td);
    for (int i = 0; i < 2; i++)
        if (cudaCreateTextureObject(&tex, &rd, &td, NULL) == cudaSuccess) { fprintf(stderr, "texture?\n"); return 1; }
    cudaGetLastError();
    /* a failing call */
    void *huge;
    if (cudaMalloc(&huge, (size_t)1 << 40) == cudaSuccess) { fprintf(stderr, "2^40 alloc succeeded\n"); return 1; }
    cudaGetLastError();

    int cnt = -1;
    pthread_t t;
    pthread_create(&t, NULL, other_thread, &cnt);
    pthread_join(t, NULL);
    if (cnt < 1) { fprintf(stderr, "count from thread %d\n", cnt); return 1; }

    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
    OK(cudaFree(a));
    OK(cudaFree(b));
    cudaFree(c);
    return 0;
}

static int hold(size_t mib, const char *release)
{
    void *p;
    OK(cudaMalloc(&p, mib << 20));
    OK(cudaMemset(p, 1, mib << 20));
    OK(cudaDeviceSynchronize());
    printf("READY %d\n", (int)getpid());
    fflush(stdout);
    for (int i = 0; i < 600 && release && access(release, F_OK) != 0; i++)
        usleep(100000);
    OK(cudaFree(p));
    return 0;
}

static void CUDART_CB exit_cb(void *arg)
{
    fprintf(stderr, "exiting from inside a host callback\n");
    exit(0);
}

static int exitcb(void)
{
    float *d;
    OK(cudaMalloc(&d, 4096 * sizeof(float)));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(cudaMemsetAsync(d, 0, 4096 * sizeof(float), s));
    scale_kernel<<<32, 128, 0, s>>>(d, 3.0f, 4096);
    OK(cudaLaunchHostFunc(s, exit_cb, NULL));
    scale_kernel<<<32, 128, 0, s>>>(d, 3.0f, 4096);
    OK(cudaStreamSynchronize(s));   /* never returns: the callback exits */
    sleep(5);
    return 3;
}

static int profiler(void)
{
    const int n = 4096;
    float *d, h[4096];
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    OK(cudaMalloc(&d, n * sizeof(float)));
    OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    for (int g = 1; g <= 5; g++) {
        if (g == 2 || g == 4) {
            OK(cudaProfilerStart());
            if (g == 4)
                OK(cudaProfilerStart());    /* already started: nothing changes */
        }
        scale_kernel<<<g, 128>>>(d, 2.0f, g * 128);
        OK(cudaGetLastError());
        OK(cudaDeviceSynchronize());
        if (g == 2 || g == 4)
            OK(cudaProfilerStop());
        if (g == 2)
            OK(cudaProfilerStop());         /* already stopped: nothing changes */
    }
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {       /* element i was scaled by the grids that covered it */
        float r = 1.0f;
        for (int g = 1; g <= 5; g++)
            if (i < g * 128) r = r * 2.0f + 1.0f;
        if (h[i] != r) { fprintf(stderr, "profiler run: element %d %g != %g\n", i, h[i], r); return 1; }
    }
    OK(cudaFree(d));
    return 0;
}

static volatile sig_atomic_t stop_requested;
static void own_handler(int sig) { stop_requested = sig; }

static void install_own(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = own_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

static int spin(const char *how)
{
    signal(SIGINT, SIG_DFL);
    if (how && !strcmp(how, "own"))
        install_own();
    float *d;
    OK(cudaMalloc(&d, 1 << 20));
    OK(cudaMemset(d, 0, 1 << 20));
    if (how && !strcmp(how, "late"))
        install_own();
    time_t t0 = time(NULL);
    for (int i = 0; time(NULL) - t0 < 60 && !stop_requested; i++) {
        scale_kernel<<<64, 128>>>(d, 1.0f, 64 * 128);
        OK(cudaDeviceSynchronize());
        if (i == 0) {
            printf("READY %d\n", (int)getpid());
            fflush(stdout);
        }
        usleep(100);
    }
    if (stop_requested)
        exit(7);
    return 3;                            /* never killed: the test failed */
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "profiler"))
        return profiler();
    if (argc > 1 && !strcmp(argv[1], "spin"))
        return spin(argc > 2 ? argv[2] : NULL);
    if (argc > 1 && !strcmp(argv[1], "hold"))
        return hold(argc > 2 ? strtoul(argv[2], NULL, 10) : 64, argc > 3 ? argv[3] : NULL);
    if (argc > 1 && !strcmp(argv[1], "exitcb"))
        return exitcb();
    return work();
}
