"""cuda_api.py - torch.cuda behaviour on the NPU: device properties, streams and events
(elapsed_time), synchronize, the caching allocator's counters, empty_cache, mem_get_info,
pinned memory with non_blocking copies, manual_seed reproducibility, and mixed precision
(autocast fp16/bf16 with GradScaler: matmuls in 16-bit with f32 accumulation)."""
import torch
import torch.nn.functional as F

assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
p = torch.cuda.get_device_properties(0)
assert (p.major, p.minor) == torch.cuda.get_device_capability(0) == (8, 0), (p.major, p.minor)
assert p.total_memory > 0 and p.multi_processor_count > 0

# streams and events
s = torch.cuda.Stream()
a = torch.randn(256, 256, device="cuda")
e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s.wait_stream(torch.cuda.current_stream())          # a is made on the default stream
with torch.cuda.stream(s):
    e0.record()
    b = a @ a
    e1.record()
s.synchronize()
assert e1.query() and e0.elapsed_time(e1) >= 0.0
torch.cuda.current_stream().wait_stream(s)
torch.testing.assert_close(b.cpu(), a.cpu() @ a.cpu(), rtol=1e-4, atol=1e-3)
torch.cuda.synchronize()

# the caching allocator
torch.cuda.empty_cache()
base = torch.cuda.memory_allocated()
x = torch.empty(1 << 20, device="cuda")            # 4 MiB
assert torch.cuda.memory_allocated() - base == 4 << 20
assert torch.cuda.memory_reserved() >= torch.cuda.memory_allocated()
peak = torch.cuda.max_memory_allocated()
del x
assert torch.cuda.memory_allocated() == base and torch.cuda.max_memory_allocated() == peak
torch.cuda.empty_cache()
free, total = torch.cuda.mem_get_info()
assert 0 < free <= total

# pinned memory, non_blocking copies both ways
h = torch.arange(1 << 16, dtype=torch.float32).pin_memory()
assert h.is_pinned()
d = h.to("cuda", non_blocking=True)
back = torch.empty_like(h).pin_memory()
back.copy_(d * 2, non_blocking=True)
torch.cuda.synchronize()
assert torch.equal(back, h * 2)

# manual_seed: the same numbers run to run, different ones for another seed
torch.manual_seed(123); r1 = torch.randn(1000, device="cuda").cpu()
torch.manual_seed(123); r2 = torch.randn(1000, device="cuda").cpu()
torch.manual_seed(124); r3 = torch.randn(1000, device="cuda").cpu()
assert torch.equal(r1, r2) and not torch.equal(r1, r3)
assert abs(r1.mean().item()) < 0.15 and abs(r1.std().item() - 1) < 0.1

# autocast + GradScaler: a 16-bit matmul is the CPU's f32 product of the 16-bit-rounded inputs
for dt in (torch.float16, torch.bfloat16):
    g = torch.Generator().manual_seed(5)
    A, B = torch.randn(64, 96, generator=g), torch.randn(96, 48, generator=g)
    with torch.autocast("cuda", dtype=dt):
        C = A.cuda() @ B.cuda()
    assert C.dtype == dt
    ref = (A.to(dt).float() @ B.to(dt).float()).to(dt).float()
    torch.testing.assert_close(C.float().cpu(), ref, rtol=1e-2, atol=1e-2)
def amp_train(dev):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    scaler = torch.amp.GradScaler(dev, enabled=dev == "cuda")
    g = torch.Generator().manual_seed(9)
    X, y = torch.randn(128, 32, generator=g).to(dev), torch.randint(0, 4, (128,), generator=g).to(dev)
    losses = []
    for _ in range(15):
        opt.zero_grad()
        with torch.autocast(dev, dtype=torch.float16, enabled=dev == "cuda"):
            loss = F.cross_entropy(model(X), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    return losses, scaler.get_scale() if dev == "cuda" else 1.0
lc, _ = amp_train("cpu")
losses, scale = amp_train("cuda")
worst = max(abs(a - b) / abs(a) for a, b in zip(lc, losses))
assert worst < 2e-2, (worst, lc, losses)        # fp16 matmuls against the CPU's f32 training
assert losses[-1] < losses[0] and scale > 0, (losses, scale)
print("torch.cuda behaviour ok; amp losses %.4f -> %.4f (CPU f32 %.4f -> %.4f, worst rel %.2g)"
      % (losses[0], losses[-1], lc[0], lc[-1], worst))
