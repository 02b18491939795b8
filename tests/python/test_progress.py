"""The first-run progress line (npu_runtime/log.c, npu_progress): a run whose kernel
translation passes TRANSFER_TO_NPU_PROGRESS seconds says so on stderr when stderr is a
terminal, and never otherwise (a pipe, TRANSFER_TO_NPU_PROGRESS=0, TRANSFER_TO_NPU_LOG=error).
The program's own results are checked in every run, so the line never costs an answer."""
import os
import pty
import select
import subprocess
import sys
import textwrap

from conftest import ROOT, clean_env, need

SCRIPT = """
import transfer_to_npu
import numpy as np
import cupy as cp
k = cp.RawKernel(r'''
extern "C" __global__ void tweak(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 3.0f + 1.0f;
}''', 'tweak')
a = np.arange(1000, dtype=np.float32)
d = cp.asarray(a)
k((4,), (256,), (d, np.int32(1000)))
np.testing.assert_allclose(cp.asnumpy(d), a * 3 + 1)
print("RESULT-OK", flush=True)
"""


def _run(tmp_path, tty, **env_extra):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    cache = tmp_path / ("kcache-%d" % len(list(tmp_path.iterdir())))   # cold: every run compiles
    env = clean_env(TRANSFER_TO_NPU_CACHE=str(cache), **env_extra)
    if not tty:
        p = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                           text=True, timeout=600)
        return p.returncode, p.stdout + p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, str(script)], env=env, stdin=subprocess.DEVNULL,
                         stdout=slave, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        r, _, _ = select.select([master], [], [], 600)
        if not r:
            p.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:          # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(timeout=60), out.decode(errors="replace")


def test_progress_line_on_a_terminal(tmp_path):
    need("cupy")
    rc, out = _run(tmp_path, tty=True, TRANSFER_TO_NPU_PROGRESS="0.000001")
    assert rc == 0 and "RESULT-OK" in out, out[-4000:]
    assert "translating kernels for the NPU" in out and "cached for next runs" in out, out[-4000:]
    lines = out.replace("\r\n", "\n").split("\n")
    # whole lines only: the program's own output never shares a line with ours
    assert "RESULT-OK" in lines, out[-4000:]
    assert any(l.startswith("[transfer_to_npu] translated 1 kernels for the NPU in ") for l in lines), out[-4000:]
    assert "\r" not in out.replace("\r\n", ""), out[-4000:]


def test_progress_line_absent_below_threshold_and_when_off(tmp_path):
    need("cupy")
    for extra in ({"TRANSFER_TO_NPU_PROGRESS": "0"}, {"TRANSFER_TO_NPU_PROGRESS": "off"},
                  {"TRANSFER_TO_NPU_PROGRESS": "100000"},
                  {"TRANSFER_TO_NPU_PROGRESS": "0.000001", "TRANSFER_TO_NPU_LOG": "error"}):
        rc, out = _run(tmp_path, tty=True, **extra)
        assert rc == 0 and "RESULT-OK" in out, (extra, out[-4000:])
        assert "translating kernels" not in out, (extra, out[-4000:])


def test_progress_line_never_in_a_pipe(tmp_path):
    need("cupy")
    rc, out = _run(tmp_path, tty=False, TRANSFER_TO_NPU_PROGRESS="0.000001")
    assert rc == 0 and "RESULT-OK" in out, out[-4000:]
    assert "translating kernels" not in out and "\033[K" not in out, out[-4000:]


def test_progress_garbage_setting_keeps_the_default(tmp_path):
    """A value that is not a number nor off/no keeps the 2 s default: a small program
    (well under 2 s of compiling, cached libdevice aside) shows nothing and still runs."""
    need("cupy")
    rc, out = _run(tmp_path, tty=True, TRANSFER_TO_NPU_PROGRESS="banana")
    assert rc == 0 and "RESULT-OK" in out, out[-4000:]
