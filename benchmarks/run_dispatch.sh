#!/usr/bin/env bash
# Builds benchmarks/bench_dispatch.c against a tfe build directory and runs
# it.   usage: benchmarks/run_dispatch.sh [BUILD_DIR] [ITERATIONS]
# BUILD_DIR defaults to ./build (configured and built first if needed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
ITERS="${2:-200000}"
if [ ! -f "$BUILD/libtfe.so" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j2 --target tfe >/dev/null
fi
OUT="$BUILD/bench_dispatch"
"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -I"$ROOT/include" \
  "$ROOT/benchmarks/bench_dispatch.c" -o "$OUT" \
  -L"$BUILD" -ltfe -Wl,-rpath,"$BUILD"
"$OUT" "$ITERS"
