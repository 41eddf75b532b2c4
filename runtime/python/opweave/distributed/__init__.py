"""torch.distributed on OpWeave devices: the `opweave` c10d backend (see backend.py).

    import opweave, torch.distributed as dist
    dist.init_process_group("opweave")          # or "cpu:gloo,opweave:opweave" on torch 2.x
    model = DistributedDataParallel(model.to(opweave.device(local_rank)))

Registered by `import opweave`.
"""

from . import compat
from .backend import NAME, ProcessGroupOpWeave  # noqa: F401
from .backend import register as _register_backend


def register() -> None:
    """Registers the backend (idempotent); with USE_LIBUV=0 set, torchrun's stores honour it
    (opweave.distributed.compat)."""
    compat.honour_use_libuv()
    _register_backend()
