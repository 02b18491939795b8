// NVCC_FLAGS: -lcublas -lcublasLt
// cuBLAS work is ordered with copies and events on its stream: two host threads with their
// own handles and non-blocking streams run copy -> gemm -> copy chains concurrently; one
// handle switches streams and hands a result across with an event; gemm on the legacy stream
// then a synchronous cudaMemcpy; device-pointer-mode scalars written by an earlier async copy.
#include "blas_util.h"
#include <thread>

static void host_gemm(int n, const std::vector<float> &A, const std::vector<float> &B, std::vector<double> &C)
{
    C.assign((size_t)n * n, 0);
    for (int j = 0; j < n; j++) for (int p = 0; p < n; p++) {
        double b = B[p + j * n];
        for (int i = 0; i < n; i++) C[i + j * n] += (double)A[i + p * n] * b;
    }
}

static int worker(int seed)
{
    const int n = 96, iters = 25;
    int bad = 0;
    cublasHandle_t h;
    cudaStream_t s;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1000;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1000;
    cublasSetStream(h, s);
    float *dA, *dB, *dC, *hA, *hB, *hC;
    cudaMalloc((void **)&dA, n * n * 4); cudaMalloc((void **)&dB, n * n * 4); cudaMalloc((void **)&dC, n * n * 4);
    cudaMallocHost((void **)&hA, n * n * 4); cudaMallocHost((void **)&hB, n * n * 4); cudaMallocHost((void **)&hC, n * n * 4);
    const float one = 1, zero = 0;
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n * n; i++) { hA[i] = (float)(((i + seed * 7 + it) % 9) - 4); hB[i] = (float)(((i * 3 + seed + it) % 7) - 3); }
        std::vector<float> A(hA, hA + n * n), B(hB, hB + n * n);
        cudaMemcpyAsync(dA, hA, n * n * 4, cudaMemcpyHostToDevice, s);
        cudaMemcpyAsync(dB, hB, n * n * 4, cudaMemcpyHostToDevice, s);
        if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n) != CUBLAS_STATUS_SUCCESS) bad++;
        cudaMemcpyAsync(hC, dC, n * n * 4, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        std::vector<double> R;
        host_gemm(n, A, B, R);
        for (int i = 0; i < n * n; i++) if (hC[i] != (float)R[i]) { bad++; break; }   // small integers: exact
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFreeHost(hA); cudaFreeHost(hB); cudaFreeHost(hC);
    cublasDestroy(h);
    cudaStreamDestroy(s);
    return bad;
}

int main()
{
    int bad1 = -1, bad2 = -1;
    std::thread t1([&] { bad1 = worker(1); }), t2([&] { bad2 = worker(2); });
    t1.join(); t2.join();
    CHECK_EQ(bad1, 0);
    CHECK_EQ(bad2, 0);

    // one handle, two streams, an event between them
    const int n = 64;
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t ev;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    std::vector<float> A(n * n), B(n * n);
    for (int i = 0; i < n * n; i++) { A[i] = (float)((i % 5) - 2); B[i] = (float)((i % 3) - 1); }
    float *dA = upload(A), *dB = upload(B), *dC = dalloc<float>(n * n), *dD = dalloc<float>(n * n);
    const float one = 1, zero = 0;
    BK(cublasSetStream(h, s1));
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));   // C = A B
    CK(cudaEventRecord(ev, s1));
    CK(cudaStreamWaitEvent(s2, ev, 0));
    BK(cublasSetStream(h, s2));
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dC, n, dB, n, &zero, dD, n));   // D = C B
    CK(cudaStreamSynchronize(s2));
    std::vector<float> D = download(dD, n * n);
    std::vector<double> C1, D1;
    host_gemm(n, A, B, C1);
    std::vector<float> C1f(C1.begin(), C1.end());
    host_gemm(n, C1f, B, D1);
    int bad = 0;
    for (int i = 0; i < n * n; i++) if (D[i] != (float)D1[i]) bad++;
    CHECK_EQ(bad, 0);

    // legacy stream: gemm then a synchronous copy sees the result
    BK(cublasSetStream(h, 0));
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dD, n));
    std::vector<float> D2(n * n);
    CK(cudaMemcpy(D2.data(), dD, n * n * 4, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < n * n; i++) if (D2[i] != (float)C1[i]) bad++;
    CHECK_EQ(bad, 0);

    // device scalars produced by an earlier async copy on the same stream
    float *dS = dalloc<float>(2), *hS;
    CK(cudaMallocHost((void **)&hS, 8));
    hS[0] = 3; hS[1] = 0;
    BK(cublasSetStream(h, s1));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CK(cudaMemcpyAsync(dS, hS, 8, cudaMemcpyHostToDevice, s1));
    BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, dS, dA, n, dB, n, dS + 1, dD, n));
    CK(cudaStreamSynchronize(s1));
    BK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    D2 = download(dD, n * n);
    bad = 0;
    for (int i = 0; i < n * n; i++) if (D2[i] != (float)(3 * C1[i])) bad++;
    CHECK_EQ(bad, 0);

    BK(cublasDestroy(h));
    CK(cudaEventDestroy(ev));
    CK(cudaStreamDestroy(s1)); CK(cudaStreamDestroy(s2));
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD); cudaFree(dS); cudaFreeHost(hS);
    return CHECK_DONE();
}
