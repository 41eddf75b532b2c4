"""The sim's streams are really asynchronous: with OPWEAVE_SIM_DELAY_US a missing synchronize
shows up as stale data, deterministically."""

CODE = """
    import torch, opweave
    x = torch.arange(1, 1001, dtype=torch.float32)
    d = x.to(opweave.DEVICE)                  # blocking: waits for the upload
    out = torch.zeros(1000)
    out.copy_(d, non_blocking=True)            # queued behind a 200 ms task latency
    print("before", out.sum().item())          # BUG being demonstrated: no synchronize
    print("busy", not opweave.current_stream().query())
    opweave.synchronize()
    print("after", out.sum().item())
    print("idle", opweave.current_stream().query())
"""


def test_missing_synchronize_is_observable(run_python):
    r = run_python(CODE, OPWEAVE_SIM_DELAY_US="200000")
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert lines["before"] == "0.0", "the copy finished before synchronize: not asynchronous"
    assert lines["busy"] == "True"
    assert lines["after"] == "500500.0"
    assert lines["idle"] == "True"


def test_blocking_copy_needs_no_synchronize(run_python):
    r = run_python("""
        import torch, opweave
        d = torch.arange(1, 1001, dtype=torch.float32).to(opweave.DEVICE)
        print(d.cpu().sum().item())
    """, OPWEAVE_SIM_DELAY_US="50000")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "500500.0"
