"""OpCapture: real inputs, outputs and output gradients on disk, safe format, filters, limits."""

import json

import pytest
import torch
import torch.nn.functional as F

from opweave.tools import OpCapture, record, tensorfile
from opweave.tools.capture import parse_size, read_index, records


def small_net(dev, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(8, 6, generator=g).to(dev)
    w = torch.randn(4, 6, generator=g).to(dev).requires_grad_()
    b = torch.randn(4, generator=g).to(dev).requires_grad_()
    return x, w, b


def test_capture_saves_inputs_outputs_and_output_gradients(tmp_path, dev0):
    x, w, b = small_net(dev0)
    with OpCapture(str(tmp_path), progress=False) as cap:
        h = F.linear(x, w, b)
        loss = F.relu(h).sum()
    loss.backward()
    assert cap.calls == {"torch.nn.functional.linear": 1, "torch.nn.functional.relu": 1,
                         "torch.Tensor.sum": 1}
    index = read_index(str(tmp_path))
    calls = [e for e in index if e["kind"] == "call"]
    assert [e["op"] for e in calls] == ["torch.nn.functional.linear", "torch.nn.functional.relu",
                                        "torch.Tensor.sum"]
    assert calls[0]["inputs"] == [["float32", [8, 6]], ["float32", [4, 6]], ["float32", [4]]]
    header = json.loads((tmp_path / "capture.json").read_text())
    assert header["format"] == "opweave-capture-1" and header["vendor"] == "sim"

    lin = record.Record(str(tmp_path / calls[0]["file"]))
    assert lin.op == "torch.nn.functional.linear" and lin.replayable
    assert torch.equal(lin.tensors["in.0"], x.cpu()) and torch.equal(lin.tensors["in.1"], w.detach().cpu())
    assert torch.equal(lin.tensors["out.0"], h.detach().cpu())
    assert lin.info["in.1"]["requires_grad"] and not lin.info["in.0"]["requires_grad"]
    # gradient reaching linear's output = relu'(h) * 1 (the output of sum gets ones)
    grads = lin.grad_outputs()
    assert list(grads) == [0]
    assert torch.equal(grads[0], (h.detach().cpu() > 0).float())
    kinds = [e["kind"] for e in index]
    assert kinds.count("grad_out") == 3
    # the file is the safetensors layout: u64 header length, JSON header, raw bytes
    blob = (tmp_path / calls[0]["file"]).read_bytes()
    n = int.from_bytes(blob[:8], "little")
    assert blob[8:9] == b"{" and json.loads(blob[8:8 + n])["__metadata__"]["format"] == record.FORMAT


def test_inputs_are_saved_before_an_inplace_op_changes_them(tmp_path, dev0):
    a = torch.tensor([1.0, 2.0, 3.0]).to(dev0)
    with OpCapture(str(tmp_path), progress=False):
        a.mul_(10)
    rec = record.Record(records(str(tmp_path))[0])
    assert rec.tensors["in.0"].tolist() == [1.0, 2.0, 3.0]
    assert rec.tensors["out.0"].tolist() == [10.0, 20.0, 30.0]


def test_strides_and_bfloat16_are_kept(tmp_path, dev0):
    m = torch.randn(5, 3).to(dev0)
    bf = torch.randn(4, 4).to(torch.bfloat16).to(dev0)
    with OpCapture(str(tmp_path), progress=False):
        torch.mm(torch.randn(2, 5).to(dev0), m.t().t())          # contiguous
        m.t().exp()                                             # a transposed input
        m[:, 1:].neg()
        m.sub(m[0].expand(5, 3))
        bf + bf
    rec = record.Record(records(str(tmp_path), op="torch.mm")[0])
    assert rec.info["in.1"]["stride"] == [3, 1]
    rec = record.Record(records(str(tmp_path), op="exp")[0])
    assert rec.info["in.0"]["stride"] == [1, 3]
    rebuilt = record.build_inputs(rec, dev0)["in.0"]
    assert rebuilt.stride() == (1, 3) and torch.equal(rebuilt.cpu(), m.t().cpu())
    rec = record.Record(records(str(tmp_path), op="torch.Tensor.neg")[0])
    sliced = record.build_inputs(rec, dev0)["in.0"]         # a column slice: offset 1
    assert (sliced.stride(), sliced.storage_offset()) == ((3, 1), 1)
    assert torch.equal(sliced.cpu(), m[:, 1:].cpu())
    rec = record.Record(records(str(tmp_path), op="torch.Tensor.sub")[0])
    expanded = record.build_inputs(rec, dev0)["in.1"]       # broadcast: stride 0 kept
    assert expanded.stride() == (0, 1) and torch.equal(expanded.cpu(), m[0].expand(5, 3).cpu())
    rec = record.Record(records(str(tmp_path), op="torch.Tensor.add")[0])
    assert rec.tensors["in.0"].dtype == torch.bfloat16
    assert torch.equal(rec.tensors["in.0"].view(torch.int16), bf.cpu().view(torch.int16))
    assert rec.call["args"] == [{"T": "in.0"}, {"T": "in.0"}]      # same tensor twice, stored once


def test_include_exclude_and_per_op_limit(tmp_path, dev0):
    x = torch.ones(4, device=dev0)
    with OpCapture(str(tmp_path / "a"), include="exp,sin", exclude="sin", progress=False) as c:
        x.exp(), x.sin(), x.cos(), x.exp()
    assert c.calls == {"torch.Tensor.exp": 2}
    with OpCapture(str(tmp_path / "b"), max_calls_per_op=1, progress=False) as c:
        for _ in range(3):
            x.exp()
            x.cos()
    assert c.calls == {"torch.Tensor.exp": 1, "torch.Tensor.cos": 1}


def test_size_cap(tmp_path, dev0):
    x = torch.ones(1000, device=dev0)                 # ~8 KB per record (in + out)
    with OpCapture(str(tmp_path), max_bytes="20K", progress=False) as c:
        for _ in range(5):
            x.exp()
    assert c.bytes <= 20 * 1024 and c.files == 2
    index = read_index(str(tmp_path))
    assert [e["kind"] for e in index] == ["call", "call", "skipped", "skipped", "skipped"]
    assert "size cap" in index[-1]["reason"]
    assert len(list(tmp_path.glob("*.safetensors"))) == 2


def test_a_new_capture_replaces_the_old_one(tmp_path, dev0):
    x = torch.ones(4, device=dev0)
    with OpCapture(str(tmp_path), progress=False):
        x.exp(), x.sin()
    with OpCapture(str(tmp_path), progress=False):
        x.cos()
    assert [e["op"] for e in read_index(str(tmp_path))] == ["torch.Tensor.cos"]
    assert len(list(tmp_path.glob("*.safetensors"))) == 1


def test_environment_settings(monkeypatch, tmp_path, dev0):
    monkeypatch.setenv("OPWEAVE_TOOLS_CAPTURE_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("OPWEAVE_TOOLS_CAPTURE_INCLUDE", "neg")
    monkeypatch.setenv("OPWEAVE_TOOLS_CAPTURE_MAX_BYTES", "1M")
    c = OpCapture(progress=False)
    assert c.max_bytes == 1 << 20
    with c:
        torch.ones(2, device=dev0).neg().exp()
    assert c.calls == {"torch.Tensor.neg": 1}
    assert (tmp_path / "env" / "index.jsonl").exists()
    assert parse_size("1.5K") == 1536 and parse_size(4096) == 4096
    with pytest.raises(ValueError):
        parse_size("lots")


def test_records_refuse_what_they_cannot_trust(tmp_path):
    bad = tmp_path / "000001-x.safetensors"
    bad.write_bytes(b"\x80\x04\x95pickle")
    with pytest.raises(tensorfile.TensorFileError):
        record.Record(str(bad))
    tensorfile.save(str(bad), {"in.0": torch.ones(1)}, {"format": "something-else"})
    with pytest.raises(record.RecordError, match="not an op record"):
        record.Record(str(bad))
    with pytest.raises(record.RecordError):
        record.resolve_function("os.system")
    with pytest.raises(record.RecordError):
        record.resolve_function("torch.__import__('os')")
