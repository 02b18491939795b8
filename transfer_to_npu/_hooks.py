"""transfer_to_npu._hooks - settings GPU Python libraries read from module state, not from the
environment, applied as each module finishes importing (an import hook: nothing is imported
early, a script that never uses the library pays nothing).

nvJitLink, the toolkit's JIT linker, links PTX/LTO-IR into a cubin of SASS for one GPU
architecture: machine code the NPU cannot run (our driver loads PTX; it rejects a cubin
without PTX, CUDA_ERROR_NO_BINARY_FOR_GPU). On the NPU the device's own linker, the driver's
cuLink* API in our libcuda.so.1, is the one that produces loadable images, exactly as on a
GPU machine without nvJitLink. So for the libraries that pick a linker by asking "is nvJitLink
usable?" the bridge answers no:
  numba-cuda   numba.cuda.cudadrv.driver._have_nvjitlink -> False: no LTO-IR, kernels are
               compiled to PTX by libnvvm and linked by cuLink* (patched before
               numba.cuda.decorators copies the name).
  cuda.core    Linker backend -> the driver (cuLink*): _decide_nvjitlink_or_driver() -> True
               (cuda-core 0.5 .. 1.x) or _probe_nvjitlink() -> None (later releases).
  cupy         cupy.cuda.compiler._use_ptx = True when CuPy was imported before the bridge
               (it reads CUPY_COMPILE_WITH_PTX once, at import).
A library version without these names is left alone (logged with TRANSFER_TO_NPU_LOG=debug).
"""
import importlib.abc
import importlib.util
import os
import sys


def _debug(msg):
    lvl = (os.environ.get("TRANSFER_TO_NPU_LOG") or "").lower()
    if lvl == "debug":
        sys.stderr.write("[transfer_to_npu debug] %s\n" % msg)


def _patch_numba_driver(mod):
    if hasattr(mod, "_have_nvjitlink"):
        mod._have_nvjitlink = lambda: False
        _debug("numba-cuda: nvJitLink disabled (PTX linked by the driver)")


def _patch_cuda_core_linker(mod):
    done = False
    if hasattr(mod, "_decide_nvjitlink_or_driver"):
        mod._decide_nvjitlink_or_driver = lambda: True
        if getattr(mod, "_driver", 1) is None:
            try:
                from cuda.bindings import driver as _drv
                mod._driver = _drv
            except ImportError:
                pass
        done = True
    if hasattr(mod, "_probe_nvjitlink"):
        mod._probe_nvjitlink = lambda: None
        done = True
    _debug("cuda.core linker: %s" % ("driver cuLink*" if done else "unknown version, left alone"))


def _patch_cupy_compiler(mod):
    if hasattr(mod, "_use_ptx"):
        mod._use_ptx = True


_PATCHES = {
    "numba.cuda.cudadrv.driver": _patch_numba_driver,
    "numba.cuda.decorators": _patch_numba_driver,          # imported before the bridge
    "numba.cuda._internal.cuda_fp16": _patch_numba_driver,
    "numba.cuda.memory_management.nrt": _patch_numba_driver,
    "cuda.core._linker": _patch_cuda_core_linker,
    "cuda.core.cu12._linker": _patch_cuda_core_linker,
    "cuda.core.cu13._linker": _patch_cuda_core_linker,
    "cupy.cuda.compiler": _patch_cupy_compiler,
}


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, inner, patch):
        self._inner = inner
        self._patch = patch

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        self._inner.exec_module(module)
        try:
            self._patch(module)
        except Exception as e:  # a library change must never break the user's import
            _debug("patch of %s failed: %r" % (module.__name__, e))


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        patch = _PATCHES.get(fullname)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


def install():
    """Patches modules already imported and hooks the others (idempotent)."""
    for name, patch in _PATCHES.items():
        mod = sys.modules.get(name)
        if mod is not None:
            try:
                patch(mod)
            except Exception as e:
                _debug("patch of %s failed: %r" % (name, e))
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
