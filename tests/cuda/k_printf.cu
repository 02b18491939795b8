// printf from kernels (vprintf with a packed argument buffer): %d %u %x %lld %.2f %.3e %s %c and
// %% from 2 blocks x 8 threads. stdout (fd 1) is captured into a temporary file around the launch
// and synchronisation; every expected line must appear exactly once (order between threads is
// unspecified), and the captured text is echoed afterwards so the run's stdout shows it.
#include "k_util.h"
#include <unistd.h>
#include <fcntl.h>

__global__ void say(const char *tag, double scale)
{
    int t = threadIdx.x, b = blockIdx.x;
    printf("k_printf b=%d t=%d u=%u x=%x ll=%lld f=%.2f e=%.3e s=%s c=%c pct=%%\n", b, t, (unsigned)(b * 100 + t),
           0xabc0 + t, (long long)t << 40, t * scale, (double)(b + 1) * 1e-5, tag, 'A' + t);
}

int main(void)
{
    char *dtag;
    CK(cudaMalloc(&dtag, 8));
    CK(cudaMemcpy(dtag, "npu", 4, cudaMemcpyHostToDevice));   /* %s reads device memory */
    fflush(stdout);
    char path[] = "/tmp/k_printf_XXXXXX";
    int fd = mkstemp(path), saved = dup(1);
    CHECK(fd >= 0 && saved >= 0);
    dup2(fd, 1);
    say<<<2, 8>>>(dtag, 0.5);
    cudaError_t le = cudaGetLastError(), se = cudaDeviceSynchronize();
    fflush(stdout);
    dup2(saved, 1); close(saved);
    CHECK_EQ(le, cudaSuccess); CHECK_EQ(se, cudaSuccess);
    static char buf[16384];
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd); unlink(path);
    buf[n > 0 ? n : 0] = 0;
    fputs(buf, stdout);
    int lines = 0; for (char *p = buf; *p; p++) lines += *p == '\n';
    CHECK_EQ(lines, 16);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 8; t++) {
            char want[256];
            snprintf(want, sizeof want, "k_printf b=%d t=%d u=%u x=%x ll=%lld f=%.2f e=%.3e s=%s c=%c pct=%%\n", b, t,
                     (unsigned)(b * 100 + t), 0xabc0 + t, (long long)t << 40, t * 0.5, (b + 1) * 1e-5, "npu", 'A' + t);
            char *at = strstr(buf, want);
            CHECK_MSG(at != NULL, "missing line: %s", want);
            if (at) CHECK_MSG(strstr(at + 1, want) == NULL, "duplicated line: %s", want);
        }
    return CHECK_DONE();
}
