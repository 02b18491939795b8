"""python3 -m transfer_to_npu [-m module | -c code | script.py] [args...]

The launcher from Python: re-executes the interpreter with libtransfer_to_npu.so preloaded
(LD_PRELOAD), our drop-in CUDA libraries first on LD_LIBRARY_PATH, this package on PYTHONPATH
and the GPU-library settings of `import transfer_to_npu`, then runs the script as `python3
script.py args` would (sys.argv[0] is the script). Without arguments: prints the devices.
"""
import os
import sys


def _usage(stream):
    stream.write(__doc__.split("\n\n")[0].strip() + "\n")


def _run_under_preload(argv):
    # Importing the package configures the environment (CUPY_COMPILE_WITH_PTX, CUDA_HOME ...)
    # and loads the runtime here; the exec below gives the script a fresh interpreter whose
    # loader has the runtime preloaded from the first instruction.
    import transfer_to_npu as ttn
    libdir = ttn.library_dir()
    if libdir is None:
        return 127
    ttn._export_for_children(libdir)
    exe = sys.executable
    os.execve(exe, [exe, "-m", "transfer_to_npu._run"] + argv, dict(os.environ))
    return 126  # not reached


def _info():
    import transfer_to_npu as ttn
    from transfer_to_npu import npu
    if ttn.library_dir() is None:
        return 127
    print("transfer_to_npu %s (%s)" % (npu.library_version(), ttn.library_path()))
    n = npu.device_count()
    print("%d NPU device(s)" % n)
    for d in range(n):
        free, total = npu.mem_get_info(d)
        print("  npu:%d %s, %d MiB (%d MiB free), capability %d.%d" % (
            d, npu.get_device_name(d), total >> 20, free >> 20, *npu.get_device_capability(d)))
    return 0


def main(argv):
    if not argv:
        return _info()
    if argv[0] in ("-h", "--help"):
        _usage(sys.stdout)
        return 0
    if argv[0] in ("-m", "-c") and len(argv) < 2:
        _usage(sys.stderr)
        return 2
    if argv[0] not in ("-m", "-c") and not os.path.exists(argv[0]):
        sys.stderr.write("[transfer_to_npu] no such script: %s\n" % argv[0])
        return 2
    return _run_under_preload(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
