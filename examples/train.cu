// train.cu - a small MLP trained with hand-written CUDA kernels on a synthetic data set.
//
// Unmodified CUDA: builds with `nvcc -cudart shared -o train train.cu` and runs on a real GPU
// as it is, or on the emulated NPU with `transfer-to-npu ./train` (what `make demo` does).
//
// Data: 4 classes of points in 2-D arranged as interleaved spiral arms (not linearly
// separable), generated from a fixed seed. Model: 2 -> 64 -> 64 -> 4, ReLU, softmax
// cross-entropy, SGD with momentum. Kernels: a 16x16 tiled shared-memory matmul, bias+ReLU,
// ReLU backward, softmax cross-entropy with atomics, a column sum (shared-memory tree
// finished with warp shuffles), and the SGD update. Prints the loss per epoch, checks test
// accuracy, saves the weights.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
    exit(2); } } while (0)

constexpr int TILE = 16;

// C[M x N] = sum_k A(m, k) * B(k, n), with element strides so one kernel serves X*W, X^T*dY
// and dY*W^T. If accumulate, C += result.
__global__ void matmul_tiled(const float *A, int sa_m, int sa_k, const float *B, int sb_k, int sb_n,
                             float *C, int M, int N, int K, int accumulate)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < K; t += TILE) {
        int ka = t + threadIdx.x, kb = t + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * sa_m + ka * sa_k] : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * sb_k + col * sb_n] : 0.f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = accumulate ? C[row * N + col] + acc : acc;
}

__global__ void bias_act(float *Y, const float *b, int rows, int cols, int relu)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        float v = Y[i] + b[i % cols];
        Y[i] = relu ? fmaxf(v, 0.f) : v;
    }
}

__global__ void relu_backward(float *dY, const float *Y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && Y[i] <= 0.f)
        dY[i] = 0.f;
}

// One thread per sample: softmax, loss, gradient (p - onehot) / batch, correct count.
__global__ void softmax_xent(const float *logits, const int *labels, float *grad, float *loss,
                             int *correct, int rows, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *z = logits + r * C;
    float m = z[0];
    int arg = 0;
    for (int c = 1; c < C; c++)
        if (z[c] > m) { m = z[c]; arg = c; }
    float s = 0.f;
    for (int c = 0; c < C; c++)
        s += expf(z[c] - m);
    int y = labels[r];
    atomicAdd(loss, logf(s) - (z[y] - m));
    if (arg == y)
        atomicAdd(correct, 1);
    if (grad)
        for (int c = 0; c < C; c++)
            grad[r * C + c] = (expf(z[c] - m) / s - (c == y ? 1.f : 0.f)) / rows;
}

// db[c] = sum over rows of dY[r, c]: one block per column, tree in shared memory, the last
// 32 partial sums reduced with warp shuffles.
__global__ void column_sum(const float *dY, float *db, int rows, int cols)
{
    extern __shared__ float part[];
    int c = blockIdx.x;
    float s = 0.f;
    for (int r = threadIdx.x; r < rows; r += blockDim.x)
        s += dY[r * cols + c];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w >= 32; w >>= 1) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        float v = part[threadIdx.x];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (threadIdx.x == 0)
            db[c] = v;
    }
}

__global__ void sgd_momentum(float *W, const float *dW, float *V, int n, float lr, float mu)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        V[i] = mu * V[i] - lr * dW[i];
        W[i] += V[i];
    }
}

struct Layer {
    int in, out;
    float *W, *b, *dW, *db, *vW, *vb;
};

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static float frand() // uniform [0, 1)
{
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (float)((rng_state >> 40) & 0xFFFFFF) / 16777216.0f;
}

static void make_spirals(int n, int classes, std::vector<float> &x, std::vector<int> &y)
{
    x.resize(2 * n);
    y.resize(n);
    for (int i = 0; i < n; i++) {
        int c = i % classes;
        float t = frand();
        float r = 0.2f + 0.8f * t;
        float a = c * 2.f * 3.14159265f / classes + 4.5f * t + 0.6f * (frand() - 0.5f);
        x[2 * i] = r * cosf(a);
        x[2 * i + 1] = r * sinf(a);
        y[i] = c;
    }
    for (int i = n - 1; i > 0; i--) { // shuffle
        int j = (int)(frand() * (i + 1)) % (i + 1);
        std::swap(x[2 * i], x[2 * j]);
        std::swap(x[2 * i + 1], x[2 * j + 1]);
        std::swap(y[i], y[j]);
    }
}

static void layer_init(Layer &L, int in, int out)
{
    L.in = in; L.out = out;
    std::vector<float> w(in * out), z(in * out, 0.f);
    float scale = sqrtf(2.f / in);
    for (auto &v : w) v = (frand() * 2.f - 1.f) * scale * 1.7320508f;
    CUDA_CHECK(cudaMalloc(&L.W, in * out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&L.dW, in * out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&L.vW, in * out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&L.b, out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&L.db, out * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&L.vb, out * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(L.W, w.data(), in * out * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(L.vW, 0, in * out * sizeof(float)));
    CUDA_CHECK(cudaMemset(L.b, 0, out * sizeof(float)));
    CUDA_CHECK(cudaMemset(L.vb, 0, out * sizeof(float)));
}

static void matmul(cudaStream_t s, const float *A, int sa_m, int sa_k, const float *B, int sb_k,
                   int sb_n, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block, 0, s>>>(A, sa_m, sa_k, B, sb_k, sb_n, C, M, N, K, 0);
}

static inline int blocks(int n, int t) { return (n + t - 1) / t; }

int main(int argc, char **argv)
{
    const char *out_path = argc > 1 ? argv[1] : "mlp_weights.bin";
    const int classes = 4, hidden = 64, ntrain = 8192, ntest = 2048, batch = 256;
    const int epochs = argc > 2 ? atoi(argv[2]) : 20;
    const float lr = 0.1f, mu = 0.9f;

    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (%d multiprocessors, %.1f GiB)\n", prop.name, prop.multiProcessorCount,
           prop.totalGlobalMem / 1073741824.0);

    std::vector<float> xtr, xte;
    std::vector<int> ytr, yte;
    make_spirals(ntrain, classes, xtr, ytr);
    make_spirals(ntest, classes, xte, yte);

    float *dXtr, *dXte, *dH1, *dH2, *dZ, *dG, *dG1, *dG2, *dLoss;
    int *dYtr, *dYte, *dCorrect;
    CUDA_CHECK(cudaMalloc(&dXtr, xtr.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dXte, xte.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dYtr, ytr.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dYte, yte.size() * sizeof(int)));
    int maxrows = ntest > batch ? ntest : batch;
    CUDA_CHECK(cudaMalloc(&dH1, maxrows * hidden * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dH2, maxrows * hidden * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dZ, maxrows * classes * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dG, batch * classes * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dG1, batch * hidden * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dG2, batch * hidden * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dLoss, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dCorrect, sizeof(int)));

    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreate(&s));
    CUDA_CHECK(cudaMemcpyAsync(dXtr, xtr.data(), xtr.size() * sizeof(float), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(dXte, xte.data(), xte.size() * sizeof(float), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(dYtr, ytr.data(), ytr.size() * sizeof(int), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(dYte, yte.data(), yte.size() * sizeof(int), cudaMemcpyHostToDevice, s));

    Layer L1, L2, L3;
    layer_init(L1, 2, hidden);
    layer_init(L2, hidden, hidden);
    layer_init(L3, hidden, classes);
    Layer *layers[3] = { &L1, &L2, &L3 };

    auto forward = [&](const float *X, const int *Y, int rows, float *grad) {
        matmul(s, X, 2, 1, L1.W, hidden, 1, dH1, rows, hidden, 2);
        bias_act<<<blocks(rows * hidden, 256), 256, 0, s>>>(dH1, L1.b, rows, hidden, 1);
        matmul(s, dH1, hidden, 1, L2.W, hidden, 1, dH2, rows, hidden, hidden);
        bias_act<<<blocks(rows * hidden, 256), 256, 0, s>>>(dH2, L2.b, rows, hidden, 1);
        matmul(s, dH2, hidden, 1, L3.W, classes, 1, dZ, rows, classes, hidden);
        bias_act<<<blocks(rows * classes, 256), 256, 0, s>>>(dZ, L3.b, rows, classes, 0);
        softmax_xent<<<blocks(rows, 128), 128, 0, s>>>(dZ, Y, grad, dLoss, dCorrect, rows, classes);
    };

    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    CUDA_CHECK(cudaEventRecord(t0, s));
    float first_loss = 0.f, last_loss = 0.f;
    for (int epoch = 0; epoch < epochs; epoch++) {
        CUDA_CHECK(cudaMemsetAsync(dLoss, 0, sizeof(float), s));
        CUDA_CHECK(cudaMemsetAsync(dCorrect, 0, sizeof(int), s));
        for (int off = 0; off + batch <= ntrain; off += batch) {
            const float *X = dXtr + 2 * off;
            forward(X, dYtr + off, batch, dG);
            // backward: layer 3
            matmul(s, dH2, 1, hidden, dG, classes, 1, L3.dW, hidden, classes, batch);   // H2^T G
            column_sum<<<classes, 128, 128 * sizeof(float), s>>>(dG, L3.db, batch, classes);
            matmul(s, dG, classes, 1, L3.W, 1, classes, dG2, batch, hidden, classes);   // G W3^T
            relu_backward<<<blocks(batch * hidden, 256), 256, 0, s>>>(dG2, dH2, batch * hidden);
            // layer 2
            matmul(s, dH1, 1, hidden, dG2, hidden, 1, L2.dW, hidden, hidden, batch);
            column_sum<<<hidden, 128, 128 * sizeof(float), s>>>(dG2, L2.db, batch, hidden);
            matmul(s, dG2, hidden, 1, L2.W, 1, hidden, dG1, batch, hidden, hidden);
            relu_backward<<<blocks(batch * hidden, 256), 256, 0, s>>>(dG1, dH1, batch * hidden);
            // layer 1
            matmul(s, X, 1, 2, dG1, hidden, 1, L1.dW, 2, hidden, batch);
            column_sum<<<hidden, 128, 128 * sizeof(float), s>>>(dG1, L1.db, batch, hidden);
            for (Layer *L : layers) {
                sgd_momentum<<<blocks(L->in * L->out, 256), 256, 0, s>>>(L->W, L->dW, L->vW, L->in * L->out, lr, mu);
                sgd_momentum<<<blocks(L->out, 256), 256, 0, s>>>(L->b, L->db, L->vb, L->out, lr, mu);
            }
        }
        float loss;
        int correct;
        CUDA_CHECK(cudaMemcpyAsync(&loss, dLoss, sizeof loss, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaMemcpyAsync(&correct, dCorrect, sizeof correct, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        CUDA_CHECK(cudaGetLastError());
        int seen = (ntrain / batch) * batch;
        loss /= seen;
        if (epoch == 0) first_loss = loss;
        last_loss = loss;
        printf("epoch %2d  loss %.4f  train accuracy %.2f%%\n", epoch + 1, loss, 100.0 * correct / seen);
        fflush(stdout);
    }
    CUDA_CHECK(cudaEventRecord(t1, s));

    // evaluation on the held-out set
    CUDA_CHECK(cudaMemsetAsync(dLoss, 0, sizeof(float), s));
    CUDA_CHECK(cudaMemsetAsync(dCorrect, 0, sizeof(int), s));
    forward(dXte, dYte, ntest, nullptr);
    int correct;
    CUDA_CHECK(cudaMemcpyAsync(&correct, dCorrect, sizeof correct, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    double acc = (double)correct / ntest;
    printf("test accuracy %.2f%% (%d/%d), training took %.1f ms\n", 100 * acc, correct, ntest, ms);

    // save the weights: for each layer in order, W (in x out, row major) then b
    FILE *f = fopen(out_path, "wb");
    if (!f) { perror(out_path); return 2; }
    for (Layer *L : layers) {
        std::vector<float> w(L->in * L->out), b(L->out);
        CUDA_CHECK(cudaMemcpy(w.data(), L->W, w.size() * sizeof(float), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(b.data(), L->b, b.size() * sizeof(float), cudaMemcpyDeviceToHost));
        fwrite(w.data(), sizeof(float), w.size(), f);
        fwrite(b.data(), sizeof(float), b.size(), f);
    }
    fclose(f);
    printf("saved weights to %s\n", out_path);

    for (Layer *L : layers) {
        cudaFree(L->W); cudaFree(L->dW); cudaFree(L->vW); cudaFree(L->b); cudaFree(L->db); cudaFree(L->vb);
    }
    cudaFree(dXtr); cudaFree(dXte); cudaFree(dYtr); cudaFree(dYte); cudaFree(dH1); cudaFree(dH2);
    cudaFree(dZ); cudaFree(dG); cudaFree(dG1); cudaFree(dG2); cudaFree(dLoss); cudaFree(dCorrect);
    cudaEventDestroy(t0); cudaEventDestroy(t1);
    cudaStreamDestroy(s);

    bool ok = acc >= 0.90 && last_loss < first_loss;
    printf("%s: loss %.4f -> %.4f, test accuracy %.2f%% (threshold 90%%)\n", ok ? "PASS" : "FAIL",
           first_loss, last_loss, 100 * acc);
    return ok ? 0 : 1;
}
