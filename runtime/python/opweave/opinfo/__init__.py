"""PyTorch's OpInfo database run against the OpWeave device: every op's sample inputs on the CPU
and on the device, compared.

PyTorch tests each backend with `torch.testing._internal.common_methods_invocations.op_db`
(shipped with python3-torch). This package runs it as a peer test of the device:

- `worker`   runs a list of ops in one process and prints one JSON line per op (and a
             "start" line before each, so a crash is pinned on the op that caused it).
- `driver`   spreads the ops over worker processes, restarts a worker that dies or hangs and
             records `crash` / `hang` against the op in flight.
- `compare`  what "the same result" means: dtype, shape and values within a per-dtype
             tolerance; shape and dtype only for ops whose output is random.
- `expected` the expected outcome of each op as data (tests/opinfo/expected/), how a run is
             checked against it (a regression fails, an improvement is reported) and updated.

    python3 -m opweave.opinfo --dtype float32 --mode forward          # the current vendor
    python3 -m opweave.opinfo --check                                  # every config vs data

Configurations (`--mode`): forward, grad (input gradients of a weighted sum of the outputs),
noncontig (the non-contiguous variant of every sample). The vendor is OPWEAVE_VENDOR's.
"""

# Outcomes, best first. A run is a regression where an op's outcome is worse than recorded.
OUTCOMES = ("pass", "fallback", "skip", "error", "mismatch", "hang", "crash")
RANK = {name: i for i, name in enumerate(OUTCOMES)}
