"""transfer_to_npu.npu - torch.cuda-like helpers for the emulated NPU, through ctypes calls into
libtransfer_to_npu.so: the exported CUDA runtime API (cudaGetDeviceCount,
cudaGetDeviceProperties, cudaDeviceSynchronize, cudaMemGetInfo) and the bridge's own exports
for the caching allocator (transfer_to_npu_mem_stats / _empty_cache / _reset_peak).

Every function raises NPUError (a RuntimeError) with the CUDA error name when the call fails,
and ValueError/TypeError for bad arguments; none of them can crash the interpreter.
Devices are the visible ordinals (CUDA_VISIBLE_DEVICES / ASCEND_RT_VISIBLE_DEVICES applied).
`device=None` means the calling thread's current device (cudaGetDevice).
"""
import ctypes
import os

__all__ = ["NPUError", "is_available", "device_count", "current_device", "set_device",
           "get_device_name", "get_device_properties", "get_device_capability",
           "synchronize", "mem_get_info", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "max_memory_reserved", "reset_peak_memory_stats",
           "empty_cache", "memory_stats", "library_version"]


class NPUError(RuntimeError):
    """A runtime call into libtransfer_to_npu.so failed."""

    def __init__(self, func, code, name):
        super().__init__("%s failed: %s (%d)" % (func, name, code))
        self.func = func
        self.code = code
        self.name = name


class _DeviceProp(ctypes.Structure):
    # The leading members of cudaDeviceProp (CUDA 12/13 layout); the tail is opaque padding
    # large enough for every CUDA version's struct (1008 bytes in CUDA 12.x, less in 13).
    _fields_ = [("name", ctypes.c_char * 256),
                ("uuid", ctypes.c_ubyte * 16),
                ("luid", ctypes.c_char * 8),
                ("luidDeviceNodeMask", ctypes.c_uint),
                ("totalGlobalMem", ctypes.c_size_t),
                ("sharedMemPerBlock", ctypes.c_size_t),
                ("regsPerBlock", ctypes.c_int),
                ("warpSize", ctypes.c_int),
                ("memPitch", ctypes.c_size_t),
                ("maxThreadsPerBlock", ctypes.c_int),
                ("maxThreadsDim", ctypes.c_int * 3),
                ("maxGridSize", ctypes.c_int * 3),
                ("_rest", ctypes.c_ubyte * 4096)]


# cudaDeviceAttr values (driver_types.h)
_ATTR_MULTIPROCESSOR_COUNT = 16
_ATTR_COMPUTE_MAJOR = 75
_ATTR_COMPUTE_MINOR = 76

_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    from . import library_path
    path = library_path()
    if path is None:
        raise NPUError("load", -1, "libtransfer_to_npu.so not found (build it with `make`)")
    lib = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
    c_int_p = ctypes.POINTER(ctypes.c_int)
    sig = {
        "cudaGetDeviceCount": (ctypes.c_int, [c_int_p]),
        "cudaGetDevice": (ctypes.c_int, [c_int_p]),
        "cudaSetDevice": (ctypes.c_int, [ctypes.c_int]),
        "cudaGetDeviceProperties": (ctypes.c_int, [ctypes.POINTER(_DeviceProp), ctypes.c_int]),
        "cudaDeviceGetAttribute": (ctypes.c_int, [c_int_p, ctypes.c_int, ctypes.c_int]),
        "cudaDeviceSynchronize": (ctypes.c_int, []),
        "cudaMemGetInfo": (ctypes.c_int, [ctypes.POINTER(ctypes.c_size_t),
                                          ctypes.POINTER(ctypes.c_size_t)]),
        "cudaGetErrorName": (ctypes.c_char_p, [ctypes.c_int]),
        "transfer_to_npu_mem_stats": (ctypes.c_int, [ctypes.c_int,
                                                     ctypes.POINTER(ctypes.c_ulonglong)]),
        "transfer_to_npu_empty_cache": (ctypes.c_int, [ctypes.c_int]),
        "transfer_to_npu_reset_peak": (ctypes.c_int, [ctypes.c_int]),
        "transfer_to_npu_status_name": (ctypes.c_char_p, [ctypes.c_int]),
        "transfer_to_npu_version": (ctypes.c_char_p, []),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    _lib = lib
    return lib


def _check_cuda(func, rc):
    if rc != 0:
        name = _library().cudaGetErrorName(rc)
        raise NPUError(func, rc, name.decode() if name else "cudaError %d" % rc)


def _check_npu(func, rc):
    if rc != 0:
        name = _library().transfer_to_npu_status_name(rc)
        raise NPUError(func, rc, name.decode() if name else "status %d" % rc)


def _device(device):
    if device is None:
        return current_device()
    if hasattr(device, "id"):          # cupy.cuda.Device
        device = device.id
    if isinstance(device, str):        # "npu:1", "cuda:0", "npu"
        _, _, idx = device.partition(":")
        device = int(idx) if idx else current_device()
    if isinstance(device, bool) or not isinstance(device, int):
        raise TypeError("device must be an int, 'npu:N' or None, not %r" % (device,))
    n = device_count()
    if device < 0 or device >= n:
        raise ValueError("invalid device %d (%d visible)" % (device, n))
    return device


def library_version():
    """Version string of libtransfer_to_npu.so."""
    return _library().transfer_to_npu_version().decode()


def device_count():
    """Number of visible NPUs (0 when none: never raises for that)."""
    n = ctypes.c_int(0)
    rc = _library().cudaGetDeviceCount(ctypes.byref(n))
    return n.value if rc == 0 else 0


def is_available():
    return device_count() > 0


def current_device():
    d = ctypes.c_int(0)
    _check_cuda("cudaGetDevice", _library().cudaGetDevice(ctypes.byref(d)))
    return d.value


def set_device(device):
    _check_cuda("cudaSetDevice", _library().cudaSetDevice(_device(device)))


def get_device_properties(device=None):
    """dict with name, total_memory, multi_processor_count, major, minor, warp_size ..."""
    dev = _device(device)
    lib = _library()
    p = _DeviceProp()
    _check_cuda("cudaGetDeviceProperties", lib.cudaGetDeviceProperties(ctypes.byref(p), dev))

    def attr(a):
        v = ctypes.c_int(0)
        _check_cuda("cudaDeviceGetAttribute", lib.cudaDeviceGetAttribute(ctypes.byref(v), a, dev))
        return v.value
    return {"name": p.name.decode(errors="replace"),
            "uuid": bytes(p.uuid).hex(),
            "total_memory": p.totalGlobalMem,
            "shared_memory_per_block": p.sharedMemPerBlock,
            "warp_size": p.warpSize,
            "max_threads_per_block": p.maxThreadsPerBlock,
            "multi_processor_count": attr(_ATTR_MULTIPROCESSOR_COUNT),
            "major": attr(_ATTR_COMPUTE_MAJOR),
            "minor": attr(_ATTR_COMPUTE_MINOR)}


def get_device_name(device=None):
    return get_device_properties(device)["name"]


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p["major"], p["minor"])


def synchronize(device=None):
    """Waits for all work on the device (cudaDeviceSynchronize); raises the pending error."""
    lib = _library()
    if device is None:
        _check_cuda("cudaDeviceSynchronize", lib.cudaDeviceSynchronize())
        return
    dev = _device(device)
    prev = current_device()
    _check_cuda("cudaSetDevice", lib.cudaSetDevice(dev))
    try:
        _check_cuda("cudaDeviceSynchronize", lib.cudaDeviceSynchronize())
    finally:
        lib.cudaSetDevice(prev)


def mem_get_info(device=None):
    """(free, total) bytes of the device (cudaMemGetInfo)."""
    dev = _device(device)
    lib = _library()
    prev = current_device()
    free, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
    _check_cuda("cudaSetDevice", lib.cudaSetDevice(dev))
    try:
        _check_cuda("cudaMemGetInfo", lib.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total)))
    finally:
        lib.cudaSetDevice(prev)
    return free.value, total.value


def memory_stats(device=None):
    """dict: allocated_bytes, reserved_bytes, peak_allocated_bytes, peak_reserved_bytes."""
    dev = _device(device)
    out = (ctypes.c_ulonglong * 4)()
    _check_npu("transfer_to_npu_mem_stats", _library().transfer_to_npu_mem_stats(dev, out))
    return {"allocated_bytes": out[0], "reserved_bytes": out[1],
            "peak_allocated_bytes": out[2], "peak_reserved_bytes": out[3]}


def memory_allocated(device=None):
    """Bytes in live device allocations (cudaMalloc and friends; a library's own pool, such as
    CuPy's, counts what it holds from the device)."""
    return memory_stats(device)["allocated_bytes"]


def max_memory_allocated(device=None):
    return memory_stats(device)["peak_allocated_bytes"]


def memory_reserved(device=None):
    """Bytes the runtime's caching allocator holds (allocated + cached)."""
    return memory_stats(device)["reserved_bytes"]


def max_memory_reserved(device=None):
    return memory_stats(device)["peak_reserved_bytes"]


def reset_peak_memory_stats(device=None):
    _check_npu("transfer_to_npu_reset_peak", _library().transfer_to_npu_reset_peak(_device(device)))


def empty_cache(device=None):
    """Returns the allocator's cached free blocks to the OS (memory_reserved drops to about
    memory_allocated). Memory still held by a library's own pool (cupy's
    get_default_memory_pool().free_all_blocks()) is not affected."""
    _check_npu("transfer_to_npu_empty_cache", _library().transfer_to_npu_empty_cache(_device(device)))
