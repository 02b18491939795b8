// Virtual functions on the device: objects made in one kernel and called through their vtables
// in later kernels (vtables are module .global data initialised with function addresses, which
// the calling kernel never names). Abstract base with pure virtuals, two levels of overrides,
// a base-qualified call (Shape::describe), virtual destructors run by delete through a base
// pointer (they count into a device counter), objects from device `new` and from placement new
// into cudaMalloc'd memory, and a plain function pointer stored to a __device__ variable by one
// kernel and called by another. Results are compared with the same classes run on the host.
#include "k_util.h"
#include <new>

__device__ int d_destroyed;

struct Shape {
    int id;
    __host__ __device__ Shape(int i) : id(i) {}
    __host__ __device__ virtual ~Shape() {}
    __host__ __device__ virtual float area() const = 0;
    __host__ __device__ virtual int sides() const = 0;
    __host__ __device__ virtual float describe() const { return area() * 10.0f + (float)sides(); }
};
struct Rect : Shape {
    float w, h;
    __host__ __device__ Rect(int i, float a, float b) : Shape(i), w(a), h(b) {}
    __host__ __device__ ~Rect() override {
#ifdef __CUDA_ARCH__
        atomicAdd(&d_destroyed, 1);
#endif
    }
    __host__ __device__ float area() const override { return w * h; }
    __host__ __device__ int sides() const override { return 4; }
};
struct Square : Rect {
    __host__ __device__ Square(int i, float a) : Rect(i, a, a) {}
    __host__ __device__ ~Square() override {
#ifdef __CUDA_ARCH__
        atomicAdd(&d_destroyed, 100);
#endif
    }
    __host__ __device__ float describe() const override { return Shape::describe() + 0.5f; }   /* base-qualified */
};
struct Tri : Shape {
    float b, h;
    __host__ __device__ Tri(int i, float x, float y) : Shape(i), b(x), h(y) {}
    __host__ __device__ float area() const override { return 0.5f * b * h; }
    __host__ __device__ int sides() const override { return 3; }
};

__host__ __device__ static Shape *make(int i, void *where)
{
    float a = (float)(i % 7) + 0.25f, b = (float)(i % 5) + 1.0f;
    switch (i % 3) {
    case 0: return where ? new (where) Rect(i, a, b) : new Rect(i, a, b);
    case 1: return where ? new (where) Square(i, a) : new Square(i, a);
    default: return where ? new (where) Tri(i, a, b) : new Tri(i, a, b);
    }
}

__global__ void create(Shape **objs, int n, char *arena, size_t slot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) objs[i] = make(i, (i & 1) ? arena + i * slot : nullptr);   /* odd: placement new */
}
__global__ void use(Shape *const *objs, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { const Shape *s = objs[i]; out[3 * i] = s->area(); out[3 * i + 1] = (float)s->sides(); out[3 * i + 2] = s->describe(); }
}
__global__ void destroy(Shape **objs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { if (i & 1) objs[i]->~Shape(); else delete objs[i]; objs[i] = nullptr; }
}

typedef int (*op_t)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mulsub(int a, int b) { return a * b - 1; }
__device__ op_t d_ops[2];
__global__ void set_ops(int which) { d_ops[0] = which ? op_mulsub : op_add; d_ops[1] = which ? op_add : op_mulsub; }
__global__ void call_ops(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = d_ops[i & 1](in[i], i);
}

int main(void)
{
    const int n = 300;
    const size_t slot = 64;
    Shape **objs; char *arena; float *dout;
    CK(cudaMalloc(&objs, n * sizeof(Shape *)));
    CK(cudaMalloc(&arena, n * slot));
    CK(cudaMalloc(&dout, 3 * n * sizeof(float)));
    int zero = 0;
    CK(cudaMemcpyToSymbol(d_destroyed, &zero, sizeof zero));
    create<<<(n + 63) / 64, 64>>>(objs, n, arena, slot);
    k_sync_ok("create");
    use<<<(n + 127) / 128, 128>>>(objs, n, dout);
    k_sync_ok("use");
    float got[3 * n];
    k_get(got, dout, 3 * n);
    int want_destroyed = 0;
    for (int i = 0; i < n; i++) {
        alignas(16) char buf[64];
        Shape *h = make(i, buf);
        CHECK_MSG(got[3 * i] == h->area() && got[3 * i + 1] == (float)h->sides() && got[3 * i + 2] == h->describe(),
                  "object %d: got %g %g %g want %g %d %g", i, got[3 * i], got[3 * i + 1], got[3 * i + 2], h->area(), h->sides(), h->describe());
        want_destroyed += (i % 3) == 0 ? 1 : (i % 3) == 1 ? 101 : 0;
    }
    destroy<<<(n + 63) / 64, 64>>>(objs, n);
    k_sync_ok("destroy");
    int destroyed = -1;
    CK(cudaMemcpyFromSymbol(&destroyed, d_destroyed, sizeof destroyed));
    CHECK_EQ(destroyed, want_destroyed);

    int hin[n], hout[n];
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 1000);
    int *din = k_dup(hin, n), *dres = k_dnew<int>(n);
    for (int which = 0; which < 2; which++) {
        set_ops<<<1, 1>>>(which);
        call_ops<<<(n + 127) / 128, 128>>>(din, dres, n);
        k_sync_ok("call_ops");
        k_get(hout, dres, n);
        for (int i = 0; i < n; i++) {
            int sel = (i & 1) ^ which;
            int e = sel ? hin[i] * i - 1 : hin[i] + i;
            CHECK_MSG(hout[i] == e, "fnptr which %d i %d: got %d want %d", which, i, hout[i], e);
        }
    }
    return CHECK_DONE();
}
