#!/usr/bin/env bash
# tests/numba_suite/run_numba_suite.sh - numba-cuda's own test suite (shipped in the
# numba-cuda wheel as numba.cuda.tests), run through the launcher with the settings the
# Python bridge applies (PTX through the driver's cuLink*, NUMBA_CUDA_DRIVER = our libcuda).
# Prints "PASS id" / "FAIL id" per test (numba_suite.py); known failures (known_failures.txt,
# each with its reason) print XFAIL and do not count, unless they pass.
#   default           a fixed subset: the driver-API tests (numba.cuda.tests.cudadrv, all of
#                     them) and the kernel tests closest to the API surface (dispatcher and
#                     kernel properties, fork detection, constant/local memory, streams, sync,
#                     exceptions, launch configuration): about 335 tests, 2-4 min
#   NUMBA_SUITE=full  the whole suite (about 2000 tests, 40 min on 2 vCPUs: run it on its own,
#                     e.g. NUMBA_SUITE=full bash tests/numba_suite/run_numba_suite.sh, or give
#                     tests/run.sh TEST_TIMEOUT=400)
#   NUMBA_SUITE="name ..."  those test modules / classes / tests
# Needs numba-cuda, filecheck and ml_dtypes (scripts/install-deps.sh installs them).
set -u
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$PWD/build/kcache}
missing=$($PY - <<'PYEOF' 2>/dev/null
import importlib.util
for m in ("numba.cuda", "filecheck", "ml_dtypes"):
    try:
        ok = importlib.util.find_spec(m) is not None
    except Exception:
        ok = False
    if not ok:
        print(m)
PYEOF
)
if [ -n "$missing" ]; then
    echo "FAIL numba_suite: missing Python packages: $missing (scripts/install-deps.sh installs them)"
    exit 1
fi
T=numba.cuda.tests
case "${NUMBA_SUITE:-}" in
    "") names="$T.cudadrv $T.cudapy.test_dispatcher $T.cudapy.test_multiprocessing $T.cudapy.test_constmem
               $T.cudapy.test_localmem $T.cudapy.test_stream_api $T.cudapy.test_sync $T.cudapy.test_exception
               $T.cudapy.test_launch_config_sensitive" ;;
    full) names=$T ;;
    *) names=$NUMBA_SUITE ;;
esac
# From a scratch directory: some tests write caches and files next to the working directory.
W=$(mktemp -d "${TMPDIR:-/tmp}/ttn-numba.XXXXXX")
trap 'rm -rf "$W"' EXIT
here=$PWD
cd "$W" && "$here/scripts/transfer-to-npu" $PY "$here/tests/numba_suite/numba_suite.py" \
    --known "$here/tests/numba_suite/known_failures.txt" $names
