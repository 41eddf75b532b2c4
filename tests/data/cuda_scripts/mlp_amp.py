"""An MLP trained the way CUDA training scripts are written: .cuda(), a pinned DataLoader,
non_blocking copies, torch.cuda.amp autocast with GradScaler, CUDA events and synchronize.
Nothing here knows about OpWeave (tests/python/test_cuda_compat.py runs it unchanged)."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.backends.cudnn.benchmark = True
assert torch.cuda.is_available(), "this script needs a GPU"
device = torch.device("cuda")
torch.manual_seed(0)
torch.cuda.manual_seed_all(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                      nn.Linear(64, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.cuda.amp.GradScaler()

g = torch.Generator().manual_seed(1)
x, y = torch.randn(512, 32, generator=g), torch.randint(0, 10, (512,), generator=g)
loader = DataLoader(TensorDataset(x, y), batch_size=64, pin_memory=True)

start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
losses = []
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.cuda(non_blocking=True), yb.to(device, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        with torch.cuda.amp.autocast():
            loss = F.cross_entropy(model(xb), yb)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
end.record()
torch.cuda.synchronize()
assert all(p.is_cuda for p in model.parameters())
print(json.dumps({"losses": losses, "ms": start.elapsed_time(end),
                  "max_memory_allocated": torch.cuda.max_memory_allocated(),
                  "pinned": bool(next(iter(loader))[0].is_pinned())}))
