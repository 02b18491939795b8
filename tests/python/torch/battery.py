"""battery.py - everyday tensor ops on "cuda" against the same op on the CPU (floating results
within 2e-3, integer/bool results equal, shapes equal). Exit 1 naming each op that differs or
raises. Run by tests/python/test_torch.py through the launcher; `battery.py name ...` runs some."""
import sys, traceback
import torch
import torch.nn.functional as F

torch.manual_seed(0)
g = torch.Generator().manual_seed(3)
A = torch.randn(37, 53, generator=g)
B = torch.randn(53, 29, generator=g)
V = torch.randn(53, generator=g)
I = torch.randint(-50, 50, (41, 17), generator=g)
IDX = torch.randint(0, 37, (19,), generator=g)
P = torch.rand(37, 53, generator=g) + 0.1
X4 = torch.randn(2, 3, 12, 10, generator=g)
SEQ = torch.randn(4, 7, 16, generator=g)

DEV = "cpu"
def t(x):
    return x.to(DEV) if isinstance(x, torch.Tensor) else x

OPS = {
    "add": lambda a: a + 1.5, "sub_bcast": lambda a: a - a[0], "mul": lambda a: a * a,
    "div": lambda a: a / (a.abs() + 1), "neg": lambda a: -a, "abs": lambda a: a.abs(),
    "exp": lambda a: a.exp(), "log": lambda a: (a.abs() + 1).log(), "sqrt": lambda a: a.abs().sqrt(),
    "rsqrt": lambda a: (a.abs() + 1).rsqrt(), "sin": lambda a: a.sin(), "cos": lambda a: a.cos(),
    "tanh": lambda a: a.tanh(), "sigmoid": lambda a: a.sigmoid(), "pow": lambda a: a.abs() ** 1.7,
    "clamp": lambda a: a.clamp(-0.5, 0.5), "where": lambda a: torch.where(a > 0, a, a * 0.1),
    "maximum": lambda a: torch.maximum(a, a.flip(0)), "floor": lambda a: (a * 3).floor(),
    "round": lambda a: (a * 3).round(), "sign": lambda a: a.sign(), "erf": lambda a: a.erf(),
    "gelu": lambda a: F.gelu(a), "gelu_tanh": lambda a: F.gelu(a, approximate="tanh"),
    "silu": lambda a: F.silu(a), "relu": lambda a: F.relu(a), "leaky": lambda a: F.leaky_relu(a, 0.2),
    "softplus": lambda a: F.softplus(a), "elu": lambda a: F.elu(a),
    "sum": lambda a: a.sum(), "sum0": lambda a: a.sum(0), "sum1": lambda a: a.sum(1),
    "mean": lambda a: a.mean(1), "var": lambda a: a.var(0), "std": lambda a: a.std(1),
    "prod": lambda a: (a * 0.1 + 1).prod(1), "amax": lambda a: a.amax(0), "amin": lambda a: a.amin(1),
    "argmax": lambda a: a.argmax(1), "argmin": lambda a: a.argmin(0), "max_dim": lambda a: a.max(1).values,
    "norm": lambda a: a.norm(), "norm_dim": lambda a: a.norm(dim=1), "logsumexp": lambda a: a.logsumexp(1),
    "softmax": lambda a: a.softmax(1), "log_softmax": lambda a: a.log_softmax(0),
    "cumsum": lambda a: a.cumsum(1), "cumprod": lambda a: (a * 0.1 + 1).cumprod(0),
    "sort": lambda a: a.sort(1).values, "argsort": lambda a: a.argsort(0),
    "topk": lambda a: a.topk(5, 1).values, "kthvalue": lambda a: a.kthvalue(3, 1).values,
    "median": lambda a: a.median(1).values,
    "matmul": lambda a: a @ t(B), "mv": lambda a: a @ t(V), "bmm": lambda a: torch.bmm(a[:36].view(4, 9, 53), a[:36].view(4, 9, 53).transpose(1, 2)),
    "einsum": lambda a: torch.einsum("ij,kj->ik", a, a), "addmm": lambda a: torch.addmm(a[:, :29], a, t(B)),
    "transpose_contig": lambda a: a.t().contiguous(), "cat": lambda a: torch.cat([a, a * 2], 1),
    "stack": lambda a: torch.stack([a, a + 1]), "narrow": lambda a: a[3:20, 5:40:3].contiguous(),
    "flip": lambda a: a.flip(1), "roll": lambda a: a.roll(3, 0), "repeat": lambda a: a[:5].repeat(2, 3),
    "tril": lambda a: a.tril(), "index_select": lambda a: a.index_select(0, t(IDX)),
    "gather": lambda a: a.gather(1, t(IDX).view(-1, 1).expand(19, 4) % 53),
    "scatter_add": lambda a: torch.zeros(37, 53, device=a.device).scatter_add(0, t(IDX).view(-1, 1).expand(19, 53), a[:19]),
    "index_add": lambda a: torch.zeros(37, 53, device=a.device).index_add(0, t(IDX), a[:19]),
    "masked_fill": lambda a: a.masked_fill(a > 0.5, -1.0), "bool_index": lambda a: a[a > 0.5],
    "nonzero": lambda a: (a > 1).nonzero(), "masked_select": lambda a: a.masked_select(a < -1),
    "unique": lambda a: torch.unique((a * 2).round()), "embedding": lambda a: F.embedding(t(IDX), a),
    "layer_norm": lambda a: F.layer_norm(a, (53,)), "batch_norm": lambda a: F.batch_norm(a, None, None, training=True),
    "group_norm": lambda a: F.group_norm(t(X4), 3), "dropout_eval": lambda a: F.dropout(a, 0.5, training=False),
    "max_pool2d": lambda a: F.max_pool2d(t(X4), 2), "avg_pool2d": lambda a: F.avg_pool2d(t(X4), 3, 2),
    "adaptive_avg": lambda a: F.adaptive_avg_pool2d(t(X4), (3, 4)),
    "interp_nearest": lambda a: F.interpolate(t(X4), scale_factor=2, mode="nearest"),
    "interp_bilinear": lambda a: F.interpolate(t(X4), size=(7, 9), mode="bilinear", align_corners=False),
    "conv2d_aten": lambda a: F.conv2d(t(X4), t(torch.randn(4, 3, 3, 3, generator=torch.Generator().manual_seed(5))), padding=1),
    "cross_entropy": lambda a: F.cross_entropy(a, t(IDX[:1].repeat(37) % 53)),
    "mse": lambda a: F.mse_loss(a, a.flip(0)), "nll": lambda a: F.nll_loss(a.log_softmax(1), t(IDX[:1].repeat(37) % 53)),
    "sdpa": lambda a: F.scaled_dot_product_attention(t(SEQ).view(1, 4, 7, 16), t(SEQ).view(1, 4, 7, 16), t(SEQ).view(1, 4, 7, 16)),
    "int_add": lambda a: t(I) + 7, "int_mul": lambda a: t(I) * t(I), "int_div": lambda a: torch.div(t(I), 7, rounding_mode="floor"),
    "int_rem": lambda a: t(I) % 7, "int_sum": lambda a: t(I).sum(1), "int_max": lambda a: t(I).max(),
    "bitand": lambda a: t(I) & 12, "shift": lambda a: t(I) << 2, "int_cumsum": lambda a: t(I).cumsum(0),
    "to_half": lambda a: a.half().float(), "to_bf16": lambda a: a.bfloat16().float(), "to_double": lambda a: a.double() * 3,
    "to_int": lambda a: (a * 10).int(), "to_long": lambda a: (a * 10).long(), "to_bool": lambda a: (a > 0).float(),
    "half_add": lambda a: (a.half() + a.half()).float(), "half_matmul": lambda a: (a.half() @ t(B).half()).float(),
    "bf16_matmul": lambda a: (a.bfloat16() @ t(B).bfloat16()).float(), "half_sum": lambda a: a.half().sum(1).float(),
    "double_sum": lambda a: a.double().sum(0), "double_matmul": lambda a: a.double() @ t(B).double(),
    "arange": lambda a: torch.arange(100, device=a.device) * 2, "linspace": lambda a: torch.linspace(0, 1, 33, device=a.device),
    "zeros_like": lambda a: torch.zeros_like(a) + 1, "full": lambda a: torch.full((5, 6), 3.5, device=a.device),
    "eye": lambda a: torch.eye(7, device=a.device), "outer": lambda a: torch.outer(a[0], a[1]),
    "dist": lambda a: torch.cdist(a[:5], a[5:12]), "isnan": lambda a: torch.isnan(a / (a - a[0, 0])).float(),
    "lerp": lambda a: torch.lerp(a, a.flip(0), 0.3), "addcmul": lambda a: torch.addcmul(a, a, a, value=0.5),
    "any_all": lambda a: torch.stack([(a > 2).any(), (a > -10).all()]).float(),
}

def main():
  global DEV
  torch.backends.cudnn.enabled = False   # convolutions on ATen's kernels (test_torch.py checks cuDNN apart)
  only = sys.argv[1:]
  bad = []
  for name, fn in OPS.items():
      if only and name not in only:
          continue
      try:
          DEV = "cpu"
          want = fn(A)
          DEV = "cuda"
          got = fn(A.cuda()).cpu()
          if want.dtype.is_floating_point:
              ok = want.shape == got.shape and torch.allclose(got.double(), want.double(), rtol=2e-3, atol=2e-3, equal_nan=True)
          else:
              ok = want.shape == got.shape and torch.equal(got, want)
          if not ok:
              d = (got.double() - want.double()).abs().max().item() if want.shape == got.shape else None
              bad.append(name)
              print(f"MISMATCH {name}: shape {tuple(got.shape)} vs {tuple(want.shape)}, max diff {d}", flush=True)
      except Exception as e:
          bad.append(name)
          print(f"ERROR {name}: {type(e).__name__}: {str(e)[:300]}", flush=True)
  n = len(only) if only else len(OPS)
  print(f"{n - len(bad)} of {n} ops match the CPU; bad: {' '.join(bad) or 'none'}")
  sys.exit(1 if bad else 0)

main()
