#!/usr/bin/env bash
# Runs every test tfe has: the C tests (ctest), the same C tests under
# AddressSanitizer + UBSan, the threading tests under ThreadSanitizer, the
# C tests built with clang, bounded libFuzzer runs (tests/fuzz/), the
# Python tests (pytest), the wheel in a fresh venv (tools/wheel_smoke.sh),
# ruff, the C API
# conformance programs that are expected to pass, and the coverage check.
# Usage: bash tools/test_all.sh        (from anywhere; installs what it needs)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${TFE_JOBS:-2}"
PY="${PYTHON:-python3}"

step() { printf '\n=== %s ===\n' "$*"; }

# Build trees are large (an ASan tree is ~3 GB); print the free space so a
# "No space left on device" failure is easy to read, and delete the trees no
# later step needs as soon as their step passes.
free_space() { df -h . | tail -1 | awk '{print "free disk: " $4}'; }
free_space

step "install test requirements"
"$PY" -m pip install -q -r requirements-dev.txt

step "C build and tests (ctest)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$JOBS"
ctest --test-dir build -j"$JOBS" --output-on-failure

step "C tests under AddressSanitizer + UBSan"
cmake -S . -B build-asan -DTFE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j"$JOBS"
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  ctest --test-dir build-asan -j"$JOBS" --output-on-failure

step "Threading tests under ThreadSanitizer"
# Only the tests named thread/async/executor, and only the executables that
# hold them are built (a TSan build of everything would be slow).
TSAN_TESTS='thread|async|executor'
cmake -S . -B build-tsan -DTFE_TSAN=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
TSAN_TARGETS="$(ctest --test-dir build-tsan -N -R "$TSAN_TESTS" |
  sed -n 's/^ *Test *#[0-9]*: \([A-Za-z0-9_]*\)\..*/\1/p' | sort -u)"
# shellcheck disable=SC2086 # one target per word
cmake --build build-tsan -j"$JOBS" --target $TSAN_TARGETS
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
  ctest --test-dir build-tsan -j"$JOBS" -R "$TSAN_TESTS" --output-on-failure
rm -rf build-tsan

# clang: the project builds warning-free with both compilers (a clang
# warning fails this step), and the libFuzzer targets need it. CI installs
# it when missing and it can (root with apt-get); otherwise both steps are
# skipped with a message.
have_clang() {
  command -v clang >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "clang not found: installing it with apt-get"
    { apt-get install -y clang || { apt-get update && apt-get install -y clang; }; } \
      >/dev/null 2>&1 || true
  fi
  command -v clang >/dev/null
}

step "C build with clang (-Werror) and tests (ctest)"
if have_clang; then
  CC=clang CXX=clang++ cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS=-Werror >/dev/null
  cmake --build build-clang -j"$JOBS"
  ctest --test-dir build-clang -j"$JOBS" --output-on-failure
  rm -rf build-clang
  free_space
else
  echo "(clang is not installed and cannot be installed here: clang build SKIPPED)"
fi

step "libFuzzer targets: bounded runs from the committed corpus (ASan + UBSan)"
if have_clang; then
  bash tests/fuzz/run_fuzzers.sh --build build-fuzz
  rm -rf build-fuzz
else
  echo "(clang is not installed and cannot be installed here: fuzzing SKIPPED)"
fi

step "Python package (editable, in place) and pytest"
"$PY" -m pip install -q --no-build-isolation -e .
"$PY" -m pytest tests/python -q -p no:cacheprovider

step "Op fuzzer (hypothesis, every op, extreme int attrs) under AddressSanitizer + UBSan"
# A separate package whose libtfe is the ASan build of build-asan (already
# built above: CMake has nothing to do; the explicit TFE_BUILD_TESTS=ON
# keeps that folder's configuration as the ASan ctest step left it). The
# wheel is built with its own setuptools folder and unpacked into
# build-py-asan/pkg, so the in-place Release package the other steps use is
# untouched; pytest runs from there without the repository's conftest, so
# tfe_py is imported from it (the test checks). --capture=sys leaves file
# descriptor 2 alone, so a sanitizer report reaches the log.
ASAN_PKG="$ROOT/build-py-asan/pkg"
rm -rf "$ROOT/build-py-asan/dist" "$ASAN_PKG"
TFE_PY_BUILD_BASE="$ROOT/build-py-asan/setuptools" \
TFE_PY_CMAKE_BUILD_DIR="$ROOT/build-asan" \
TFE_CMAKE_ARGS="-DTFE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DTFE_BUILD_TESTS=ON" \
  "$PY" -m pip wheel -q --no-build-isolation --no-deps -w "$ROOT/build-py-asan/dist" .
"$PY" -m zipfile -e "$(ls "$ROOT"/build-py-asan/dist/tfe_py-*.whl)" "$ASAN_PKG"
(
  cd "$ASAN_PKG"
  LD_PRELOAD="$(gcc -print-file-name=libasan.so)" PYTHONMALLOC=malloc \
  ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=2048" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  PYTHONPATH="$ASAN_PKG" TFE_OP_FUZZ_EXPECT_PKG="$ASAN_PKG" \
  TFE_OP_FUZZ_EXAMPLES=3 TFE_OP_FUZZ_CHAINS=40 \
    "$PY" -m pytest --noconftest -p no:cacheprovider -q --capture=sys \
      "$ROOT/tests/python/test_op_fuzz.py"
)

step "Soak: 60 s, 8 threads (benchmarks/soak.py; 30 minutes for the record: docs/RELIABILITY.md)"
"$PY" benchmarks/soak.py --seconds 60

step "Wheel: built, installed into a fresh venv outside the checkout, doctor + smoke test"
PYTHON="$PY" bash tools/wheel_smoke.sh

step "ruff"
"$PY" -m ruff check tfe_py tests tools benchmarks build_ffi.py setup.py

if [ -d "$ROOT/../shared/conformance" ]; then
  step "C API conformance (programs this build is expected to pass)"
  CONF_ONLY="$(cat tools/conformance_expected.txt | tr '\n' ' ')" \
    bash "$ROOT/../shared/conformance/run.sh" "$ROOT/include" \
      -L"$ROOT/build" -ltfe -Wl,-rpath,"$ROOT/build"
else
  echo "(../shared/conformance not found: conformance skipped)"
fi

step "docs/COVERAGE.md is up to date"
if [ -f tools/api_coverage.py ]; then
  "$PY" tools/api_coverage.py --lib build/libtfe.so --check
fi
step "docs/OPS.md and the generated op table are up to date"
"$PY" tools/gen_op_defs.py --check
"$PY" tools/gen_ops_md.py --lib build/libtfe.so --check
echo
echo "all tests passed"
