"""numba-cuda: @cuda.jit kernels (shared memory, a reduction, atomics, 2-D grids) compiled by
libnvvm to PTX and linked by our driver, unmodified, on the NPU; results against NumPy."""
from conftest import check, need, run_script

REDUCE = """
import numpy as np
from numba import cuda, float32, int32

TPB = 128

@cuda.jit
def block_sum(x, partial):
    sm = cuda.shared.array(TPB, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sm[tid] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = sm[0]

@cuda.jit
def histogram(x, bins):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(bins, x[i], 1)

@cuda.jit
def scale2d(a, out, f):
    r, c = cuda.grid(2)
    if r < a.shape[0] and c < a.shape[1]:
        out[r, c] = a[r, c] * f + r - c

rng = np.random.default_rng(3)
x = rng.random(200001).astype(np.float32)
nblocks = (x.size + TPB - 1) // TPB
partial = cuda.device_array(nblocks, dtype=np.float32)
block_sum[nblocks, TPB](cuda.to_device(x), partial)
p = partial.copy_to_host()
ref = x.reshape(-1)[: (nblocks - 1) * TPB].reshape(nblocks - 1, TPB).astype(np.float64).sum(axis=1)
np.testing.assert_allclose(p[:-1], ref, rtol=1e-5)
np.testing.assert_allclose(p.astype(np.float64).sum(), x.astype(np.float64).sum(), rtol=1e-5)

v = rng.integers(0, 16, 50000).astype(np.int32)
bins = cuda.to_device(np.zeros(16, np.int32))
histogram[(v.size + 255) // 256, 256](cuda.to_device(v), bins)
assert (bins.copy_to_host() == np.bincount(v, minlength=16)).all()

a = rng.random((70, 45)).astype(np.float64)
out = cuda.device_array_like(a)
scale2d[(5, 3), (16, 16)](cuda.to_device(a), out, 3.0)
r, c = np.indices(a.shape)
np.testing.assert_allclose(out.copy_to_host(), a * 3.0 + r - c)
cuda.synchronize()
print("OK")
"""


def test_jit_reduction_atomics_2d(tmp_path):
    need("numba.cuda")
    p = check(run_script(tmp_path, REDUCE))
    assert "OK" in p.stdout


def test_jit_via_python_module_launcher(tmp_path):
    need("numba.cuda")
    p = check(run_script(tmp_path, REDUCE.replace("import numpy", "import numpy", 1), how="module"))
    assert "OK" in p.stdout


def test_bad_launch_configuration(tmp_path):
    need("numba.cuda")
    p = check(run_script(tmp_path, """
import numpy as np
from numba import cuda
@cuda.jit
def k(a):
    a[cuda.grid(1)] = 1
d = cuda.to_device(np.zeros(4, np.int32))
try:
    k[1, 4096](d)          # more threads per block than the device allows
except Exception as e:
    print("raised", type(e).__name__)
else:
    raise AssertionError("no error for 4096 threads per block")
k[1, 4](d)
assert (d.copy_to_host() == 1).all()
print("OK")
"""))
    assert "OK" in p.stdout


def test_unmodified_script_under_shell_launcher(tmp_path):
    # The script never imports transfer_to_npu: transfer_to_npu/_site/sitecustomize.py does it
    # at start-up. (scripts/transfer-to-npu should put that folder on PYTHONPATH itself; until
    # it does, this test puts it there.)
    need("numba.cuda")
    import os
    from conftest import ROOT, clean_env
    env = clean_env(PYTHONPATH=os.path.join(ROOT, "transfer_to_npu", "_site"))
    p = check(run_script(tmp_path, REDUCE, how="launcher", env=env))
    assert "OK" in p.stdout
