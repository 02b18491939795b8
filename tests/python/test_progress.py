"""The first-run progress line (npu_runtime/log.c, npu_progress): a run whose kernel
translation passes TRANSFER_TO_NPU_PROGRESS seconds says so on stderr when stderr is a
terminal, and never otherwise (a pipe, TRANSFER_TO_NPU_PROGRESS=0, TRANSFER_TO_NPU_LOG=error).
The program's own results are checked in every run, so the line never costs an answer."""
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
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
k2 = cp.RawKernel(r'''
extern "C" __global__ void halve(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 0.5f;
}''', 'halve')
a = np.arange(1000, dtype=np.float32)
d = cp.asarray(a)
k((4,), (256,), (d, np.int32(1000)))
print("FIRST-OK", flush=True)
k2((4,), (256,), (d, np.int32(1000)))
np.testing.assert_allclose(cp.asnumpy(d), (a * 3 + 1) * 0.5)
print("RESULT-OK", flush=True)
"""


def _run(tmp_path, tty, cols=200, **env_extra):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    cache = tmp_path / ("kcache-%d" % len(list(tmp_path.iterdir())))   # cold: every run compiles
    env = clean_env(TRANSFER_TO_NPU_CACHE=str(cache), **env_extra)
    if not tty:
        p = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                           text=True, timeout=600)
        return p.returncode, p.stdout + p.stderr
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
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


def render(out):
    """What a terminal shows for out: "\\r" returns to column 0, ESC[K erases to the end."""
    lines = []
    for raw in out.replace("\r\n", "\n").split("\n"):
        line, col, i = [], 0, 0
        while i < len(raw):
            if raw[i] == "\r":
                col = 0
            elif raw.startswith("\033[K", i):
                del line[col:]
                i += 3
                continue
            else:
                if col < len(line):
                    line[col] = raw[i]
                else:
                    line.append(raw[i])
                col += 1
            i += 1
        lines.append("".join(line))
    return lines


def test_progress_line_on_a_terminal(tmp_path):
    need("cupy")
    rc, out = _run(tmp_path, tty=True, TRANSFER_TO_NPU_PROGRESS="0.000001")
    assert rc == 0 and "RESULT-OK" in out, out[-4000:]
    # the second compile is past the threshold: an in-place line while it runs ...
    assert "\r\033[K[transfer_to_npu] translating kernels for the NPU (first run, cached for next runs): 1 done" in out, out[-4000:]
    assert ", now halve" in out, out[-4000:]
    # ... erased before the program goes on: what the terminal shows is the program's own
    # lines, each whole, and the summary line at exit
    shown = render(out)
    assert "FIRST-OK" in shown and "RESULT-OK" in shown, shown
    assert not any("translating kernels" in l for l in shown), shown
    assert any(l.startswith("[transfer_to_npu] translated 2 kernels for the NPU in ") for l in shown), shown


def test_progress_line_fits_a_narrow_terminal(tmp_path):
    """An in-place line that wraps cannot be erased: it is cut to the terminal's width."""
    need("cupy")
    rc, out = _run(tmp_path, tty=True, cols=50, TRANSFER_TO_NPU_PROGRESS="0.000001")
    assert rc == 0 and "RESULT-OK" in out, out[-4000:]
    parts = [p for p in out.split("\r\033[K") if p.startswith("[transfer_to_npu] translating")]
    assert parts and all(len(p.split("\r")[0]) <= 49 for p in parts), parts
    assert not any("translating kernels" in l for l in render(out)), render(out)


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
