"""sitecustomize for interpreters started by the shell launcher (scripts/transfer-to-npu puts
this folder on PYTHONPATH): imports transfer_to_npu at interpreter start-up, so an unmodified
script gets what `import transfer_to_npu` gives (CUPY_COMPILE_WITH_PTX, CUDA_HOME, the import
hooks that make numba-cuda/cuda.core link through our driver) without editing it. Python
imports only the first sitecustomize on sys.path, so the one this shadows (if any) runs next.
Only acts when TRANSFER_TO_NPU_LAUNCHED=1; never raises.
"""
import os
import sys


def _chain():
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.origin and os.path.dirname(os.path.abspath(spec.origin)) != here:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)


if os.environ.get("TRANSFER_TO_NPU_LAUNCHED") == "1":
    try:
        import transfer_to_npu  # noqa: F401
    except Exception as e:  # the user's program must still start
        sys.stderr.write("[transfer_to_npu] bridge not loaded at start-up: %r\n" % (e,))
try:
    _chain()
except Exception as e:
    sys.stderr.write("[transfer_to_npu] the shadowed sitecustomize failed: %r\n" % (e,))
