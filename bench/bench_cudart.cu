// bench_cudart.cu - costs of the runtime-API shim paths on the emulated NPU, each next to a
// host reference measured in the same run: synchronous copies (small: per-call overhead;
// large: bandwidth against memcpy), pageable cudaMemcpyAsync (staged), cudaMemset,
// cudaMalloc/cudaFree against malloc/free, and event record + synchronize on an idle stream.
#include <cuda_runtime.h>
#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void nothing() {}

/* best of 5 batches, per call; `after` runs between batches, untimed (drains queues) */
template <class F, class G = void (*)()> static double best_us(int reps, F f, G after = nothing)
{
    double best = 1e30;
    for (int b = 0; b < 5; b++) {
        double t0 = now_us();
        for (int i = 0; i < reps; i++) f();
        double t = (now_us() - t0) / reps;
        if (t < best) best = t;
        after();
    }
    return best;
}

static volatile unsigned char sink;

int main()
{
    const size_t BIG = 64 << 20, SMALL = 4096, MID = 64 << 10;
    unsigned char *h = (unsigned char *)malloc(BIG), *h2 = (unsigned char *)malloc(BIG);
    memset(h, 1, BIG); memset(h2, 2, BIG);
    unsigned char *d = NULL, *d2 = NULL;
    cudaMalloc((void **)&d, BIG);
    cudaMalloc((void **)&d2, BIG);
    cudaMemset(d, 0, BIG); cudaMemset(d2, 0, BIG);
    cudaDeviceSynchronize();
    cudaStream_t s;
    cudaStreamCreate(&s);

    double ours = best_us(2000, [&] { cudaMemcpy(d, h, SMALL, cudaMemcpyHostToDevice); });
    double ref = best_us(2000, [&] { memcpy(h2, h, SMALL); sink = h2[7]; });
    printf("BENCH cudaMemcpy_4KiB_H2D_sync: %.2f us vs memcpy %.2f us ratio %.1f (target: overhead < 10 us per call)\n",
           ours, ref, ours / ref);

    ours = best_us(5, [&] { cudaMemcpy(d2, d, BIG, cudaMemcpyDeviceToDevice); });
    ref = best_us(5, [&] { memcpy(h2, h, BIG); sink = h2[7]; });
    printf("BENCH cudaMemcpy_64MiB_D2D: %.0f us vs memcpy %.0f us ratio %.2f (target <= 1.2)\n", ours, ref, ours / ref);

    /* 64 MiB H2D and D2H as throughput ratios (memcpy time / ours; target >= 0.9), pageable
     * memory as most programs use it; each side copies between the same two buffers. */
    ours = best_us(5, [&] { cudaMemcpy(d, h, BIG, cudaMemcpyHostToDevice); });
    ref = best_us(5, [&] { memcpy(h2, h, BIG); sink = h2[7]; });
    printf("BENCH cudaMemcpy_64MiB_H2D throughput: ours %.0f us, memcpy %.0f us, ratio %.2f (target >= 0.9)\n", ours, ref, ref / ours);
    ours = best_us(5, [&] { cudaMemcpy(h2, d, BIG, cudaMemcpyDeviceToHost); });
    ref = best_us(5, [&] { memcpy(h2, h, BIG); sink = h2[7]; });
    printf("BENCH cudaMemcpy_64MiB_D2H throughput: ours %.0f us, memcpy %.0f us, ratio %.2f (target >= 0.9)\n", ours, ref, ref / ours);
    ours = best_us(5, [&] { cudaMemcpy(d2, d, BIG, cudaMemcpyDeviceToDevice); });
    ref = best_us(5, [&] { memcpy(h2, h, BIG); sink = h2[7]; });
    printf("BENCH cudaMemcpy_64MiB_D2D throughput: ours %.0f us, memcpy %.0f us, ratio %.2f (target >= 0.9)\n", ours, ref, ref / ours);

    ours = best_us(100, [&] { cudaMemcpyAsync(d, h, MID, cudaMemcpyHostToDevice, s); },
                   [&] { cudaStreamSynchronize(s); });
    ref = best_us(100, [&] { memcpy(h2, h, MID); sink = h2[7]; });
    printf("BENCH cudaMemcpyAsync_64KiB_pageable_H2D_issue: %.2f us vs memcpy %.2f us ratio %.1f (target <= 3: one staging copy, no wait)\n",
           ours, ref, ours / ref);

    ours = best_us(2000, [&] { cudaMemsetAsync(d, 3, SMALL, s); }, [&] { cudaStreamSynchronize(s); });
    ref = best_us(2000, [&] { memset(h2, 3, SMALL); sink = h2[7]; });
    printf("BENCH cudaMemsetAsync_4KiB_issue: %.2f us vs memset %.2f us ratio %.1f (target: issue < 5 us)\n",
           ours, ref, ours / ref);

    ours = best_us(2000, [&] { void *p; cudaMalloc(&p, 1 << 20); cudaFree(p); });
    ref = best_us(2000, [&] { void *p = malloc(1 << 20); sink = p != NULL; free(p); });
    printf("BENCH cudaMalloc_cudaFree_1MiB: %.2f us vs malloc/free %.2f us ratio %.1f (target: cached pool, < 10 us)\n",
           ours, ref, ours / ref);

    cudaEvent_t e;
    cudaEventCreate(&e);
    ours = best_us(2000, [&] { cudaEventRecord(e, s); cudaEventSynchronize(e); });
    ref = best_us(2000, [&] { cudaStreamQuery(s); });
    printf("BENCH cudaEventRecord_Synchronize_idle: %.2f us vs cudaStreamQuery %.2f us ratio %.1f (target: record+sync < 20 us)\n",
           ours, ref, ours / ref);

    cudaEventDestroy(e);
    cudaStreamDestroy(s);
    cudaFree(d); cudaFree(d2);
    free(h); free(h2);
    return 0;
}
