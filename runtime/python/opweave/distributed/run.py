"""torchrun with OpWeave imported first, so torch 2.x's launcher can count the devices:

    python3 -m opweave.distributed.run --nproc-per-node=opweave -m opweave.demo.ddp

(`--nproc-per-node=<device name>` and `auto` ask the device module for device_count(); torch 1.13's
launcher knows no such values: give a number there.)
"""

import opweave  # noqa: F401  (registers the device module torch.distributed.run queries)
from torch.distributed.run import main

if __name__ == "__main__":
    main()
