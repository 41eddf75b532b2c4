# OpWeave developer entry points. `make help` lists them.

# An interpreter that can import torch (Debian's python3-torch); the first python3 on PATH
# may be another one (pyenv) without it.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do $$p -c 'import torch' >/dev/null 2>&1 && { echo $$p; break; }; done)
ifeq ($(PYTHON),)
PYTHON := /usr/bin/python3
endif

AUTOCOMPARE ?= 0
SANITIZE ?= 0
BUILD_TYPE ?= Release
# Inside the torch 2.x root (.ci/torch2.sh sets OPWEAVE_TORCH_LANE) every build folder gets its
# own name, so the two lanes share the checkout without sharing objects.
LANE_SUFFIX := $(if $(filter torch2,$(OPWEAVE_TORCH_LANE)),-torch2)
ifeq ($(AUTOCOMPARE),1)
BUILD_DIR ?= build-autocompare$(LANE_SUFFIX)
else ifeq ($(SANITIZE),1)
BUILD_DIR ?= build-sanitize$(LANE_SUFFIX)
else
BUILD_DIR ?= build$(LANE_SUFFIX)
endif
DEFAULT_BUILD_DIR := $(abspath build$(LANE_SUFFIX))
AUTOCOMPARE_BUILD_DIR := $(DEFAULT_BUILD_DIR)/autocompare
CMAKE_FLAGS = -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DPython3_EXECUTABLE=$(PYTHON) \
  -DOPWEAVE_AUTOCOMPARE=$(if $(filter 1,$(AUTOCOMPARE)),ON,OFF) \
  -DOPWEAVE_SANITIZE=$(if $(filter 1,$(SANITIZE)),ON,OFF) $(SANITIZE_CMAKE_FLAGS) $(EXTRA_CMAKE_FLAGS)
# The sanitizer flavour leaves the CUDA vendor out: nvcc takes no sanitizer flags and none of
# that flavour's tests loads it (the default build compiles and links it).
SANITIZE_CMAKE_FLAGS = $(if $(filter 1,$(SANITIZE)),-DOPWEAVE_CUDA=OFF)
# OPWEAVE_SIM_PREBUILT=<a build's lib/>: use sim from another build of this checkout instead of
# compiling it (vendors/sim/CMakeLists.txt). Read when a build folder is configured; .ci/run
# gives the torch 2.6 lane the torch 1.13 lane's.
CMAKE_FLAGS += $(if $(OPWEAVE_SIM_PREBUILT),-DOPWEAVE_SIM_PREBUILT=$(OPWEAVE_SIM_PREBUILT))
# OPWEAVE_CUDA_ARCHITECTURES: the CUDA vendor's CMAKE_CUDA_ARCHITECTURES (default 90, H100);
# .ci/run, on a machine with no GPU, asks for 90-virtual (PTX only, see there).
CMAKE_FLAGS += $(if $(OPWEAVE_CUDA_ARCHITECTURES),-DCMAKE_CUDA_ARCHITECTURES=$(OPWEAVE_CUDA_ARCHITECTURES))
# OPWEAVE_UNITY_BUILD=1: the runtime's and sim's files compiled in batches (CMakeLists.txt;
# .ci/run: faster clean builds, slower one-file rebuilds).
CMAKE_FLAGS += $(if $(filter 1,$(OPWEAVE_UNITY_BUILD)),-DOPWEAVE_UNITY_BUILD=ON)
JOBS ?= $(shell nproc)
export OPWEAVE_BUILD_DIR := $(abspath $(BUILD_DIR))
export PYTHONPATH := $(abspath runtime/python):$(abspath .)$(if $(PYTHONPATH),:$(PYTHONPATH))

# python3-pip, python3-venv: `pip install .` into a fresh environment (tests/python/test_install.py).
# .ci/run installs this list; .ci/torch2.sh installs it in the torch 2.x root too.
DEBIAN_PACKAGES = libtorch-dev python3-torch python3-jinja2 python3-yaml python3-pytest python3-pytest-timeout \
  python3-pytest-xdist \
  python3-numpy cmake ninja-build g++ libgtest-dev clang-format ccache libopenblas-dev iproute2 \
  valgrind python3-pip python3-venv

print-packages:
	@echo $(DEBIAN_PACKAGES)

.PHONY: help setup gen check-gen configure build build-autocompare test test-python test-cpp \
  test-sanitize sanitize-python demo bench bench-build clean format

help:
	@echo "make setup      install the Debian packages OpWeave needs (root)"
	@echo "make gen        regenerate generated/ from specs/ops.yaml"
	@echo "make check-gen  fail if generated/ is stale"
	@echo "make build      build every native library into $(BUILD_DIR)/lib (AUTOCOMPARE=1: the compare flavour)"
	@echo "make build-autocompare  the compare twin of the build in $(BUILD_DIR)/autocompare/lib (only the compare sources again)"
	@echo "make test       codegen + python + C++ tests"
	@echo "make test-sanitize  the C++ tests and a Python subset under ASan + UBSan (build-sanitize/)"
	@echo "make demo       train the MLP demo on the sim device next to CPU"
	@echo "make golden     reference data for the conformance cases (ATen on CPU)"
	@echo "make conformance VENDOR=sim OP=regex DTYPE=float16  run a vendor's kernels at the C ABI"
	@echo "make report     support matrix: reports/support_matrix.{md,html}"
	@echo "make new-vendor NAME=foo  scaffold vendors/foo/ (seam + every kernel stub)"
	@echo "make bench      overhead and generation-time figures (bench/run.py)"
	@echo "make bench-build  clean-build and one-op-edit rebuild times"
	@echo "make test-torch2  the test suite against torch 2.6 (Debian 13 root, created once)"
	@echo "make torch2 CMD='...'  a command in the torch 2.6 root with the project built there"

setup:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(DEBIAN_PACKAGES)

gen:
	$(PYTHON) -m codegen gen

check-gen:
	$(PYTHON) -m codegen check

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure:
	cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

build: $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The compare twin of the default build, for the autocompare tests: build/autocompare/lib/
# libopweave.so (runtime/CMakeLists.txt: only the wrappers and the few runtime files that read
# OPWEAVE_AUTOCOMPARE are compiled again) with the default build's vendors linked beside it; they
# find it by soname.
build-autocompare: build
	cmake --build $(DEFAULT_BUILD_DIR) -j $(JOBS) --target opweave_autocompare
	ln -sf $(DEFAULT_BUILD_DIR)/lib/libopweave_vendor_*.so $(AUTOCOMPARE_BUILD_DIR)/lib/

# The Python suite on every core (python3-pytest-xdist; without it, one process), the distributed
# tests in one worker (xdist_group), then the tests marked `serial` alone: the instruction-count
# gate, whose sim counts depend on a quiet machine (pyproject.toml names the markers).
PYTEST_WORKERS ?= $(JOBS)
PYTEST_PARALLEL = $(shell $(PYTHON) -c "import xdist" 2>/dev/null && \
  echo "-n $(PYTEST_WORKERS) --dist loadgroup")

test-python: build build-autocompare
	OPWEAVE_AUTOCOMPARE_BUILD_DIR=$(AUTOCOMPARE_BUILD_DIR) \
	  $(PYTHON) -m pytest -q $(PYTEST_PARALLEL) -m "not serial" tests/python
	OPWEAVE_AUTOCOMPARE_BUILD_DIR=$(AUTOCOMPARE_BUILD_DIR) $(PYTHON) -m pytest -q -m serial tests/python

test-cpp: build
	cd $(BUILD_DIR) && ctest --output-on-failure --timeout 300 -j $(JOBS)

test: check-gen test-python test-cpp

# The sanitizer flavour (ASan + UBSan, build-sanitize/): every C++ test, then the Python tests
# that drive the most native code (PyTorch's OpInfo float32 passes on both vendors, copies,
# views, math bits, fallback, the C-ABI conformance runner) with the sanitizer runtimes
# preloaded into Debian's uninstrumented Python. Leak checking is off: CPython and libtorch
# keep their allocations until exit by design.
SANITIZE_PYTESTS = $(foreach v,sim aten_ref,"tests/python/test_opinfo.py::test_opinfo[float32-$(v)]") \
  tests/python/test_copies.py tests/python/test_views.py tests/python/test_math_bits.py \
  tests/python/test_fallback.py tests/python/test_errors.py tests/python/test_conformance_runner.py \
  tests/python/test_python_numbers.py
SANITIZER_RUNTIMES = $(shell $(CXX) -print-file-name=libasan.so) $(shell $(CXX) -print-file-name=libubsan.so)

test-sanitize:
	$(MAKE) --no-print-directory test-cpp SANITIZE=1
	$(MAKE) --no-print-directory sanitize-python SANITIZE=1

sanitize-python: build
	LD_PRELOAD="$(SANITIZER_RUNTIMES)" \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  $(PYTHON) -m pytest -q -p no:cacheprovider $(PYTEST_PARALLEL) $(SANITIZE_PYTESTS)

demo: build
	$(PYTHON) -m opweave.demo.mlp

bench: build
	$(PYTHON) bench/run.py

# Clean-build and one-op-edit rebuild times, in a temporary clone (about 10 minutes on 2 cores).
bench-build:
	$(PYTHON) bench/build_time.py

# ---------------------------------------------------------------- torch 2.x lane
# A Debian 13 root with Debian's torch 2.6, created once under the ignored .torch2/ (about two
# minutes; .ci/torch2.sh). The checkout is shared; builds go to build-torch2/ and friends.
#   make test-torch2                      the whole test suite against torch 2.6
#   make torch2 CMD='python3 -m opweave.demo.gpt'   any command, with the project built there
#                                         and PYTHONPATH / OPWEAVE_BUILD_DIR set as here
torch2-root:
	.ci/torch2.sh ensure

test-torch2:
	.ci/torch2.sh run make --no-print-directory test

torch2:
	@test -n "$$CMD" || { echo "usage: make torch2 CMD='command'" >&2; exit 2; }
	.ci/torch2.sh run make --no-print-directory build torch2-cmd

# Inside the root (called by `make torch2`): CMD with this Makefile's environment.
torch2-cmd:
	bash -c "$$CMD"

.PHONY: torch2-root test-torch2 torch2 torch2-cmd

format:
	find runtime vendors tests bench -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf build build-autocompare build-sanitize build-stripped build-torch2 \
	  build-autocompare-torch2 build-sanitize-torch2 build-stripped-torch2

# ---------------------------------------------------------------- conformance suite
# Cases: generated/conformance/ (make gen). Reference data: golden/ (ignored, make golden).
# Reports: reports/<vendor>/ and reports/support_matrix.{md,html} (ignored).
#   make conformance VENDOR=sim OP='diopiAdd.*' DTYPE=float16,bfloat16
#   make new-vendor NAME=foo
VENDOR ?= sim
OP ?=
DTYPE ?=
REFRESH ?= 1
CONFORMANCE_FILTERS = $(if $(OP),--op '$(OP)') $(if $(DTYPE),--dtype '$(DTYPE)')

.PHONY: golden conformance report new-vendor

golden: build
	$(PYTHON) -m opweave.conformance golden $(CONFORMANCE_FILTERS)

conformance: golden
	$(PYTHON) -m opweave.conformance run --vendor $(VENDOR) $(CONFORMANCE_FILTERS)

report: golden
	$(PYTHON) -m opweave.conformance report $(if $(filter 1,$(REFRESH)),--refresh,--run-missing)

new-vendor:
	@test -n "$(NAME)" || { echo "usage: make new-vendor NAME=<vendor name>" >&2; exit 2; }
	$(PYTHON) -m codegen new-vendor $(NAME)
