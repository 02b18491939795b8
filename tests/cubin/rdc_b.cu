// rdc_b.cu - a second -rdc=true object: calls a device function and reads a variable that
// kall.cu defines, so nvlink resolves relocations across objects.
extern __device__ int f1(int x);
extern __device__ int gv;
__global__ void k_rdc(int *o) { o[threadIdx.x] = f1(o[threadIdx.x]) + gv; }
