#!/usr/bin/env bash
# run_demo_torch.sh - examples/train_torch.py (a PyTorch script written for device="cuda",
# unmodified) trained on the emulated NPU through the launcher, with PyPI's torch from the
# virtual environment scripts/install-deps.sh makes. Weights: build/examples/torch_mlp.pt.
set -eu
cd "$(dirname "$0")/.."
TORCH_VENV=${TRANSFER_TO_NPU_TORCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/transfer_to_npu/torch-venv}
PY=$TORCH_VENV/bin/python
if ! "$PY" -c "import torch" 2>/dev/null; then
    echo "run_demo_torch: no torch in $TORCH_VENV (scripts/install-deps.sh installs it)" >&2
    exit 1
fi
mkdir -p build/examples
echo "training on the NPU: scripts/transfer-to-npu $PY examples/train_torch.py"
exec scripts/transfer-to-npu "$PY" examples/train_torch.py build/examples/torch_mlp.pt "$@"
