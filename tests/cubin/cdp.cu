// cdp.cu - dynamic parallelism: the parent calls the CDP entry points (externs of the -rdc
// object), nvlink with libcudadevrt brings the device runtime's own kernels and functions.
__global__ void child(int *o) { o[threadIdx.x] += 1; }
__global__ void parent(int *o) { if (threadIdx.x == 0) child<<<1, 32>>>(o); }
