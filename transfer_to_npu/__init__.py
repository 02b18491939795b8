"""transfer_to_npu - run an unmodified GPU Python script on the emulated NPU.

Make it the first import of a script::

    import transfer_to_npu      # the rest of the script runs on the NPU
    import cupy as cp

or start the script through the launcher, from Python or from the shell::

    python3 -m transfer_to_npu train.py args...
    transfer-to-npu python3 train.py args...

What the import does, in order:

1. Sets what GPU Python libraries need on a device that runs PTX, not SASS (only variables the
   user has not set): CUPY_COMPILE_WITH_PTX=1 (CuPy asks NVRTC for PTX instead of a cubin),
   CUDA_HOME/CUDA_PATH (the toolkit whose NVRTC/libnvvm/libdevice CuPy, numba-cuda and
   cuda-pathfinder use), NUMBA_CUDA_DRIVER (numba's ctypes binding opens our libcuda.so.1).
2. Loads the runtime before any CUDA library binds: when the process was not started by the
   launcher and no CUDA library is mapped yet, it opens libtransfer_to_npu.so and then the
   drop-ins (libcudart/libcuda/libcublas(Lt)/libcurand with the real sonames) by full path
   with RTLD_GLOBAL. glibc matches a later dlopen("libcuda.so.1") or a DT_NEEDED entry by
   soname against objects already loaded, so every later CUDA library load finds ours
   (cuda-pathfinder checks loaded sonames with RTLD_NOLOAD first, too). It also exports
   LD_PRELOAD/LD_LIBRARY_PATH so child processes (multiprocessing workers) run on the NPU.
3. When it is too late - a real CUDA library is already mapped, or CuPy/numba-cuda were
   imported first (they read their configuration at import) - it re-executes the interpreter
   under the launcher with the same command line and prints one line saying so.

TRANSFER_TO_NPU_NO_REEXEC=1 turns step 3 into a warning (for embedding interpreters).
`transfer_to_npu.npu` offers torch.cuda-like helpers (device_count, memory statistics ...).
"""
import os
import sys

__all__ = ["npu", "library_path", "library_dir", "loaded", "version"]

# Libraries we replace. A real copy of one of these mapped before us means "too late".
_REPLACED = ("libcudart.so", "libcuda.so", "libcublas.so", "libcublasLt.so", "libcurand.so")
# Modules that read their CUDA configuration when imported.
_EARLY_MODULES = ("cupy", "cupy_backends", "numba.cuda")
_MAIN = "libtransfer_to_npu.so"
# Load order: the runtime first, then each drop-in (each finds the runtime by soname).
_DROPINS = ("libcuda.so.1", "libcudart.so.13", "libcudart.so.12", "libcublasLt.so.13",
            "libcublas.so.13", "libcublasLt.so.12", "libcublas.so.12", "libcurand.so.10")

_state = {"libdir": None, "how": None}


def _msg(text):
    sys.stderr.write("[transfer_to_npu] %s\n" % text)
    sys.stderr.flush()


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def _candidate_libdirs():
    env = os.environ.get("TRANSFER_TO_NPU_LIBDIR")
    if env:
        yield env
    pkg = _package_dir()
    # installed: PREFIX/share/transfer_to_npu/python/transfer_to_npu -> PREFIX/lib/transfer_to_npu
    prefix = os.path.normpath(os.path.join(pkg, "..", "..", "..", ".."))
    yield os.path.join(prefix, "lib", "transfer_to_npu")
    # source tree: ROOT/transfer_to_npu -> ROOT/build/lib
    yield os.path.join(os.path.dirname(pkg), "build", "lib")


def library_dir():
    """Folder holding libtransfer_to_npu.so and the drop-ins, or None when not built."""
    if _state["libdir"]:
        return _state["libdir"]
    for d in _candidate_libdirs():
        if os.path.isfile(os.path.join(d, _MAIN)):
            return os.path.abspath(d)
    return None


def library_path():
    d = library_dir()
    return os.path.join(d, _MAIN) if d else None


def _launcher():
    pkg = _package_dir()
    for p in (os.path.join(os.path.dirname(pkg), "scripts", "transfer-to-npu"),
              os.path.join(os.path.normpath(os.path.join(pkg, "..", "..", "..", "..")),
                           "bin", "transfer-to-npu")):
        if os.path.isfile(p):
            return p
    return None


def _mapped_objects():
    """Paths of the shared objects mapped into this process."""
    paths = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6 and parts[5].startswith("/"):
                    paths.add(parts[5].strip())
    except OSError:
        pass
    return paths


def _foreign_cuda_libs(libdir):
    """Real CUDA libraries (not ours) already mapped."""
    ours = os.path.realpath(libdir) if libdir else None
    out = []
    for p in _mapped_objects():
        base = os.path.basename(p)
        if not base.startswith(_REPLACED):
            continue
        if ours and os.path.dirname(os.path.realpath(p)) == ours:
            continue
        out.append(p)
    return sorted(out)


def _early_modules():
    return sorted(m for m in _EARLY_MODULES if m in sys.modules)


def _set_default(name, value):
    if value is not None and not os.environ.get(name):
        os.environ[name] = value


def _configure_environment(libdir):
    cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not cuda and os.path.isdir("/usr/local/cuda"):
        cuda = "/usr/local/cuda"
    _set_default("CUDA_HOME", cuda)
    _set_default("CUDA_PATH", cuda)
    # CuPy: NVRTC output as PTX (default is a cubin for the device's sm_XX: SASS we cannot run).
    _set_default("CUPY_COMPILE_WITH_PTX", "1")
    if libdir:
        # numba's ctypes driver binding (NUMBA_CUDA_USE_NVIDIA_BINDING=0) opens this file.
        _set_default("NUMBA_CUDA_DRIVER", os.path.join(libdir, "libcuda.so.1"))


def _export_for_children(libdir):
    main = os.path.join(libdir, _MAIN)
    pre = os.environ.get("LD_PRELOAD", "")
    if main not in pre.split(":"):
        os.environ["LD_PRELOAD"] = main + (":" + pre if pre else "")
    llp = os.environ.get("LD_LIBRARY_PATH", "")
    if libdir not in llp.split(":"):
        os.environ["LD_LIBRARY_PATH"] = libdir + (":" + llp if llp else "")
    # child interpreters import the bridge at start-up (_site/sitecustomize.py)
    root = os.path.dirname(_package_dir())
    site = os.path.join(_package_dir(), "_site")
    pp = [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
    for d in (site, root):
        if d not in pp and os.path.isdir(d):
            pp.insert(0, d)
    os.environ["PYTHONPATH"] = ":".join(pp)
    os.environ["TRANSFER_TO_NPU_LAUNCHED"] = "1"


def _load_in_process(libdir):
    import ctypes
    mode = os.RTLD_NOW | os.RTLD_GLOBAL
    ctypes.CDLL(os.path.join(libdir, _MAIN), mode=mode)
    for so in _DROPINS:
        p = os.path.join(libdir, so)
        if os.path.isfile(p):
            ctypes.CDLL(p, mode=mode)


def _reexec(libdir, why):
    argv = list(getattr(sys, "orig_argv", None) or [sys.executable] + sys.argv)
    if not argv or not argv[0]:
        argv = [sys.executable] + sys.argv
    exe = sys.executable or argv[0]
    launcher = _launcher()
    _msg("%s: re-running this interpreter under the launcher (make `import transfer_to_npu` "
         "the first import, or start it with `python3 -m transfer_to_npu`)" % why)
    sys.stdout.flush()
    sys.stderr.flush()
    env = dict(os.environ)
    env["TRANSFER_TO_NPU_LIBDIR"] = libdir
    if launcher:
        os.execve("/bin/sh", ["/bin/sh", launcher, exe] + argv[1:], env)
    _export_for_children(libdir)
    os.execve(exe, [exe] + argv[1:], dict(os.environ))


def _bootstrap():
    libdir = library_dir()
    _state["libdir"] = libdir
    _configure_environment(libdir)
    from . import _hooks
    _hooks.install()
    if libdir is None:
        _msg("cannot find %s: build it with `make` in the transfer_to_npu source tree, or set "
             "TRANSFER_TO_NPU_LIBDIR to the folder holding it" % _MAIN)
        _state["how"] = "missing"
        return
    libdir_real = os.path.realpath(libdir)
    mapped = _mapped_objects()
    ours_mapped = any(os.path.basename(p) == _MAIN for p in mapped)
    if os.environ.get("TRANSFER_TO_NPU_LAUNCHED") == "1" and ours_mapped:
        _state["how"] = "launcher"
        return
    foreign = _foreign_cuda_libs(libdir_real)
    early = [] if ours_mapped else _early_modules()
    if foreign or early:
        why = ("a real CUDA library is already loaded (%s)" % ", ".join(foreign) if foreign else
               "%s was imported before transfer_to_npu" % ", ".join(early))
        if os.environ.get("TRANSFER_TO_NPU_LAUNCHED") == "1" or \
                os.environ.get("TRANSFER_TO_NPU_NO_REEXEC") == "1" or \
                not (getattr(sys, "orig_argv", None) or sys.argv[0]):
            _msg("%s: CUDA calls bound before this import may not reach the NPU" % why)
        else:
            _reexec(libdir, why)
    _load_in_process(libdir)
    _export_for_children(libdir)
    _state["how"] = "preloaded" if ours_mapped else "loaded"


def loaded():
    """How the runtime got into this process: 'launcher', 'preloaded', 'loaded' (by this
    import) or 'missing'."""
    return _state["how"]


def version():
    from . import npu as _npu
    return _npu.library_version()


_bootstrap()

from . import npu  # noqa: E402  (after the runtime is loaded)
