#!/usr/bin/env python3
"""bench_torch.py - PyTorch training steps on the NPU against the same steps on CPU PyTorch,
measured alternately in one process, side by side.

  BENCH torch_mlp_steps: steps/s of examples/train_torch.py's MLP (2-128-128-4, batch 256,
      AdamW, clip_grad_norm_) with device="cuda" on the NPU against device="cpu" with as many
      torch threads as we have block workers; blocks of STEPS (200) steps alternate (cpu, npu, cpu,
      npu ...) and the ratio is the median of the per-pair ratios (this 2-vCPU guest has
      throttled phases that last minutes).
  BENCH torch_first_run: the first 3 NPU steps with an empty kernel cache against the same
      steps with the cache warm: what translating the kernels costs a user once.
The NPU side runs in a child started with `python -m transfer_to_npu` that runs one block
when asked; the CPU side runs here between them (in one process the two sides' spinning
threads took each other's 2 vCPUs: CPU torch measured 160..800 steps/s run to run). Needs torch: this
script re-executes itself with the interpreter of scripts/install-deps.sh's torch venv when
the current one has no torch, and says so and exits 0 when there is none.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS, STEPS = 7, 200


def venv_python():
    venv = os.environ.get("TRANSFER_TO_NPU_TORCH_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "transfer_to_npu", "torch-venv")
    return os.path.join(venv, "bin", "python")


def setup(dev):
    import torch
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    from train_torch import spirals
    gen = torch.Generator().manual_seed(0)
    x, y = spirals(4096, 4, gen)
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(2, 128), torch.nn.GELU(), torch.nn.Linear(128, 128),
                            torch.nn.GELU(), torch.nn.Linear(128, 4)).to(dev)
    return m, torch.optim.AdamW(m.parameters(), lr=3e-3), x.to(dev), y.to(dev), dev


def steps(state, n):
    import torch
    import torch.nn.functional as F
    m, opt, xs, ys, dev = state
    t = time.perf_counter()
    for i in range(n):
        j = (i * 256) % 4096
        loss = F.cross_entropy(m(xs[j:j + 256]), ys[j:j + 256])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()
    loss.item()                                   # the last step's result reaches the host
    if dev == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - t


def child():
    """the NPU side: 3 first steps, then one block of STEPS per line read from stdin"""
    npu = setup("cuda")
    print("FIRST %r" % steps(npu, 3), flush=True)
    for line in sys.stdin:
        if line.strip() != "go":
            break
        print("BLOCK %r" % steps(npu, STEPS), flush=True)


class Child:
    def __init__(self, cache):
        env = dict(os.environ, TRANSFER_TO_NPU_CACHE=cache, PYTHONPATH=ROOT)
        env.pop("LD_PRELOAD", None)
        self.p = subprocess.Popen([sys.executable, "-m", "transfer_to_npu", os.path.abspath(__file__), "--child"],
                                  env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.first = self.read("FIRST")

    def read(self, tag):
        for line in self.p.stdout:
            if line.startswith(tag + " "):
                return float(line.split()[1])
        self.p.wait()
        raise SystemExit("bench_torch: the NPU child failed (exit %s)" % self.p.returncode)

    def block(self):
        self.p.stdin.write("go\n")
        self.p.stdin.flush()
        return self.read("BLOCK")

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main():
    if "--child" in sys.argv:
        return child()
    try:
        import torch  # noqa: F401
    except ImportError:
        py = venv_python()
        venv = os.path.dirname(os.path.dirname(py))
        if os.path.isfile(py) and os.path.realpath(sys.prefix) != os.path.realpath(venv):
            os.execv(py, [py, os.path.abspath(__file__)] + sys.argv[1:])
        print("bench_torch: skipped: no torch here nor in %s (scripts/install-deps.sh installs it)" % py)
        return 0
    import torch
    torch.set_num_threads(int(os.environ.get("TRANSFER_TO_NPU_THREADS") or os.cpu_count()))
    with tempfile.TemporaryDirectory(prefix="ttn-bench-torch-") as cache:
        t = time.time()
        cold = Child(cache)                          # empty kernel cache: translates everything
        cold_wall = time.time() - t
        cold.close()
        npu = Child(cache)                           # the same kernels, cached
        cpu = setup("cpu")
        steps(cpu, 3)
        pairs = []
        for _ in range(PAIRS):
            tc = steps(cpu, STEPS)
            tn = npu.block()
            pairs.append((STEPS / tc, STEPS / tn))
        npu.close()
    ratios = [n / c for c, n in pairs]
    cpu_sps = statistics.median(c for c, _ in pairs)
    npu_sps = statistics.median(n for _, n in pairs)
    print("BENCH torch_mlp_steps: npu %.1f steps/s, cpu torch %.1f steps/s (%d threads), ratio npu/cpu %.3f "
          "(median of %d pairs of %d steps; pairs %s)"
          % (npu_sps, cpu_sps, torch.get_num_threads(), statistics.median(ratios), len(ratios), STEPS,
             " ".join("%.3f" % r for r in ratios)))
    print("BENCH torch_first_run: first 3 npu steps %.2f s with an empty kernel cache, %.3f s cached "
          "(translation ~%.1f s; cold child start to first steps done %.1f s)"
          % (cold.first, npu.first, cold.first - npu.first, cold_wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
