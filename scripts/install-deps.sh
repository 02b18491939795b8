#!/usr/bin/env bash
# install-deps.sh - installs what the build, tests and demo need and a fresh Debian 12 machine
# lacks: Debian packages (apt-get) and Python packages (pip). Quiet and quick when everything
# is already there. Needs root (or sudo) only when something is missing.
set -eu
APT_PKGS="build-essential libopenblas-dev libffi-dev uthash-dev libzstd-dev liblz4-dev \
pocl-opencl-icd ocl-icd-opencl-dev opencl-headers valgrind clang-14 libclang-rt-14-dev"
# pip package:module to import (the Python tier runs unmodified GPU scripts on the NPU). No
# nvidia-* runtime wheels: they would bring real CUDA libraries; the toolkit in /usr/local/cuda
# (NVRTC, libnvvm, libdevice) and our drop-ins serve those libraries. nvidia-cuda-nvdisasm is
# only a program (nvidia/cu13/bin/nvdisasm, no library): NVIDIA's disassembler is the oracle of
# the SASS tiers (tests/sass, tests/cubin); the toolkit here does not ship it.
# filecheck and ml_dtypes: what numba-cuda's own test suite imports (tests/numba_suite).
PIP_PKGS="numpy:numpy pytest:pytest cupy-cuda13x:cupy numba-cuda:numba.cuda cuda-python:cuda.bindings.driver \
filecheck:filecheck ml_dtypes:ml_dtypes nvidia-cuda-nvdisasm:nvidia.cu13.bin"

missing=()
for p in $APT_PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
PY=${PYTHON:-python3}
pmissing=()
pmods=
for pm in $PIP_PKGS; do pmods="$pmods ${pm#*:}"; done
# one interpreter start for all the checks (quick when everything is installed)
absent=$($PY - $pmods <<'PYEOF' 2>/dev/null
import importlib.util, sys
for m in sys.argv[1:]:
    try:
        ok = importlib.util.find_spec(m) is not None
    except Exception:
        ok = False
    if not ok:
        print(m)
PYEOF
) || absent=$pmods
for pm in $PIP_PKGS; do
    for m in $absent; do [ "$m" = "${pm#*:}" ] && pmissing+=("${pm%%:*}"); done
done
if [ ${#pmissing[@]} -gt 0 ]; then
    echo "install-deps: installing Python packages: ${pmissing[*]}"
    $PY -m pip install -q "${pmissing[@]}" || $PY -m pip install -q --break-system-packages "${pmissing[@]}"
fi
# PyPI's default PyTorch (CUDA 13 build: GPU machine code only, and NVIDIA's cuDNN/NCCL/cuBLAS
# wheels with it) in a virtual environment of its own, so that its nvidia-* wheels never reach
# the interpreter the CuPy/numba/cuda-python tiers use. The torch tests and `make demo-torch`
# run their scripts with it (tests/python/test_torch.py). ~5 GB, a few minutes on a fresh
# machine. TRANSFER_TO_NPU_NO_TORCH=1 leaves it out (those tests then skip, saying why).
TORCH_VENV=${TRANSFER_TO_NPU_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/transfer_to_npu/torch-venv}
if [ "${TRANSFER_TO_NPU_NO_TORCH:-0}" != 1 ] && ! "$TORCH_VENV/bin/python" -c "import torch, numpy" 2>/dev/null; then
    echo "install-deps: installing PyPI's torch into $TORCH_VENV (a few minutes, ~5 GB)"
    mkdir -p "$(dirname "$TORCH_VENV")"
    if $PY -m venv "$TORCH_VENV" && "$TORCH_VENV/bin/python" -m pip install -q --upgrade pip >/dev/null &&
       "$TORCH_VENV/bin/python" -m pip install -q torch numpy; then
        :
    else
        echo "install-deps: could not install torch into $TORCH_VENV: the PyTorch tests will skip" >&2
    fi
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "install-deps: the CUDA toolkit (nvcc) is not at /usr/local/cuda: the CUDA test programs and the demo need it to build" >&2
    exit 1
fi
exit 0
