"""CuPy (cupy-cuda13x): elementwise kernels, reductions, matmul through our cuBLAS, fancy
indexing, raw kernels, and examples/train_cupy.py, unmodified, on the NPU; results against
NumPy computed on the host."""
import os

import numpy as np

from conftest import ROOT, check, need, run_script

BASICS = """
import numpy as np
import cupy as cp
rng = np.random.default_rng(7)
a = rng.standard_normal((300, 200)).astype(np.float32)
b = rng.standard_normal((200, 150)).astype(np.float32)
da, db = cp.asarray(a), cp.asarray(b)

# elementwise (CuPy JIT: NVRTC -> PTX -> our driver)
np.testing.assert_allclose(cp.asnumpy(cp.exp(da) * 2 + cp.sin(da)), np.exp(a) * 2 + np.sin(a), rtol=1e-5, atol=1e-5)
np.testing.assert_allclose(cp.asnumpy(cp.maximum(da, 0.25)), np.maximum(a, 0.25))
i = rng.integers(-1000, 1000, 10007).astype(np.int64)
di = cp.asarray(i)
assert (cp.asnumpy(di // 7 + di % 5) == i // 7 + i % 5).all()

# reductions
np.testing.assert_allclose(float(da.sum()), a.astype(np.float64).sum(), rtol=1e-4)
np.testing.assert_allclose(cp.asnumpy(da.max(axis=0)), a.max(axis=0))
np.testing.assert_allclose(cp.asnumpy(da.mean(axis=1)), a.mean(axis=1), rtol=1e-5, atol=1e-6)
assert (cp.asnumpy(da.argmax(axis=1)) == a.argmax(axis=1)).all()
assert int(di.min()) == i.min() and int((di > 0).sum()) == (i > 0).sum()

# matmul through cuBLAS (sgemm / dgemm / batched)
np.testing.assert_allclose(cp.asnumpy(da @ db), a @ b, rtol=1e-4, atol=1e-4)
a64 = a.astype(np.float64)
np.testing.assert_allclose(cp.asnumpy(cp.asarray(a64).T @ cp.asarray(a64)), a64.T @ a64, rtol=1e-10)
bt = rng.standard_normal((4, 16, 8)).astype(np.float32)
ct = rng.standard_normal((4, 8, 5)).astype(np.float32)
np.testing.assert_allclose(cp.asnumpy(cp.matmul(cp.asarray(bt), cp.asarray(ct))), bt @ ct, rtol=1e-4, atol=1e-5)
v = rng.standard_normal(200).astype(np.float32)
np.testing.assert_allclose(cp.asnumpy(da @ cp.asarray(v)), a @ v, rtol=1e-4, atol=1e-4)

# fancy indexing: gather, scatter, boolean masks
rows = rng.integers(0, 300, 50)
cols = rng.integers(0, 200, 50)
np.testing.assert_array_equal(cp.asnumpy(da[cp.asarray(rows)]), a[rows])
np.testing.assert_array_equal(cp.asnumpy(da[cp.asarray(rows), cp.asarray(cols)]), a[rows, cols])
m = a > 1.0
np.testing.assert_array_equal(cp.asnumpy(da[cp.asarray(m)]), a[m])
e = a.copy(); e[rows, cols] = -5.0
de = da.copy(); de[cp.asarray(rows), cp.asarray(cols)] = -5.0
np.testing.assert_array_equal(cp.asnumpy(de), e)
s = np.zeros(10, np.float32); np.add.at(s, rows % 10, 1.0)
ds = cp.zeros(10, cp.float32); cp.add.at(ds, cp.asarray(rows % 10), 1.0)
np.testing.assert_array_equal(cp.asnumpy(ds), s)

# a user RawKernel and an ElementwiseKernel
k = cp.RawKernel(r'''
extern "C" __global__ void axpb(const float *x, float *y, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}''', 'axpb')
x = rng.standard_normal(5000).astype(np.float32)
y = cp.empty(5000, cp.float32)
k(((5000 + 127) // 128,), (128,), (cp.asarray(x), y, cp.float32(3), cp.float32(-1), cp.int32(5000)))
# NVRTC contracts a * x + b into one fused multiply-add (--fmad=true, on a GPU too): the
# reference is the exactly rounded 3x - 1 (exact in float64, then one rounding to float32).
np.testing.assert_array_equal(cp.asnumpy(y), (3.0 * x.astype(np.float64) - 1.0).astype(np.float32))
sq = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z', 'z = x * x + y', 'sqplus')
np.testing.assert_allclose(cp.asnumpy(sq(cp.asarray(x), cp.asarray(x))),
                           (x.astype(np.float64) ** 2 + x).astype(np.float32), rtol=1e-6, atol=1e-7)
cp.cuda.Device().synchronize()
print("OK")
"""


def test_elementwise_reductions_matmul_indexing(tmp_path):
    need("cupy")
    p = check(run_script(tmp_path, BASICS))
    assert "OK" in p.stdout


def test_bad_input_raises_cleanly(tmp_path):
    need("cupy")
    p = check(run_script(tmp_path, """
import cupy as cp
try:
    cp.RawKernel('extern "C" __global__ void k(int *p) { this does not compile }', 'k').compile()
except cp.cuda.compiler.CompileException:
    print("compile error ok")
a = cp.ones((3, 4))
try:
    a @ cp.ones((5, 6))
except ValueError:
    print("shape error ok")
try:
    cp.cuda.runtime.setDevice(99)
except cp.cuda.runtime.CUDARuntimeError as e:
    print("device error ok")
print("OK")
"""))
    assert p.stdout.count("ok") == 3 and "OK" in p.stdout


def test_train_cupy_example(tmp_path):
    need("cupy")
    script = os.path.join(ROOT, "examples", "train_cupy.py")
    out = tmp_path / "w.npz"
    p = check(run_script(tmp_path, open(script).read(), how="module",
                         args=["--epochs", "8", "--out", str(out), "--min-accuracy", "0.85"]))
    assert "test accuracy" in p.stdout
    # the saved weights classify held-out data on the host (NumPy forward pass)
    import sys
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    import train_cupy
    x, y = train_cupy.make_data(4096 + 2048, 0)
    w = np.load(out)
    params = [[w["w%d" % i], w["b%d" % i]] for i in range(3)]
    acc = train_cupy.accuracy(np, params, x[4096:], y[4096:])
    assert acc >= 0.85, acc


def test_random_through_curand(tmp_path):
    # cupy.random's RandomState generates with the cuRAND host API (our libcurand.so.10
    # drop-in: XORWOW by default, bit-exact with NVIDIA's generator, see tests/cuda/curand_host)
    need("cupy")
    p = check(run_script(tmp_path, """
import numpy as np
import cupy as cp
rs = cp.random.RandomState(1234)
u = cp.asnumpy(rs.rand(1 << 20))
assert u.min() > 0 and u.max() <= 1 and abs(u.mean() - 0.5) < 2e-3 and abs(u.var() - 1 / 12) < 1e-3
n = cp.asnumpy(cp.random.RandomState(7).normal(2.0, 3.0, 1 << 20))
assert abs(n.mean() - 2.0) < 0.02 and abs(n.std() - 3.0) < 0.02
a = cp.asnumpy(cp.random.RandomState(99).rand(1000))
b = cp.asnumpy(cp.random.RandomState(99).rand(1000))
assert (a == b).all()                        # same seed, same sequence
print("OK")
"""))
    assert "OK" in p.stdout


def test_partition_warp_synchronous(tmp_path):
    # cupy.partition / argpartition for n >= 16384 run CuPy's partition kernel, a bitonic
    # sort per warp in global memory with no barrier: it relies on a converged warp executing
    # in lockstep (ptx_lockstep.c). Checked against NumPy's definition of a partition.
    need("cupy")
    p = check(run_script(tmp_path, """
import numpy as np
import cupy as cp
rng = np.random.default_rng(3)
for n in (16384,):
    for dt in (np.float32, np.int64):
        a = (rng.standard_normal(n) * 1000).astype(dt)
        s = np.sort(a)
        for kth in (0, 100, n - 1):
            r = cp.asnumpy(cp.partition(cp.asarray(a), kth))
            assert r[kth] == s[kth], (n, dt, kth, r[kth], s[kth])
            assert (r[:kth] <= r[kth]).all() and (r[kth + 1:] >= r[kth]).all(), (n, dt, kth)
            assert (np.sort(r) == s).all(), (n, dt, kth)
        i = cp.asnumpy(cp.argpartition(cp.asarray(a), 100))
        assert a[i[100]] == s[100] and (a[i[:100]] <= s[100]).all() and sorted(i.tolist()) == list(range(n))
print("OK")
"""))
    assert "OK" in p.stdout
