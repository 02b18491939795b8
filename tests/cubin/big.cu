// big.cu - parameter blocks around the 4 KB line: up to 0x1100 bytes KPARAM_INFO at the usual
// window; beyond (CUDA 12.1 large kernel parameters, up to 32764 bytes) KPARAM_INFO_V2
// and, before sm_90, a window moved to c[0x0][0x1a80].
struct B4 { float v[1020]; };
struct B8 { float v[2048]; };
struct B30 { float v[7600]; };
__global__ void k4(B4 b, float *o) { o[threadIdx.x] = b.v[threadIdx.x]; }
__global__ void k4b(B4 b, double x, float *o) { o[threadIdx.x] = b.v[threadIdx.x] + x; }
__global__ void k8(B8 b, float *o) { o[threadIdx.x] = b.v[threadIdx.x]; }
__global__ void k30(B30 b, float *o, int n) { o[threadIdx.x] = b.v[threadIdx.x] + n; }
struct B4352 { float v[1088]; };
struct B4356 { float v[1089]; };
__global__ void k4352(B4352 b) { }      // the largest block that keeps KPARAM_INFO (0x1100)
__global__ void k4356(B4356 b) { }      // the smallest that gets KPARAM_INFO_V2
