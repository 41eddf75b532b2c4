#!/usr/bin/env bash
# The CUDA vendor's whole GPU run in one command, for the lent H100 (pip torch 2.x + cu130,
# nvcc 13, CMake, ninja, pytest; no Debian packages, no OpenBLAS, no GoogleTest):
#
#   tests/gpu/run.sh            # from the repository root; logs and figures under $OUT
#
# 1. builds libopweave + vendors/cuda against the installed torch (build-gpu/);
# 2. runs the conformance suite for the CUDA vendor (every case of every function, all dtypes,
#    transposed / sliced / empty ones) and keeps its report (pass counts per function and dtype);
# 3. runs the GPU tests (hot ops vs CPU per dtype and layout; MLP / GPT / ResNet losses vs CPU
#    with their fallback counts);
# 4. times training steps, OpWeave's CUDA vendor against native torch CUDA on the same GPU.
# Every step runs even if an earlier one failed; the summary at the end says which did.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}   # what comes back: at most 8 files (device tool limit), listed below
WORK=$PWD/gpu-work          # everything else (golden data, reports, per-test JSON)
mkdir -p "$OUT" "$WORK"
PY=${PYTHON:-$(command -v python3)}
BUILD=$PWD/build-gpu
export OPWEAVE_BUILD_DIR=$BUILD PYTHONPATH=$PWD/runtime/python:$PWD OPWEAVE_VENDOR=cuda
status=()
step() {  # step NAME LOG COMMAND...: runs, appends to $OUT/LOG, remembers the exit status
  local name=$1 log=$2
  shift 2
  local start=$SECONDS
  echo "== $name: $*" >>"$OUT/$log"
  "$@" >>"$OUT/$log" 2>&1
  local rc=$?
  status+=("$name: rc=$rc in $((SECONDS - start)) s (log $log)")
  return $rc
}

# The system's g++ when its libstdc++ is the one the Python process loads. The image sets
# CXX=/opt/gcc/bin/g++, a wrapper (-B/opt/gcc/...) that put libstdc++'s own code (codecvt,
# ostream internals, as local symbols) into libopweave, which then ran it against the loaded
# libstdc++.so: `import opweave` died with SIGSEGV in std::ostream's number output
# (report_op), 2026-11-28 on the H200. Built with /usr/bin/g++ it imports and the conformance
# suite runs. $CXX is the last choice, for machines without a system g++.
loaded=$("$PY" -c "import torch; print(next(l.split()[-1] for l in open('/proc/self/maps') if 'libstdc++' in l))")
CXX_MATCH=
for cxx in /usr/bin/g++ "$(command -v g++)" "${CXX:-}"; do
  [ -n "$cxx" ] && [ -x "$cxx" ] || continue
  if [ "$(readlink -f "$("$cxx" -print-file-name=libstdc++.so.6)")" = "$(readlink -f "$loaded")" ]; then
    CXX_MATCH=$cxx
    break
  fi
done
echo "libstdc++ in use: $loaded; C++ compiler: ${CXX_MATCH:-none matches, CMake default}" >>"$OUT/build.log"
compiler=()
[ -n "$CXX_MATCH" ] && compiler=(-DCMAKE_CXX_COMPILER="$CXX_MATCH" -DCMAKE_CUDA_HOST_COMPILER="$CXX_MATCH")

# $OUT: summary.txt build.log conformance.log pytest.log bench.json conformance.json
step configure build.log cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler[@]}" \
  -DPython3_EXECUTABLE="$PY" -DCMAKE_PREFIX_PATH="$("$PY" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')" \
  -DOPWEAVE_CUDA=ON -DOPWEAVE_VENDORS=cuda -DOPWEAVE_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 &&
  step build build.log cmake --build "$BUILD" -j "$(nproc)"

if [ -f "$BUILD/lib/libopweave_vendor_cuda.so" ]; then
  export OPWEAVE_GOLDEN_DIR=$WORK/golden OPWEAVE_REPORTS_DIR=$WORK/reports
  step golden conformance.log "$PY" -m opweave.conformance golden
  step conformance conformance.log "$PY" -m opweave.conformance run --vendor cuda --fresh \
    --no-save-failures
  cp "$WORK/reports/cuda/conformance.json" "$OUT/" 2>/dev/null
  step gpu-tests pytest.log env OPWEAVE_GPU_REPORT="$WORK/tests" "$PY" -m pytest -q -rs \
    tests/python/test_cuda_device.py tests/python/test_cuda_vendor.py
  "$PY" bench/cuda_training.py >"$WORK/bench.json" 2>"$OUT/bench.log.txt"
  status+=("bench: rc=$?")
  cp "$WORK/bench.json" "$OUT/bench.json"
fi

{
  echo "== OpWeave CUDA vendor GPU run"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
  "$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  nvcc --version | tail -1
  printf '%s\n' "${status[@]}"
  "$PY" -c 'import opweave; opweave.print_report()' 2>&1 | head -20
  "$PY" tests/gpu/summary.py "$WORK"
} >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt" | head -150
