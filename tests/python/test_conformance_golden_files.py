"""Golden tensor files keep every dtype, and the loader refuses anything but a clean file."""

import json
import pickle
import struct

import pytest
import torch

from opweave.conformance import cases, golden, paths, tensorfile
from opweave.conformance.tensorfile import TensorFileError
from opweave.device_module import TORCH2


@pytest.fixture(scope="module")
def cat():
    return cases.Catalogue()


def sample():
    g = torch.Generator().manual_seed(0)
    return {
        "bf16": torch.randn(3, 4, generator=g).to(torch.bfloat16),
        "f16": torch.randn(5, generator=g).half(),
        "f32_t": torch.randn(4, 3, generator=g).t(),          # non-contiguous in, contiguous out
        "f64": torch.tensor(3.5, dtype=torch.float64),         # 0-dim
        "i8": torch.tensor([-128, 0, 127], dtype=torch.int8),
        "u8": torch.tensor([0, 255], dtype=torch.uint8),
        "i16": torch.tensor([[-3]], dtype=torch.int16),
        "i32": torch.arange(6, dtype=torch.int32).reshape(2, 3),
        "i64": torch.tensor([2 ** 40, -1]),
        "b": torch.tensor([True, False, True]),
        "empty": torch.empty(0, 3),
        "nan": torch.tensor([float("nan"), float("inf"), -0.0]),
    }


def test_round_trip_keeps_dtype_shape_and_bits(tmp_path):
    path = str(tmp_path / "t.safetensors")
    tensorfile.save(path, sample(), {"torch": torch.__version__, "case": "x"})
    back, meta = tensorfile.load(path)
    assert meta == {"torch": torch.__version__, "case": "x"}
    for name, t in sample().items():
        assert back[name].dtype == t.dtype and back[name].shape == t.shape, name
        bits = {2: torch.int16, 4: torch.int32, 8: torch.int64}
        if t.dtype.is_floating_point:   # bit-exact: NaN payloads, -0.0
            assert torch.equal(back[name].reshape(-1).view(bits[t.element_size()]),
                               t.reshape(-1).view(bits[t.element_size()])), name
        else:
            assert torch.equal(back[name], t), name
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert header["bf16"]["dtype"] == "BF16" and header["bf16"]["shape"] == [3, 4]


def craft(header: dict, data: bytes = b"", length=None) -> bytes:
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text) if length is None else length) + text + data


@pytest.mark.parametrize("blob, message", [
    (b"\x80\x04", "too short"),
    (craft({}, length=1 << 40), "out of range"),
    (craft({}, length=4096), "runs past the end"),
    (craft({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 4),
     "outside the data section"),
    (craft({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 1 << 62]}}, b"\0" * 8),
     "outside the data section"),
    (craft({"x": {"dtype": "F32", "shape": [2], "data_offsets": [-8, 0]}}, b"\0" * 8),
     "outside the data section"),
    (craft({"x": {"dtype": "F32", "shape": [1 << 30, 1 << 30], "data_offsets": [0, 8]}},
           b"\0" * 8), "bad shape"),
    (craft({"x": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, b"\0" * 8), "needs 12"),
    (craft({"x": {"dtype": "PyObject", "shape": [1], "data_offsets": [0, 8]}}, b"\0" * 8),
     "unknown dtype"),
    (craft({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
            "y": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"\0" * 8), "overlap"),
    (craft({"x": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 8),
     "trailing bytes"),
    (craft({"x": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4], "code": "os.system"}},
           b"\0" * 4), "exactly dtype"),
    (craft({"__metadata__": {"a": 1}}), "strings to strings"),
    (struct.pack("<Q", 2) + b"[]", "not a JSON object"),
    (struct.pack("<Q", 13) + b'{"a":1,"a":2}', "duplicate key"),
    (struct.pack("<Q", 26) + b'{"__metadata__":{"a":NaN}}', "non-standard JSON"),
    (craft({"x": {"dtype": "BOOL", "shape": [1], "data_offsets": [0, 1]}}, b"\x07"), "bool"),
])
def test_loader_refuses_crafted_files(blob, message):
    with pytest.raises(TensorFileError, match=message):
        tensorfile.loads(blob)


class _Exploit:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_loader_refuses_pickles_without_running_them(tmp_path):
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.safetensors"
    evil.write_bytes(pickle.dumps({"in.input": _Exploit(str(marker))}))
    torch_file = tmp_path / "torch.safetensors"
    torch.save({"in.input": torch.ones(2)}, str(torch_file))
    for path in (evil, torch_file):
        with pytest.raises(TensorFileError):
            tensorfile.load(str(path))
    assert not marker.exists()


def test_golden_loader_refuses_stale_or_foreign_data(cat, tmp_path, monkeypatch):
    monkeypatch.setenv("OPWEAVE_GOLDEN_DIR", str(tmp_path))
    case = cat.select(op="diopiAdd", dtype="bfloat16", case="-base-")[0]
    with pytest.raises(golden.GoldenError, match="make golden"):
        golden.load(case)
    assert golden.generate_case(cat, case) == "ok"
    tensors, meta = golden.load(case)
    assert tensors["in.input"].dtype == torch.bfloat16 and tensors["ref.out"].dtype == torch.bfloat16
    assert meta["torch"] == torch.__version__ and meta["reference"] == "aten-cpu"
    assert torch.equal(tensors["ref.out"],
                       torch.add(tensors["in.input"], tensors["in.other"],
                                 alpha=case.spec["attrs"]["alpha"]))
    assert golden.is_current(case)
    path = paths.golden_path(case)
    t, m = tensorfile.load(path)
    tensorfile.save(path, t, {**m, "case": m["case"].replace("bfloat16", "float16")})
    assert not golden.is_current(case)
    with pytest.raises(golden.GoldenError, match="stale"):
        golden.load(case)
    tensorfile.save(path, t, {**m, "torch": "0.0.1"})
    with pytest.raises(golden.GoldenError, match="torch 0.0.1"):
        golden.load(case)
    with open(path, "r+b") as f:                  # a corrupted header
        f.write(struct.pack("<Q", 1 << 50))
    with pytest.raises(TensorFileError):
        golden.load(case)


def test_inputs_are_deterministic_per_case_id_and_backward_sees_the_forward(cat):
    from opweave.conformance import reference
    case = cat.select(op="diopiSigmoidBackward", dtype="float32", case="-large-")[0]
    a_in, a_ref, how = reference.make_case(cat, case)
    b_in, b_ref, _ = reference.make_case(cat, case)
    assert all(torch.equal(a_in[k], b_in[k]) for k in a_in)
    assert torch.equal(a_ref["grad_input"], b_ref["grad_input"])
    out = a_in["output"]
    assert 0 < float(out.min()) and float(out.max()) < 1     # a real sigmoid output
    assert torch.allclose(a_ref["grad_input"], a_in["grad_output"] * (1 - out) * out)


# An op whose CPU kernel rejects float16 on the installed torch: torch 1.13 lacks most of them
# (sigmoid among them); torch 2.x has almost all, smooth_l1_loss's backward still missing.
if TORCH2:
    NO_CPU_FLOAT16 = ("diopiSmoothL1LossBackward", "grad_input",
                      lambda i, a: torch.ops.aten.smooth_l1_loss_backward(
                          i["grad_output"], i["input"], i["target"], a["reduction"], a["beta"]))
else:
    NO_CPU_FLOAT16 = ("diopiSigmoid", "out", lambda i, a: torch.sigmoid(i["input"]))


def test_float16_reference_without_a_cpu_kernel_is_computed_in_float32_and_rounded(cat):
    from opweave.conformance import reference
    fn, out, op = NO_CPU_FLOAT16
    case = cat.select(op=fn, dtype="float16", case="-base-")[0]
    inputs, expected, how = reference.make_case(cat, case)
    attrs = case.spec.get("attrs", {})
    with pytest.raises(RuntimeError, match="Half"):   # the CPU really lacks the kernel
        op(inputs, attrs)
    assert how == "aten-cpu-float32-rounded"
    assert expected[out].dtype == torch.float16
    as_float = {k: v.float() if v.is_floating_point() else v for k, v in inputs.items()}
    assert torch.equal(expected[out], op(as_float, attrs).half())


def test_parsed_family_cache_is_checked_against_the_yaml(tmp_path, monkeypatch):
    monkeypatch.setenv("OPWEAVE_BUILD_DIR", str(tmp_path / "build"))
    family = tmp_path / "fam.yaml"
    family.write_text("family: first\nfunctions: []\n")
    assert cases._load_family(str(family))["family"] == "first"
    entry = tmp_path / "build" / "conformance-cases" / "fam.yaml.pickle"
    assert entry.is_file()
    family.write_text("family: second\nfunctions: []\n")  # an edit: the entry is stale
    assert cases._load_family(str(family))["family"] == "second"
    entry.write_bytes(b"not a pickle")  # a damaged entry is a miss, not an error
    assert cases._load_family(str(family))["family"] == "second"
    assert cases._load_family(str(family))["family"] == "second"  # and was written again
