// Calls to __noinline__ device functions: recursion (factorial, Fibonacci, Ackermann with a small
// depth), functions with many and mixed-type parameters, struct return values, pointer out-params,
// and an indirect call through a __device__ table of function pointers. Host reference: the same
// functions compiled for the host.
#include "k_util.h"

struct pair_ { long long a; float b; char c; };

__host__ __device__ __noinline__ long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__host__ __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__host__ __device__ __noinline__ int ack(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
__host__ __device__ __noinline__ double many(char a, short b, int c, long long d, float e, double f, unsigned g,
                                             unsigned char h, double i, float j, int k, long long l)
{
    return a + 2.0 * b + 3.0 * c + 4.0 * d + 5.0 * e + 6.0 * f + 7.0 * g + 8.0 * h + 9.0 * i + 10.0 * j + 11.0 * k + 12.0 * l;
}
__host__ __device__ __noinline__ pair_ mkpair(int x) { pair_ p; p.a = (long long)x * x * x; p.b = x * 0.5f; p.c = (char)(x & 0x7f); return p; }
__host__ __device__ __noinline__ void divmod(int a, int b, int *q, int *r) { *q = a / b; *r = a % b; }

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_sub(int a, int b) { return a - b; }
typedef int (*binop)(int, int);
__device__ binop ops[3] = {op_add, op_mul, op_sub};

__global__ void calls(long long *o, double *od, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    long long *r = o + t * 10;
    r[0] = fact(t % 21);
    r[1] = fib(t % 20);
    r[2] = ack(t % 3, t % 4);
    pair_ p = mkpair(t - 16);
    r[3] = p.a; r[4] = (long long)(p.b * 2); r[5] = p.c;
    int q, m; divmod(1000 - 37 * t, 7 + t % 5, &q, &m);
    r[6] = q; r[7] = m;
    binop f = ops[t % 3];
    r[8] = f(t, 7);
    r[9] = ops[(t + 1) % 3](r[8] & 0xff, t);
    od[t] = many((char)t, (short)(-t), t * 3, -((long long)t << 33), t * 0.25f, t / 3.0, (unsigned)t * 5u,
                 (unsigned char)(200 + t % 50), -t * 1.5, 1.0f / (t + 1), -t, (long long)t * 1000000007ll);
}

static int h_op(int k, int a, int b) { return k == 0 ? a + b : k == 1 ? a * b : a - b; }

int main(void)
{
    const int n = 64;
    long long *d; double *dd;
    CK(cudaMalloc(&d, n * 10 * sizeof(long long))); CK(cudaMalloc(&dd, n * sizeof(double)));
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));   /* recursion depth ~20: beyond the 1 KB default */
    calls<<<1, n>>>(d, dd, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    static long long o[64 * 10]; static double od[64];
    CK(cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(od, dd, sizeof od, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        long long *r = o + t * 10;
        CHECK_EQ(r[0], fact(t % 21));
        CHECK_EQ(r[1], fib(t % 20));
        CHECK_EQ(r[2], ack(t % 3, t % 4));
        pair_ p = mkpair(t - 16);
        CHECK_EQ(r[3], p.a); CHECK_EQ(r[4], (long long)(p.b * 2)); CHECK_EQ(r[5], p.c);
        int q, m; divmod(1000 - 37 * t, 7 + t % 5, &q, &m);
        CHECK_EQ(r[6], q); CHECK_EQ(r[7], m);
        int e8 = h_op(t % 3, t, 7);
        CHECK_EQ(r[8], e8);
        CHECK_EQ(r[9], h_op((t + 1) % 3, e8 & 0xff, t));
        double e = many((char)t, (short)(-t), t * 3, -((long long)t << 33), t * 0.25f, t / 3.0, (unsigned)t * 5u,
                        (unsigned char)(200 + t % 50), -t * 1.5, 1.0f / (t + 1), -t, (long long)t * 1000000007ll);
        CHECK_NEAR(od[t], e, fabs(e) * 1e-14 + 1e-9);   /* same expression; fma contraction may differ in the last bits */
    }
    CHECK_EQ(fact(20), 2432902008176640000ll);   /* hand-known values */
    CHECK_EQ(fib(19), 4181);
    CHECK_EQ(ack(2, 3), 9);
    return CHECK_DONE();
}
