"""cuda-python (NVIDIA's cuda.bindings): an NVRTC-compiled kernel launched through the driver
API, unmodified, on the NPU; results against NumPy; bad input through the bindings."""
from conftest import check, need, run_script

PRELUDE = """
import numpy as np
from cuda.bindings import driver, nvrtc

def chk(r):
    err = r[0]
    if isinstance(err, driver.CUresult) and err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"driver error {err}")
    if isinstance(err, nvrtc.nvrtcResult) and err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"nvrtc error {err}")
    return r[1:] if len(r) > 2 else (r[1] if len(r) == 2 else None)

def compile_ptx(src, name):
    dev = chk(driver.cuDeviceGet(0))
    A = driver.CUdevice_attribute
    major = chk(driver.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
    minor = chk(driver.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))
    prog = chk(nvrtc.nvrtcCreateProgram(src, name, 0, [], []))
    opts = [f"--gpu-architecture=compute_{major}{minor}".encode()]
    chk(nvrtc.nvrtcCompileProgram(prog, len(opts), opts))
    n = chk(nvrtc.nvrtcGetPTXSize(prog)); ptx = b" " * n
    chk(nvrtc.nvrtcGetPTX(prog, ptx))
    return ptx

chk(driver.cuInit(0))
ctx = chk(driver.cuDevicePrimaryCtxRetain(chk(driver.cuDeviceGet(0))))
chk(driver.cuCtxSetCurrent(ctx))
"""

SAXPY = PRELUDE + '''
src = b"""
extern "C" __global__ void saxpy(float a, const float *x, const float *y, float *out, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void block_max(const int *x, int *out, int n) {
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : -2147483647 - 1;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] = max(s[threadIdx.x], s[threadIdx.x + k]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicMax(out, s[0]);
}
"""
mod = chk(driver.cuModuleLoadData(compile_ptx(src, b"k.cu")))
saxpy = chk(driver.cuModuleGetFunction(mod, b"saxpy"))
bmax = chk(driver.cuModuleGetFunction(mod, b"block_max"))
rng = np.random.default_rng(1)
N = 100003
x = rng.random(N, dtype=np.float32); y = rng.random(N, dtype=np.float32)
out = np.zeros(N, np.float32)
nb = x.nbytes
dx, dy, do = (chk(driver.cuMemAlloc(nb)) for _ in range(3))
stream = chk(driver.cuStreamCreate(0))
chk(driver.cuMemcpyHtoDAsync(dx, x.ctypes.data, nb, stream))
chk(driver.cuMemcpyHtoDAsync(dy, y.ctypes.data, nb, stream))
args = [np.array([2.5], np.float32)] + [np.array([int(p)], np.uint64) for p in (dx, dy, do)] + \
       [np.array([N], np.uint64)]
argp = np.array([a.ctypes.data for a in args], dtype=np.uint64)
chk(driver.cuLaunchKernel(saxpy, (N + 255) // 256, 1, 1, 256, 1, 1, 0, stream, argp.ctypes.data, 0))
chk(driver.cuMemcpyDtoHAsync(out.ctypes.data, do, nb, stream))
chk(driver.cuStreamSynchronize(stream))
np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)

ix = rng.integers(-10**9, 10**9, N, dtype=np.int32)
dix = chk(driver.cuMemAlloc(ix.nbytes)); dm = chk(driver.cuMemAlloc(4))
chk(driver.cuMemcpyHtoD(dix, ix.ctypes.data, ix.nbytes))
chk(driver.cuMemsetD32(dm, 0x80000000, 1))
args = [np.array([int(dix)], np.uint64), np.array([int(dm)], np.uint64), np.array([N], np.int32)]
argp = np.array([a.ctypes.data for a in args], dtype=np.uint64)
chk(driver.cuLaunchKernel(bmax, (N + 255) // 256, 1, 1, 256, 1, 1, 0, 0, argp.ctypes.data, 0))
m = np.zeros(1, np.int32)
chk(driver.cuMemcpyDtoH(m.ctypes.data, dm, 4))
assert m[0] == ix.max(), (m[0], ix.max())
for p in (dx, dy, do, dix, dm):
    chk(driver.cuMemFree(p))
print("OK")
'''


def test_nvrtc_kernels_through_driver_api(tmp_path):
    need("cuda.bindings")
    p = check(run_script(tmp_path, SAXPY))
    assert "OK" in p.stdout


def test_bad_input_through_bindings(tmp_path):
    need("cuda.bindings")
    p = check(run_script(tmp_path, PRELUDE + '''
E = driver.CUresult
r = driver.cuModuleLoadData(b".version 8.0\\n.target sm_80\\n.address_size 64\\n this is not ptx ;\\n")
assert r[0] == E.CUDA_ERROR_INVALID_PTX, r[0]
r = driver.cuModuleLoadData(b"\\x7fELF not really a cubin" + b"\\0" * 64)
assert r[0] != E.CUDA_SUCCESS, r[0]
mod = chk(driver.cuModuleLoadData(compile_ptx(b'extern "C" __global__ void k(int *p) { *p = 1; }', b"k.cu")))
r = driver.cuModuleGetFunction(mod, b"no_such_kernel")
assert r[0] == E.CUDA_ERROR_NOT_FOUND, r[0]
r = driver.cuMemFree(12345)
assert r[0] != E.CUDA_SUCCESS, r[0]
r = driver.cuDeviceGet(99)
assert r[0] == E.CUDA_ERROR_INVALID_DEVICE, r[0]
print("OK")
'''))
    assert "OK" in p.stdout


def test_through_shell_launcher(tmp_path):
    need("cuda.bindings")
    p = check(run_script(tmp_path, SAXPY, how="launcher"))
    assert "OK" in p.stdout
