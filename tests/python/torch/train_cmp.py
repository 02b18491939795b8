"""train_cmp.py KIND-OPT - the same seeded training on "cpu" and on "cuda": an MLP or a
transformer encoder block (LayerNorm, multi-head attention through scaled_dot_product_attention
as PyTorch picks its kernel for CC 8.0, GELU, dropout off), SGD+momentum or AdamW with StepLR,
clip_grad_norm_; prints the worst relative difference of the 12 losses and exits 1 above 1e-3."""
import sys, time, torch, torch.nn.functional as F
which = sys.argv[1]
def mlp():
    return torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.Tanh(), torch.nn.Linear(64, 3))
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, activation="gelu", batch_first=True)
        self.head = torch.nn.Linear(32, 3)
    def forward(self, x):
        return self.head(self.enc(x).mean(1))
def run(dev, kind, optname):
    torch.manual_seed(0)
    model = (mlp() if kind == "mlp" else Block()).to(dev)
    if optname == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9); sched = None
    else:
        opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
        sched = torch.optim.lr_scheduler.StepLR(opt, 5, gamma=0.5)
    g = torch.Generator().manual_seed(1)
    X = torch.randn(64, 20, generator=g) if kind == "mlp" else torch.randn(16, 10, 32, generator=g)
    y = torch.randint(0, 3, (X.shape[0],), generator=g)
    X, y = X.to(dev), y.to(dev)
    losses = []
    for step in range(12):
        opt.zero_grad()
        loss = F.cross_entropy(model(X), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if sched: sched.step()
        losses.append(loss.item())
    return losses
kind, optname = which.split("-")
t = time.time(); c = run("cpu", kind, optname); t1 = time.time(); g = run("cuda", kind, optname); t2 = time.time()
worst = max(abs(a - b) / max(abs(a), 1e-6) for a, b in zip(c, g))
print(which, "worst rel", worst, "cuda %.1fs" % (t2 - t1))
for a, b in zip(c, g): print("%.6f %.6f" % (a, b))
sys.exit(0 if worst <= 1e-3 else 1)
