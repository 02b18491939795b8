"""train_torch.py - a PyTorch model written for an NVIDIA GPU (device="cuda"), unmodified.

Run on the emulated NPU with either
    scripts/transfer-to-npu python train_torch.py [weights.pt]
    python -m transfer_to_npu train_torch.py [weights.pt]
or with `import transfer_to_npu` as the script's first line. PyPI's torch carries only GPU
machine code: every kernel below runs through the SASS front end; the GEMMs go to our cuBLAS.

A 3-layer MLP classifies points of four interleaved spirals (synthetic, seeded), trained with
AdamW, a cosine LR schedule and gradient clipping; it prints the loss per epoch and the test
accuracy, and saves the weights (state_dict) for the CPU to load.
"""
import math
import sys
import time

import torch
import torch.nn.functional as F


def spirals(n, classes, gen):
    t = torch.rand(n, generator=gen) * 3.0 + 0.25
    c = torch.randint(0, classes, (n,), generator=gen)
    ang = t * 2.2 + c.float() * (2 * math.pi / classes)
    x = torch.stack([t * torch.cos(ang), t * torch.sin(ang)], 1)
    x = x + 0.08 * torch.randn(n, 2, generator=gen)
    return x, c


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "torch_mlp.pt"
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(0), "| torch", torch.__version__)
    gen = torch.Generator().manual_seed(0)
    xtr, ytr = spirals(4096, 4, gen)
    xte, yte = spirals(1024, 4, gen)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 128), torch.nn.GELU(), torch.nn.Linear(128, 128),
                                torch.nn.GELU(), torch.nn.Linear(128, 4)).to(dev)
    epochs, batch = 12, 256
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * (len(xtr) // batch))
    xtr, ytr, xte, yte = xtr.to(dev), ytr.to(dev), xte.to(dev), yte.to(dev)
    t0 = time.time()
    for ep in range(epochs):
        perm = torch.randperm(len(xtr), generator=gen).to(dev)
        tot = 0.0
        for i in range(0, len(xtr), batch):
            idx = perm[i:i + batch]
            loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
        print(f"epoch {ep + 1:2d}  loss {tot / len(xtr):.4f}  ({time.time() - t0:.1f} s)", flush=True)
    with torch.no_grad():
        acc = (model(xte).argmax(1) == yte).float().mean().item()
    print(f"test accuracy {acc * 100:.2f}%")
    torch.save(model.state_dict(), out)
    print("weights saved to", out)


if __name__ == "__main__":
    main()
