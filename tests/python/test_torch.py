"""PyPI's PyTorch (CUDA 13 build: GPU machine code only), unmodified, on the NPU: every kernel
runs through the SASS front end, GEMMs through our cuBLAS/cuBLASLt. The CPU is the oracle:
each script computes the same seeded thing on "cpu" and on "cuda" and compares. torch lives in
its own virtual environment (scripts/install-deps.sh); without it these tests skip.
The scripts are in tests/python/torch/."""
import os
import re
import shutil

import pytest

from conftest import ROOT, check, clean_env, run_script, torch_python

HERE = os.path.join(ROOT, "tests", "python", "torch")


def script(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


@pytest.mark.parametrize("which", ["mlp-sgd", "mlp-adamw", "block-adamw"])
def test_training_matches_cpu(tmp_path, which):
    """loss curves of SGD+momentum / AdamW+StepLR with clip_grad_norm_, step by step (1e-3);
    the MLP through `import transfer_to_npu`, the transformer block through the launcher"""
    py = torch_python()
    how = "import" if which.startswith("mlp") else "launcher"
    p = check(run_script(tmp_path, script("train_cmp.py"), how=how, args=[which], python=py))
    assert "worst rel" in p.stdout


def test_ops_battery(tmp_path):
    """120+ everyday tensor ops (math, reductions, softmax, matmul/bmm/einsum, indexing, sort/
    topk/unique, views, embedding, norms, pooling, interpolation, conv2d on ATen's kernels,
    scaled_dot_product_attention, integer ops, dtype casts) equal the CPU's"""
    py = torch_python()
    p = check(run_script(tmp_path, script("battery.py"), how="launcher", python=py))
    m = re.search(r"(\d+) of (\d+) ops match", p.stdout)
    assert m and int(m.group(1)) == int(m.group(2)) >= 80, p.stdout[-2000:]


def test_cuda_api_and_amp(tmp_path):
    """streams, events, allocator counters, pinned non_blocking copies, manual_seed, autocast
    fp16/bf16 with GradScaler"""
    py = torch_python()
    p = check(run_script(tmp_path, script("cuda_api.py"), how="import", python=py))
    assert "torch.cuda behaviour ok" in p.stdout


CUDNN = """
import torch, torch.nn.functional as F
x, w = torch.randn(2, 3, 12, 10), torch.randn(4, 3, 3, 3)
ref = F.conv2d(x, w, padding=1)
try:
    got = F.conv2d(x.cuda(), w.cuda(), padding=1).cpu()
except RuntimeError as e:
    print("cudnn failed:", str(e).splitlines()[0])
else:
    assert torch.allclose(got, ref, rtol=1e-3, atol=1e-3), (got - ref).abs().max()
    print("cudnn conv matches the CPU")
torch.backends.cudnn.enabled = False
got = F.conv2d(x.cuda(), w.cuda(), padding=1).cpu()
assert torch.allclose(got, ref, rtol=1e-3, atol=1e-3)
print("aten conv matches the CPU")
"""


def test_cudnn_is_right_or_named(tmp_path):
    """cuDNN (NVIDIA's real library from the wheel) either gives the CPU's convolution or fails
    loudly, and then the log and the migration report name what it asked for and the switch
    (torch.backends.cudnn.enabled = False) that runs convolutions on ATen's kernels"""
    py = torch_python()
    rep = tmp_path / "report"
    rep.mkdir()
    p = check(run_script(tmp_path, CUDNN, how="launcher", python=py,
                         env=clean_env(TRANSFER_TO_NPU_REPORT=str(rep))))
    assert "aten conv matches the CPU" in p.stdout
    if "cudnn failed" in p.stdout:
        assert "cudnn.enabled = False" in p.stderr, p.stderr[-3000:]
        csv = (rep / "transfer_to_npu_report.unsupported.csv").read_text()
        assert re.search(r'"cuGetExportTable \{[0-9a-f-]+\} \(libcudnn[^)]*\)"', csv), csv
        assert "torch.backends.cudnn.enabled = False" in csv


def test_example_trains_and_saves(tmp_path):
    """examples/train_torch.py through the launcher: the loss falls, the test accuracy is high,
    and the saved state_dict, loaded on the CPU (no NPU), gives the same accuracy"""
    py = torch_python()
    shutil.copy(os.path.join(ROOT, "examples", "train_torch.py"), tmp_path / "train_torch.py")
    w = tmp_path / "w.pt"
    p = check(run_script(tmp_path, script_text(os.path.join(ROOT, "examples", "train_torch.py")),
                         how="launcher", args=[str(w)], python=py))
    losses = [float(x) for x in re.findall(r"epoch +\d+ +loss ([0-9.]+)", p.stdout)]
    acc = float(re.search(r"test accuracy ([0-9.]+)%", p.stdout).group(1))
    assert len(losses) == 12 and losses[-1] < 0.5 * losses[0] and acc > 85.0, p.stdout
    cpu = """
import sys, torch
sys.path.insert(0, %r)
from train_torch import spirals
gen = torch.Generator().manual_seed(0)
spirals(4096, 4, gen)
xte, yte = spirals(1024, 4, gen)
model = torch.nn.Sequential(torch.nn.Linear(2, 128), torch.nn.GELU(), torch.nn.Linear(128, 128),
                            torch.nn.GELU(), torch.nn.Linear(128, 4))
model.load_state_dict(torch.load(%r, map_location="cpu"))
with torch.no_grad():
    print("cpu accuracy %%.2f%%%%" %% ((model(xte).argmax(1) == yte).float().mean().item() * 100))
""" % (str(tmp_path), str(w))
    q = check(run_script(tmp_path, cpu, how="plain", python=py, env=clean_env(CUDA_VISIBLE_DEVICES="")))
    cacc = float(re.search(r"cpu accuracy ([0-9.]+)%", q.stdout).group(1))
    assert abs(cacc - acc) <= 0.1, (acc, cacc)


def script_text(path):
    with open(path) as f:
        return f.read()
