"""The bridge itself: loading, re-exec, launcher from Python, transfer_to_npu.npu helpers."""
import ctypes
import os
import sys

import pytest

from conftest import LIBDIR, check, clean_env, run_script


def test_import_loads_runtime_and_dropins(tmp_path):
    p = check(run_script(tmp_path, """
        import os, transfer_to_npu
        maps = open('/proc/self/maps').read()
        assert transfer_to_npu.loaded() == 'loaded', transfer_to_npu.loaded()
        libdir = os.path.realpath(transfer_to_npu.library_dir())
        for so in ('libtransfer_to_npu.so', 'libcudart.so.13', 'libcuda.so.1', 'libcublas.so.13'):
            assert os.path.join(libdir, so) in maps, so
        # glibc now resolves the real sonames to our drop-ins
        import ctypes
        h = ctypes.CDLL('libcudart.so.13')
        n = ctypes.c_int(-1)
        assert h.cudaGetDeviceCount(ctypes.byref(n)) == 0 and n.value == 1
        assert os.environ['CUPY_COMPILE_WITH_PTX'] == '1'
        assert os.environ['CUDA_HOME']
        assert libdir in os.environ['LD_LIBRARY_PATH'].split(':')[0]
        print('OK')
    """, how="plain"))
    assert "OK" in p.stdout
    assert "re-running" not in p.stderr


def test_reexec_when_real_cudart_is_already_loaded(tmp_path):
    real = "/usr/local/cuda/lib64/libcudart.so.13"
    if not os.path.exists(real):
        pytest.skip("no real libcudart.so.13 in /usr/local/cuda/lib64 to load first")
    p = check(run_script(tmp_path, """
        import ctypes, sys
        print('start', sys.argv[1:])
        ctypes.CDLL(%r)
        import transfer_to_npu
        from transfer_to_npu import npu
        print('devices', npu.device_count(), transfer_to_npu.loaded())
    """ % real, how="plain", args=["a b", "--x"]))
    out = p.stdout.splitlines()
    # first run prints 'start' then re-executes; the second run carries on under the preload
    assert out.count("start ['a b', '--x']") == 2, p.stdout
    assert "devices 1 launcher" in out, p.stdout
    assert p.stderr.count("re-running this interpreter under the launcher") == 1, p.stderr


def test_reexec_when_gpu_library_imported_first(tmp_path):
    p = check(run_script(tmp_path, """
        import sys, types
        sys.modules['cupy'] = types.ModuleType('cupy')   # as if CuPy had been imported first
        import transfer_to_npu
        print('how', transfer_to_npu.loaded())
    """, how="plain"))
    assert "how launcher" in p.stdout
    assert "cupy was imported before transfer_to_npu" in p.stderr


def test_module_launcher_passes_argv_and_environment(tmp_path):
    p = check(run_script(tmp_path, """
        import os, sys
        print('argv', sys.argv[1:])
        print('preload', os.path.basename(os.environ.get('LD_PRELOAD', '').split(':')[0]))
        print('ptx', os.environ.get('CUPY_COMPILE_WITH_PTX'))
        import transfer_to_npu
        print('how', transfer_to_npu.loaded())
    """, how="module", args=["1", "two words"]))
    assert "argv ['1', 'two words']" in p.stdout
    assert "preload libtransfer_to_npu.so" in p.stdout
    assert "ptx 1" in p.stdout
    assert "how launcher" in p.stdout


def test_module_launcher_bad_input(tmp_path):
    import subprocess
    p = subprocess.run([sys.executable, "-m", "transfer_to_npu", str(tmp_path / "nope.py")],
                       env=clean_env(), capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "no such script" in p.stderr
    p = subprocess.run([sys.executable, "-m", "transfer_to_npu"], env=clean_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "1 NPU device(s)" in p.stdout


def test_missing_library_says_how_to_build(tmp_path):
    # the package alone, away from the source tree's build/lib and any installed library
    pkg = tmp_path / "pkgonly" / "transfer_to_npu"
    pkg.mkdir(parents=True)
    src = os.path.join(os.path.dirname(LIBDIR), "..", "transfer_to_npu")
    for f in os.listdir(src):
        if f.endswith(".py"):
            (pkg / f).write_text(open(os.path.join(src, f)).read())
    env = clean_env()
    env["PYTHONPATH"] = str(pkg.parent)
    import subprocess
    p = subprocess.run([sys.executable, "-c", "import transfer_to_npu; print(transfer_to_npu.loaded())"],
                       env=env, capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert p.returncode == 0
    assert "missing" in p.stdout
    assert "build it with `make`" in p.stderr


def test_npu_helpers(tmp_path):
    p = check(run_script(tmp_path, """
        import ctypes
        from transfer_to_npu import npu
        assert npu.device_count() == 2 and npu.is_available()
        name = npu.get_device_name(0)
        assert 'NPU' in name, name
        props = npu.get_device_properties('npu:1')
        assert props['warp_size'] == 32 and props['total_memory'] > 0
        assert props['max_threads_per_block'] == 1024
        free, total = npu.mem_get_info(0)
        assert total == props['total_memory'] and 0 < free <= total
        # allocator statistics follow cudaMalloc/cudaFree (through the loaded runtime)
        rt = ctypes.CDLL('libcudart.so.13')
        base = npu.memory_allocated(0)
        ptrs = []
        for i in range(4):
            p = ctypes.c_void_p()
            assert rt.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(1 << 20)) == 0
            ptrs.append(p)
        assert npu.memory_allocated(0) >= base + 4 * (1 << 20)
        assert npu.memory_allocated() == npu.memory_allocated(0)
        assert npu.max_memory_allocated(0) >= npu.memory_allocated(0)
        assert npu.memory_reserved(0) >= npu.memory_allocated(0)
        assert npu.memory_allocated(1) == 0
        for p in ptrs:
            assert rt.cudaFree(p) == 0
        assert npu.memory_allocated(0) == base
        assert npu.max_memory_allocated(0) >= base + 4 * (1 << 20)
        npu.empty_cache(0)
        assert npu.memory_reserved(0) <= npu.memory_allocated(0) + (1 << 20)
        npu.reset_peak_memory_stats(0)
        assert npu.max_memory_allocated(0) == npu.memory_allocated(0)
        npu.synchronize(); npu.synchronize(1)
        npu.set_device(1); assert npu.current_device() == 1; npu.set_device(0)
        # bad input: exceptions, never a crash
        for bad, exc in ((2, ValueError), (-1, ValueError), ('npu:7', ValueError),
                         (1.5, TypeError), (True, TypeError), ('npu:x', ValueError)):
            try:
                npu.get_device_name(bad)
            except exc:
                pass
            else:
                raise AssertionError('no %s for %r' % (exc.__name__, bad))
        lib = npu._library()
        out = (ctypes.c_ulonglong * 4)()
        assert lib.transfer_to_npu_mem_stats(5, out) != 0
        assert lib.transfer_to_npu_mem_stats(0, None) != 0
        assert lib.transfer_to_npu_empty_cache(-3) != 0
        assert lib.transfer_to_npu_status_name(12345) == b'NPU_UNKNOWN_STATUS'
        print('OK')
    """, env=clean_env(TRANSFER_TO_NPU_DEVICES="2")))
    assert "OK" in p.stdout


def test_visible_devices_filter(tmp_path):
    p = check(run_script(tmp_path, """
        from transfer_to_npu import npu
        print('count', npu.device_count())
    """, env=clean_env(TRANSFER_TO_NPU_DEVICES="3", CUDA_VISIBLE_DEVICES="2")))
    assert "count 1" in p.stdout


def test_shell_launcher_runs_script(tmp_path):
    p = check(run_script(tmp_path, """
        import transfer_to_npu
        from transfer_to_npu import npu
        print('how', transfer_to_npu.loaded(), npu.device_count())
    """, how="launcher"))
    assert "how launcher 1" in p.stdout
