"""A small CNN in ordinary CUDA style: module.cuda(), tensors created with device="cuda",
torch.autocast("cuda", dtype=torch.bfloat16), memory statistics and torch.cuda.synchronize.
Nothing here knows about OpWeave (tests/python/test_cuda_compat.py runs it unchanged)."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.backends.cudnn.deterministic = True
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))


model = Net().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
torch.cuda.reset_peak_memory_stats()
g = torch.Generator().manual_seed(2)
images = torch.randn(64, 3, 16, 16, generator=g)
labels = torch.randint(0, 10, (64,), generator=g)
losses = []
for step in range(6):
    xb = images[step % 4 * 16:(step % 4 + 1) * 16].to("cuda:0")
    yb = torch.zeros(16, dtype=torch.long, device="cuda")
    yb.copy_(labels[step % 4 * 16:(step % 4 + 1) * 16])
    opt.zero_grad()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        out = model(xb)
        loss = F.cross_entropy(out.float(), yb)
    loss.backward()
    opt.step()
    losses.append(loss.item())
torch.cuda.synchronize()
assert xb.is_cuda and out.is_cuda and loss.is_cuda
print(json.dumps({"losses": losses, "peak": torch.cuda.max_memory_allocated(),
                  "device_name": torch.cuda.get_device_name()}))
