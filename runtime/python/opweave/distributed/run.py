"""torchrun with OpWeave imported first, so that torch 2.x's launcher can count the devices:

    python3 -m opweave.distributed.run --nproc-per-node=opweave -m opweave.demo.ddp

`--nproc-per-node=<device name>` and `auto` ask the device module for device_count() on torch
2.x; torch 1.13's launcher knows no such values (give a number there).

It also works around two packaging bugs of the Debian torch builds where they show
(opweave.distributed.compat): a torch built without libuv gets USE_LIBUV=0 for the launcher
and its workers, and that setting is honoured by torchrun's stores; torch 1.13's crash on the
default `--redirects` under Python 3.11 is avoided.
"""

from __future__ import annotations

import datetime
import os

import torch.distributed as dist

import opweave  # noqa: F401  (registers the device module torch.distributed.run queries)
from opweave.distributed import compat


def _libuv_missing() -> bool:
    try:
        dist.TCPStore("127.0.0.1", 0, 1, True, timeout=datetime.timedelta(seconds=5),
                      use_libuv=True)
    except TypeError:  # torch 1.13: no libuv option at all
        return False
    except RuntimeError as e:
        return "libuv" in str(e)
    return False


def main() -> None:
    if _libuv_missing():
        os.environ["USE_LIBUV"] = "0"  # the workers inherit it (and import opweave)
    compat.honour_use_libuv()
    compat.parse_default_redirects()
    from torch.distributed.run import main as torchrun

    torchrun()


if __name__ == "__main__":
    main()
