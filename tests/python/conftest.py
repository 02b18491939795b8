"""Shared helpers for the Python tier: every library test runs its script in a fresh
interpreter (a subprocess with a timeout), either with `import transfer_to_npu` as the
script's first line, through `python3 -m transfer_to_npu`, or through the shell launcher.
The terminal summary prints one `PASS name` / `FAIL name` / `SKIP name: reason` line per test
for tests/run.sh."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBDIR = os.path.join(ROOT, "build", "lib")
LAUNCHER = os.path.join(ROOT, "scripts", "transfer-to-npu")
TIMEOUT = int(os.environ.get("TTN_PY_TIMEOUT", "600"))
# TTN_NATIVE_GPU=1 (scripts/gpu_diff.sh, on a machine with a real NVIDIA GPU): every script runs
# plain, without the bridge, so the tests' expectations are checked against the real CUDA stack.
NATIVE = os.environ.get("TTN_NATIVE_GPU") == "1"


def clean_env(**extra):
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "TRANSFER_TO_NPU_LAUNCHED", "CUPY_COMPILE_WITH_PTX"):
        env.pop(k, None)
    env["PYTHONPATH"] = ROOT
    env.setdefault("TRANSFER_TO_NPU_CACHE", os.path.join(ROOT, "build", "kcache"))
    env.update(extra)
    return env


def torch_python():
    """The interpreter of the PyTorch virtual environment scripts/install-deps.sh makes (PyPI's
    torch and NVIDIA's wheels kept out of the interpreter the other tests use); skips when it
    has no torch."""
    venv = os.environ.get("TRANSFER_TO_NPU_TORCH_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "transfer_to_npu", "torch-venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.isfile(py) or subprocess.run([py, "-c", "import torch"], capture_output=True).returncode:
        pytest.skip("torch is not installed in %s (scripts/install-deps.sh installs it)" % venv)
    return py


def run_script(tmp_path, code, how="import", args=(), env=None, timeout=TIMEOUT, python=None):
    """Writes code to a script and runs it. how: 'import' (prepends `import transfer_to_npu`),
    'plain' (as is), 'module' (python3 -m transfer_to_npu), 'launcher' (scripts/transfer-to-npu).
    python: the interpreter (default: this one)."""
    code = textwrap.dedent(code)
    if NATIVE:
        how = "plain"
    if how == "import":
        code = "import transfer_to_npu\n" + code
    script = tmp_path / "script.py"
    script.write_text(code)
    py = python or sys.executable
    if how in ("import", "plain"):
        cmd = [py, str(script)]
    elif how == "module":
        cmd = [py, "-m", "transfer_to_npu", str(script)]
    elif how == "launcher":
        cmd = ["bash", LAUNCHER, py, str(script)]
    else:
        raise ValueError(how)
    cmd += list(args)
    p = subprocess.run(cmd, cwd=str(tmp_path), env=env or clean_env(), capture_output=True,
                       text=True, timeout=timeout)
    return p


def check(p):
    """Asserts exit 0, showing the script's output otherwise."""
    assert p.returncode == 0, "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (
        p.returncode, p.stdout[-4000:], p.stderr[-6000:])
    return p


def need(module):
    """Skips (with the reason printed) when a package is not installed."""
    import importlib.util
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        pytest.skip("%s is not installed (scripts/install-deps.sh installs it)" % module)


@pytest.fixture(autouse=True, scope="session")
def _library_built():
    if NATIVE:
        return
    if not os.path.isfile(os.path.join(LIBDIR, "libtransfer_to_npu.so")):
        pytest.exit("build/lib/libtransfer_to_npu.so is missing: run `make` first", returncode=2)


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    tr.write_line("")
    seen = set()
    for key, verdict in (("failed", "FAIL"), ("error", "FAIL"), ("passed", "PASS"),
                         ("skipped", "SKIP")):
        for rep in tr.stats.get(key, []):
            nodeid = getattr(rep, "nodeid", "")
            if not nodeid or nodeid in seen:
                continue
            seen.add(nodeid)
            name = nodeid.split("/")[-1].replace(".py::", "::")
            if verdict == "SKIP":
                reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
                tr.write_line("SKIP %s: %s" % (name, reason))
            else:
                tr.write_line("%s %s" % (verdict, name))
