#!/usr/bin/env bash
# tests/python/run_pytest.sh - the Python tier: the bridge (transfer_to_npu package) and
# unmodified GPU Python scripts (cuda-python, numba-cuda, CuPy) on the NPU, each in its own
# interpreter with a timeout. Prints one "PASS name" / "FAIL name" line per test (and
# "SKIP name: reason" for a package that is not installed). Needs `make` first.
# TIER_TIMEOUT: 3000
set -u
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$PWD/build/kcache}
if ! $PY -c "import pytest" 2>/dev/null; then
    echo "FAIL python_tier: pytest is not installed (scripts/install-deps.sh installs it)"
    exit 1
fi
$PY -m pytest -q -rA -p no:cacheprovider ${PYTEST_ARGS:-} tests/python
