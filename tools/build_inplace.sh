#!/usr/bin/env bash
# Builds tfe_py in place, ready for `python -m tfe_py` and pytest:
# CMake builds libtfe (into build-py/cmake), the cffi extension is compiled
# against it, and both land in tfe_py/. Extra arguments go to pip.
#
#   tools/build_inplace.sh
#   TFE_CMAKE_ARGS=-DTFE_SANITIZE=ON TFE_PY_CMAKE_BUILD_DIR=build-py/asan tools/build_inplace.sh
#
# The second form builds an ASan/UBSan libtfe; run pytest against it with
#   LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
#   PYTHONMALLOC=malloc python -m pytest tests/python
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q "setuptools>=61" wheel "cffi>=1.15" numpy pytest
python -m pip install -q --no-build-isolation -e . "$@"
