#!/usr/bin/env python3
"""train_cupy.py - a small MLP trained with plain CuPy on a synthetic data set.

Nothing here knows about the NPU: the same file runs on a real GPU (`python3 train_cupy.py`)
and on the emulated NPU (`python3 -m transfer_to_npu examples/train_cupy.py` or
`scripts/transfer-to-npu python3 examples/train_cupy.py`).

Data: 4 classes of 2-D interleaved spirals, lifted to 32 features by a fixed random
projection plus noise. Model: 32 -> 128 -> 128 -> 4, ReLU, softmax cross-entropy, SGD with
momentum, mini-batches. It uses matmul (cuBLAS), elementwise ops, reductions (max, sum,
argmax), fancy indexing (the label column of the softmax, shuffled mini-batches) and boolean
masks. The loss must fall and the test accuracy pass --min-accuracy, else exit status 1. The
weights are saved at the end (.npz).

`train(xp, ...)` takes the array module, so bench/bench_cupy.py runs the same math in NumPy.
"""
import argparse
import sys
import time

import numpy as np


def make_data(n, seed=0, features=32, classes=4):
    """Interleaved spirals lifted to `features` dimensions (float32), labels int64."""
    rng = np.random.default_rng(seed)
    per = n // classes
    xs, ys = [], []
    for c in range(classes):
        r = np.linspace(0.1, 1.0, per)
        t = c * 2 * np.pi / classes + r * 5.0 + rng.normal(0, 0.15, per)
        xs.append(np.stack([r * np.cos(t), r * np.sin(t)], axis=1))
        ys.append(np.full(per, c))
    x2 = np.concatenate(xs)
    y = np.concatenate(ys)
    proj = rng.normal(0, 1, (2, features))
    x = np.tanh(x2 @ proj) + rng.normal(0, 0.05, (len(y), features))
    perm = rng.permutation(len(y))
    return x[perm].astype(np.float32), y[perm].astype(np.int64)


def init_params(xp, sizes, seed=0):
    rng = np.random.default_rng(seed + 1)   # host RNG: identical weights on every device
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        w = rng.normal(0, np.sqrt(2.0 / fan_in), (fan_in, fan_out)).astype(np.float32)
        params.append([xp.asarray(w), xp.zeros(fan_out, dtype=xp.float32)])
    return params


def forward(xp, params, x):
    acts = [x]
    h = x
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        if i < len(params) - 1:
            h = xp.maximum(h, 0)
        acts.append(h)
    return acts


def loss_and_grads(xp, params, x, y):
    acts = forward(xp, params, x)
    logits = acts[-1]
    logits = logits - logits.max(axis=1, keepdims=True)
    e = xp.exp(logits)
    p = e / e.sum(axis=1, keepdims=True)
    n = x.shape[0]
    rows = xp.arange(n)
    loss = -xp.log(p[rows, y] + 1e-12).mean()
    d = p
    d[rows, y] -= 1                            # fancy-indexed update
    d /= n
    grads = [None] * len(params)
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        a = acts[i]
        grads[i] = (a.T @ d, d.sum(axis=0))
        if i > 0:
            d = (d @ w.T) * (acts[i] > 0)      # boolean mask of the ReLU
    return loss, grads


def accuracy(xp, params, x, y):
    pred = forward(xp, params, x)[-1].argmax(axis=1)
    return float((pred == y).mean())


def train(xp, x, y, epochs=12, batch=256, lr=0.1, momentum=0.9, seed=0, sizes=None,
          log=None, sync=None):
    """Trains on (x, y) (host arrays); returns (params, epoch losses, steps, seconds)."""
    sizes = sizes or [x.shape[1], 128, 128, int(y.max()) + 1]
    params = init_params(xp, sizes, seed)
    vel = [[xp.zeros_like(w), xp.zeros_like(b)] for w, b in params]
    X = xp.asarray(x)
    Y = xp.asarray(y)
    n = X.shape[0]
    rng = np.random.default_rng(seed + 2)
    losses = []
    steps = 0
    t0 = time.perf_counter()
    for ep in range(epochs):
        order = xp.asarray(rng.permutation(n))
        total = 0.0
        nb = 0
        for s in range(0, n - batch + 1, batch):
            idx = order[s:s + batch]
            loss, grads = loss_and_grads(xp, params, X[idx], Y[idx])   # fancy-indexed batch
            for (w, b), (vw, vb), (gw, gb) in zip(params, vel, grads):
                vw *= momentum
                vw -= lr * gw
                vb *= momentum
                vb -= lr * gb
                w += vw
                b += vb
            total += float(loss)
            nb += 1
            steps += 1
        losses.append(total / max(nb, 1))
        if log:
            log(ep, losses[-1])
    if sync:
        sync()
    return params, losses, steps, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--samples", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-accuracy", type=float, default=0.9)
    ap.add_argument("--out", default="mlp_cupy_weights.npz")
    a = ap.parse_args(argv)

    import cupy as cp
    x, y = make_data(a.samples + 2048, a.seed)
    xtr, ytr, xte, yte = x[:a.samples], y[:a.samples], x[a.samples:], y[a.samples:]
    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    print("device %d: %s" % (dev.id, name))

    def log(ep, loss):
        print("epoch %3d  loss %.4f" % (ep + 1, loss), flush=True)
    params, losses, steps, secs = train(cp, xtr, ytr, a.epochs, a.batch, a.lr, seed=a.seed,
                                        log=log, sync=cp.cuda.Device().synchronize)
    acc = accuracy(cp, params, cp.asarray(xte), cp.asarray(yte))
    print("steps %d in %.2f s (%.1f steps/s)" % (steps, secs, steps / secs))
    print("test accuracy %.4f" % acc)
    weights = {}
    for i, (w, b) in enumerate(params):
        weights["w%d" % i] = cp.asnumpy(w)
        weights["b%d" % i] = cp.asnumpy(b)
    np.savez(a.out, **weights)
    print("weights saved to %s" % a.out)
    ok = True
    if not (losses[-1] < 0.5 * losses[0]):
        print("FAILED: the loss did not fall enough (%.4f -> %.4f)" % (losses[0], losses[-1]))
        ok = False
    if acc < a.min_accuracy:
        print("FAILED: accuracy %.4f below %.2f" % (acc, a.min_accuracy))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
