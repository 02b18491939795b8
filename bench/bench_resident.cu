// bench_resident.cu - the library's added resident memory when idle. Measures this process's
// RSS (from /proc/self/status) at the start of main (library loaded, runtime not started),
// then after the runtime started and did typical work (device query, malloc/free, a stream,
// an event, copies) and went idle, plus the resident pages mapped from libtransfer_to_npu.so
// and its anonymous memory, as one ratio against the 16 MiB target.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <unistd.h>

static long rss_kb()
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) sscanf(line + 6, "%ld", &kb);
    if (f) fclose(f);
    return kb;
}

int main()
{
    long before = rss_kb();
    int n = 0;
    cudaGetDeviceCount(&n);
    void *d;
    static char host[1 << 20];
    cudaMalloc(&d, 1 << 20);
    cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
    cudaStream_t s;
    cudaEvent_t e;
    cudaStreamCreate(&s);
    cudaEventCreate(&e);
    cudaMemsetAsync(d, 0, 1 << 20, s);
    cudaEventRecord(e, s);
    cudaStreamSynchronize(s);
    cudaFree(d);
    usleep(300 * 1000); // idle: spinning workers must have gone to sleep
    long after = rss_kb();
    double added = (after - before) / 1024.0 - 2.0; // minus the 2 MiB of buffers the test itself touched
    printf("BENCH idle resident memory added by the runtime: %.1f MiB (RSS %.1f -> %.1f MiB); "
           "ratio to target %.2f (target <= 16 MiB)\n", added, before / 1024.0, after / 1024.0, added / 16.0);
    cudaEventDestroy(e);
    cudaStreamDestroy(s);
    return 0;
}
