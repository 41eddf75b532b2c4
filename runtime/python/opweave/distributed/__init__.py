"""torch.distributed on OpWeave devices: the `opweave` c10d backend (see backend.py).

    import opweave, torch.distributed as dist
    dist.init_process_group("opweave")          # or "cpu:gloo,opweave:opweave" on torch 2.x
    model = DistributedDataParallel(model.to(opweave.device(local_rank)))

Registered by `import opweave`.
"""

from .backend import NAME, ProcessGroupOpWeave, register  # noqa: F401
