// NVCC_FLAGS: -lcublas -lcublasLt -lopenblas
// bench_blas - cuBLAS through transfer_to_npu vs OpenBLAS called directly, in one process:
//   sgemm M=N=K 256, 1024, 2048, 4096     cublasSgemm vs cblas_sgemm          (target >= 0.95 at >= 1024)
//   GemmEx fp16 in, fp32 compute/out 2048 cublasGemmEx vs cblas_sgemm (fp32)  (target >= 0.8)
//   strided batched 64 x 256^3            cublasSgemmStridedBatched vs a loop of cblas_sgemm (target >= 0.9)
//   per-call cost of a 4x4x4 cublasSgemm (async submit, then one sync) vs cblas_sgemm  (target < 3 us)
// Each side is timed alternately, best of several trials (the machine is shared and noisy).
// Ratio = our GFLOP/s / reference GFLOP/s.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vector>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CK(x) do { if ((x) != 0) { fprintf(stderr, "%s failed\n", #x); exit(1); } } while (0)

static void report(const char *name, double flops, double ours_s, double ref_s, const char *target)
{
    double g1 = flops / ours_s * 1e-9, g2 = flops / ref_s * 1e-9;
    printf("BENCH %s: %.1f GFLOP/s vs %.1f GFLOP/s (OpenBLAS direct) ratio %.3f (target %s)\n", name, g1, g2, g1 / g2, target);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int quick = argc > 1;                          // any argument: smaller sizes only
    cublasHandle_t h;
    CK(cublasCreate(&h));
    const float one = 1, zero = 0;
    const int sizes[4] = { 256, 1024, 2048, 4096 };
    for (int si = 0; si < (quick ? 2 : 4); si++) {
        int n = sizes[si];
        size_t nn = (size_t)n * n;
        std::vector<float> hA(nn), hB(nn);
        for (size_t i = 0; i < nn; i++) { hA[i] = (float)((i * 7) % 13) / 13.0f; hB[i] = (float)((i * 5) % 11) / 11.0f; }
        float *dA, *dB, *dC;
        CK(cudaMalloc((void **)&dA, nn * 4)); CK(cudaMalloc((void **)&dB, nn * 4)); CK(cudaMalloc((void **)&dC, nn * 4));
        CK(cudaMemcpy(dA, hA.data(), nn * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), nn * 4, cudaMemcpyHostToDevice));
        std::vector<float> rC(nn);
        double flops = 2.0 * n * n * n;
        int reps = n <= 256 ? 200 : n <= 1024 ? 10 : n <= 2048 ? 3 : 1;
        int trials = n >= 4096 ? 3 : 4;
        // warm-up both
        CK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
        CK(cudaDeviceSynchronize());
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, hA.data(), n, hB.data(), n, 0, rC.data(), n);
        double best_o = 1e9, best_r = 1e9;
        for (int t = 0; t < trials; t++) {
            double t0 = now();
            for (int r = 0; r < reps; r++)
                CK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
            CK(cudaDeviceSynchronize());
            double t1 = now();
            for (int r = 0; r < reps; r++)
                cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, hA.data(), n, hB.data(), n, 0, rC.data(), n);
            double t2 = now();
            if ((t1 - t0) / reps < best_o) best_o = (t1 - t0) / reps;
            if ((t2 - t1) / reps < best_r) best_r = (t2 - t1) / reps;
        }
        char name[64];
        snprintf(name, sizeof name, "sgemm_%d", n);
        report(name, flops, best_o, best_r, n >= 1024 ? ">= 0.95" : "none");

        if (n == (quick ? 1024 : 2048)) {
            // fp16 in, fp32 compute, fp32 out vs fp32 sgemm
            std::vector<__half> hh(nn);
            for (size_t i = 0; i < nn; i++) hh[i] = __float2half(hA[i]);
            __half *dH;
            CK(cudaMalloc((void **)&dH, nn * 2));
            CK(cudaMemcpy(dH, hh.data(), nn * 2, cudaMemcpyHostToDevice));
            CK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dH, CUDA_R_16F, n, dH, CUDA_R_16F, n, &zero, dC,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            CK(cudaDeviceSynchronize());
            best_o = best_r = 1e9;
            for (int t = 0; t < trials; t++) {
                double t0 = now();
                for (int r = 0; r < reps; r++)
                    CK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dH, CUDA_R_16F, n, dH, CUDA_R_16F, n, &zero, dC,
                                    CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
                CK(cudaDeviceSynchronize());
                double t1 = now();
                for (int r = 0; r < reps; r++)
                    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, hA.data(), n, hB.data(), n, 0, rC.data(), n);
                double t2 = now();
                if ((t1 - t0) / reps < best_o) best_o = (t1 - t0) / reps;
                if ((t2 - t1) / reps < best_r) best_r = (t2 - t1) / reps;
            }
            snprintf(name, sizeof name, "gemmex_f16_f32_%d", n);
            report(name, flops, best_o, best_r, ">= 0.8");
            cudaFree(dH);
        }
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
    }

    // strided batched 64 x 256^3 vs a loop of cblas_sgemm
    {
        const int n = 256, batch = 64;
        size_t nn = (size_t)n * n;
        std::vector<float> hA(nn * batch), hB(nn * batch), rC(nn * batch);
        for (size_t i = 0; i < nn * batch; i++) { hA[i] = (float)((i * 7) % 13) / 13.0f; hB[i] = (float)((i * 5) % 11) / 11.0f; }
        float *dA, *dB, *dC;
        CK(cudaMalloc((void **)&dA, nn * batch * 4)); CK(cudaMalloc((void **)&dB, nn * batch * 4)); CK(cudaMalloc((void **)&dC, nn * batch * 4));
        CK(cudaMemcpy(dA, hA.data(), nn * batch * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), nn * batch * 4, cudaMemcpyHostToDevice));
        CK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, nn, dB, n, nn, &zero, dC, n, nn, batch));
        CK(cudaDeviceSynchronize());
        double best_o = 1e9, best_r = 1e9;
        for (int t = 0; t < 3; t++) {
            double t0 = now();
            CK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, nn, dB, n, nn, &zero, dC, n, nn, batch));
            CK(cudaDeviceSynchronize());
            double t1 = now();
            for (int b = 0; b < batch; b++)
                cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, hA.data() + b * nn, n, hB.data() + b * nn, n, 0,
                            rC.data() + b * nn, n);
            double t2 = now();
            if (t1 - t0 < best_o) best_o = t1 - t0;
            if (t2 - t1 < best_r) best_r = t2 - t1;
        }
        report("sgemm_strided_batched_64x256", 2.0 * n * n * n * batch, best_o, best_r, ">= 0.9");
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
    }
    // per-call overhead: tiny gemms, submitted asynchronously, one sync at the end
    {
        float *d, hA[48] = { 0 }, hC[16];
        CK(cudaMalloc((void **)&d, 48 * 4));
        CK(cudaMemset(d, 0, 48 * 4));
        const int N = 20000;
        double best_o = 1e9, best_r = 1e9;
        for (int t = 0; t < 3; t++) {
            double t0 = now();
            for (int i = 0; i < N; i++)
                CK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d + 16, 4, &zero, d + 32, 4));
            CK(cudaDeviceSynchronize());
            double t1 = now();
            for (int i = 0; i < N; i++)
                cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1, hA, 4, hA + 16, 4, 0, hC, 4);
            double t2 = now();
            if ((t1 - t0) / N < best_o) best_o = (t1 - t0) / N;
            if ((t2 - t1) / N < best_r) best_r = (t2 - t1) / N;
        }
        printf("BENCH sgemm_4x4_call: %.2f us vs %.2f us (OpenBLAS direct) ratio %.3f (target ours < 3 us per call)\n",
               best_o * 1e6, best_r * 1e6, best_r / best_o);
        cudaFree(d);
    }
    CK(cublasDestroy(h));
    return 0;
}
