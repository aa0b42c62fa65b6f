#!/usr/bin/env bash
# Async vs sync eager execution of small ops (benchmarks/bench_async.c), on
# CPU and on the test device plugin (tests/plugins/pd_test_device.c) when it
# was built. Prints one line per device and workload.
#   usage: benchmarks/run_async.sh [BUILD_DIR] [N_OPS]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
N="${2:-1000}"
CC="${CC:-cc}"
if [ ! -f "$BUILD/libtfe.so" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j2 --target tfe >/dev/null
fi
OUT="$BUILD/bench_async"
"$CC" -std=c11 -O2 -Wall -Wextra -I"$ROOT/include" \
  "$ROOT/benchmarks/bench_async.c" -o "$OUT" \
  -L"$BUILD" -ltfe -Wl,-rpath,"$BUILD" -lm
PLUGIN="$BUILD/plugins/pd_test_device.so"
if [ -f "$PLUGIN" ]; then
  "$OUT" "$N" "$PLUGIN"
else
  echo "(test device plugin not built: $PLUGIN; CPU only)"
  "$OUT" "$N"
fi
