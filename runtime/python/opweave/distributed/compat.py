"""Work-arounds for two packaging bugs of the Debian torch builds (see opweave.distributed.run).

`honour_use_libuv()`: Debian 13's torch 2.6 is built without libuv, yet TCPStore defaults to it,
and torch's own USE_LIBUV=0 switch is not passed on by the paths torchrun uses (its rendezvous
stores and the workers' agent-store clients). With USE_LIBUV=0 set, those modules get a TCPStore
that defaults to use_libuv=False. Nothing changes otherwise.

`parse_default_redirects()`: Debian 12's torch 1.13 on Python 3.11 parses torchrun's default
`--redirects 0` as None (IntFlag iteration skips the zero member) and the launcher crashes;
a None redirect setting then means "no redirection".
"""

from __future__ import annotations

import functools
import importlib
import os

import torch.distributed as dist


def honour_use_libuv() -> None:
    if os.environ.get("USE_LIBUV") != "0" or "use_libuv" not in (dist.TCPStore.__init__.__doc__ or ""):
        return
    store = functools.partial(dist.TCPStore, use_libuv=False)
    # (torch.distributed.rendezvous is also the name of a function there: import by path)
    for name in ("torch.distributed.rendezvous",
                 "torch.distributed.elastic.rendezvous.c10d_rendezvous_backend",
                 "torch.distributed.elastic.rendezvous.static_tcp_rendezvous"):
        importlib.import_module(name).TCPStore = store


def parse_default_redirects() -> None:
    from torch.distributed.elastic import multiprocessing as mp
    from torch.distributed.elastic.multiprocessing import api

    if api.Std.from_str("0") is not None:
        return
    to_map = api.to_map
    api.to_map = mp.to_map = lambda value, n: to_map(api.Std.NONE if value is None else value, n)
