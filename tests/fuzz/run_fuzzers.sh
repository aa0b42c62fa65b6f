#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, ASan and
# UBSan, and runs each one from its committed corpus.
#
#   tests/fuzz/run_fuzzers.sh                 bounded run (what CI does):
#                                             a fixed number of inputs per
#                                             target, about 2 minutes in all
#   tests/fuzz/run_fuzzers.sh --time 600      each target for 10 minutes
#   tests/fuzz/run_fuzzers.sh --runs 50000 fuzz_tstring   one target
#
# Options: --build DIR (default: build-fuzz), --runs N (inputs per target,
# overriding the per-target defaults below), --time SECONDS (per target,
# instead of a number of runs), --no-build. Needs clang (libFuzzer ships
# with it). New inputs go to DIR/fuzz-corpus/<target>/, crash inputs to
# DIR/fuzz-artifacts/<target>/; the committed corpus is only read. To keep
# a crash as a regression case, copy it to tests/fuzz/crashes/<target>/:
# every build's ctest replays that directory (fuzz_replay.<target>).
# Exit status: 0 when no target found anything.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build-fuzz"
RUNS=""
TIME=""
DO_BUILD=1
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$(realpath -m "$2")"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --time) TIME="$2"; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
if [ ${#TARGETS[@]} -eq 0 ]; then
  for f in "$ROOT"/tests/fuzz/fuzz_*.c; do TARGETS+=("$(basename "$f" .c)"); done
fi

# Inputs per target in the bounded run, chosen so that all of them
# together take about two minutes on a 2-core machine (their speeds differ
# a lot: fuzz_attr_proto makes an op per input, fuzz_tstring is cheap;
# measured from an empty work corpus, as in CI).
default_runs() {
  case "$1" in
    fuzz_attr_proto) echo 400000 ;;
    fuzz_fs_path) echo 300000 ;;
    fuzz_op_grammar) echo 150000 ;;
    fuzz_plugin_loader) echo 500000 ;;
    fuzz_tstring) echo 500000 ;;
    *) echo 20000 ;;
  esac
}

if [ "$DO_BUILD" = 1 ]; then
  CC="${CC_FUZZ:-clang}"
  command -v "$CC" >/dev/null || { echo "run_fuzzers: $CC not found (libFuzzer needs clang)"; exit 2; }
  LAUNCHER=()
  if command -v ccache >/dev/null; then
    LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  CC="$CC" CXX="${CXX_FUZZ:-clang++}" cmake -S "$ROOT" -B "$BUILD" -DTFE_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=Debug "${LAUNCHER[@]}" >/dev/null
  cmake --build "$BUILD" -j"${TFE_JOBS:-2}" --target "${TARGETS[@]}"
fi

# Allocations nobody can satisfy (a fuzz-chosen size of 2**62) must come
# back as NULL, as from malloc, and be reported as errors by tfe. ASan
# returns NULL above 64 MiB instead of aborting: a 30-byte TensorProto
# may legitimately ask for gigabytes (TF allocates them too), which would
# only make runs slow. libFuzzer's out-of-memory limit (2 GiB of RSS)
# still catches real growth.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=64}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

status=0
summary=()
for t in "${TARGETS[@]}"; do
  exe="$BUILD/tests/fuzz/$t"
  [ -x "$exe" ] || { echo "run_fuzzers: $exe not built"; exit 2; }
  work="$BUILD/fuzz-corpus/$t"
  art="$BUILD/fuzz-artifacts/$t"
  mkdir -p "$work" "$art"
  if [ -n "$TIME" ]; then
    limit=(-max_total_time="$TIME")
  else
    limit=(-runs="${RUNS:-$(default_runs "$t")}")
  fi
  dirs=("$work" "$ROOT/tests/fuzz/corpus/$t")
  [ -d "$ROOT/tests/fuzz/crashes/$t" ] && dirs+=("$ROOT/tests/fuzz/crashes/$t")
  log="$BUILD/fuzz-$t.log"
  start=$(date +%s)
  echo "--- $t (${limit[*]})"
  rc=0
  "$exe" "${limit[@]}" -max_len=4096 -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$art/" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  secs=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  summary+=("$t: ${runs:-?} inputs in ${secs}s, exit $rc")
  if [ "$rc" != 0 ]; then
    status=1
    echo "$t FAILED (exit $rc); the last lines of $log:"
    tail -40 "$log"
    ls -1 "$art" | sed "s|^|  crash input: $art/|"
  fi
done
echo
echo "fuzz summary:"
printf '  %s\n' "${summary[@]}"
exit $status
