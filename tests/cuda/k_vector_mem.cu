// Vector loads and stores: float4, int4, int2, double2, uchar4, short2, longlong2 in global memory
// (ld.global.v4.f32, ld.global.v2.f64, ld.global.v4.u8 ...) and float4 through shared memory,
// with per-component arithmetic. Host reference: the same component arithmetic.
#include "k_util.h"

#define N 256

__global__ void vec(const float4 *f4, const int2 *i2, const double2 *d2, const uchar4 *c4, const short2 *s2,
                    const longlong2 *l2, const int4 *i4, float4 *of4, int2 *oi2, double2 *od2, uchar4 *oc4,
                    short2 *os2, longlong2 *ol2, int4 *oi4)
{
    __shared__ float4 sh[N];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float4 a = f4[t];
    sh[threadIdx.x] = make_float4(a.w, a.z, a.y, a.x);
    __syncthreads();
    float4 b = sh[(threadIdx.x + 1) % blockDim.x];
    of4[t] = make_float4(a.x + b.x, a.y * b.y, a.z - b.z, a.w * 2.0f);
    int2 p = i2[t]; oi2[t] = make_int2(p.y, p.x + p.y);
    double2 q = d2[t]; od2[t] = make_double2(q.x * q.y, q.x - q.y);
    uchar4 c = c4[t]; oc4[t] = make_uchar4(c.w, (unsigned char)(c.x + c.y), c.z ^ 0xff, c.y);
    short2 s = s2[t]; os2[t] = make_short2((short)(s.x * 3), (short)(s.y - s.x));
    longlong2 l = l2[t]; ol2[t] = make_longlong2(l.y + 1, l.x ^ l.y);
    int4 v = i4[t]; oi4[t] = make_int4(v.x + v.y + v.z + v.w, v.w, v.z, v.y);
}

int main(void)
{
    static float4 f4[N], of4[N]; static int2 i2[N], oi2[N]; static double2 d2[N], od2[N]; static uchar4 c4[N], oc4[N];
    static short2 s2[N], os2[N]; static longlong2 l2[N], ol2[N]; static int4 i4[N], oi4[N];
    for (int i = 0; i < N; i++) {
        f4[i] = make_float4((float)k_randu(-9, 9), (float)k_randu(-9, 9), (float)k_randu(-9, 9), (float)k_randu(-9, 9));
        i2[i] = make_int2((int)k_rand32() >> 2, (int)k_rand32() >> 2);
        d2[i] = make_double2(k_randu(-1e5, 1e5), k_randu(-1e5, 1e5));
        uint32_t u = k_rand32(); c4[i] = make_uchar4(u, u >> 8, u >> 16, u >> 24);
        s2[i] = make_short2((short)(k_rand32() % 10000) - 5000, (short)k_rand32());
        l2[i] = make_longlong2((long long)k_rand64(), (long long)(k_rand64() >> 1));
        i4[i] = make_int4((int)k_rand32() >> 3, (int)k_rand32() >> 3, (int)k_rand32() >> 3, (int)k_rand32() >> 3);
    }
    float4 *a, *oa; int2 *b, *ob; double2 *c, *oc; uchar4 *d, *od; short2 *e, *oe; longlong2 *f, *of; int4 *g, *og;
    CK(cudaMalloc(&a, sizeof f4)); CK(cudaMalloc(&oa, sizeof f4)); CK(cudaMalloc(&b, sizeof i2)); CK(cudaMalloc(&ob, sizeof i2));
    CK(cudaMalloc(&c, sizeof d2)); CK(cudaMalloc(&oc, sizeof d2)); CK(cudaMalloc(&d, sizeof c4)); CK(cudaMalloc(&od, sizeof c4));
    CK(cudaMalloc(&e, sizeof s2)); CK(cudaMalloc(&oe, sizeof s2)); CK(cudaMalloc(&f, sizeof l2)); CK(cudaMalloc(&of, sizeof l2));
    CK(cudaMalloc(&g, sizeof i4)); CK(cudaMalloc(&og, sizeof i4));
    CK(cudaMemcpy(a, f4, sizeof f4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(b, i2, sizeof i2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(c, d2, sizeof d2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d, c4, sizeof c4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(e, s2, sizeof s2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(f, l2, sizeof l2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(g, i4, sizeof i4, cudaMemcpyHostToDevice));
    vec<<<N / 64, 64>>>(a, b, c, d, e, f, g, oa, ob, oc, od, oe, of, og);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(of4, oa, sizeof of4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(oi2, ob, sizeof oi2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(od2, oc, sizeof od2, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(oc4, od, sizeof oc4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(os2, oe, sizeof os2, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(ol2, of, sizeof ol2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(oi4, og, sizeof oi4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < N; t++) {
        int blk = t / 64, nb = blk * 64 + (t % 64 + 1) % 64;
        float4 A = f4[t], B = make_float4(f4[nb].w, f4[nb].z, f4[nb].y, f4[nb].x);
        int ok = of4[t].x == A.x + B.x && of4[t].y == A.y * B.y && of4[t].z == A.z - B.z && of4[t].w == A.w * 2.0f;
        ok &= oi2[t].x == i2[t].y && oi2[t].y == i2[t].x + i2[t].y;
        ok &= od2[t].x == d2[t].x * d2[t].y && od2[t].y == d2[t].x - d2[t].y;
        ok &= oc4[t].x == c4[t].w && oc4[t].y == (unsigned char)(c4[t].x + c4[t].y) && oc4[t].z == (c4[t].z ^ 0xff) && oc4[t].w == c4[t].y;
        ok &= os2[t].x == (short)(s2[t].x * 3) && os2[t].y == (short)(s2[t].y - s2[t].x);
        ok &= ol2[t].x == l2[t].y + 1 && ol2[t].y == (l2[t].x ^ l2[t].y);
        ok &= oi4[t].x == i4[t].x + i4[t].y + i4[t].z + i4[t].w && oi4[t].y == i4[t].w && oi4[t].z == i4[t].z && oi4[t].w == i4[t].y;
        if (!ok && bad++ < 20) CHECK_MSG(0, "element %d differs", t);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
