#!/usr/bin/env bash
# Builds the tfe_py wheel, installs it into a fresh virtual environment in a
# temporary folder outside the checkout, and checks it there:
#   * tfe_py is imported from the venv (not from the checkout);
#   * a constant and an op run;
#   * `python -m tfe_py config` gives flags that build the shipped example op
#     library (a plugin), which then loads and runs, and a C program that
#     runs without LD_LIBRARY_PATH;
#   * `python -m tfe_py doctor` passes (it builds the example plugins from
#     the headers inside the wheel).
# Usage: bash tools/wheel_smoke.sh      (tools/test_all.sh runs it)
# Knobs: PYTHON (default python3); TFE_PY_CMAKE_BUILD_DIR (CMake folder for
# libtfe, default the in-place package's build-py/cmake, so CI rebuilds
# nothing); TFE_KEEP_SMOKE=1 keeps the temporary folder.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PYTHON:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tfe-wheel-smoke.XXXXXX")"
if [ "${TFE_KEEP_SMOKE:-0}" = 1 ]; then
  echo "wheel smoke test folder (kept): $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi

echo "--- building the wheel"
# setuptools' own build folder goes to the temporary folder; libtfe's CMake
# folder is reused (a no-op build when the in-place package is current).
TFE_PY_BUILD_BASE="$WORK/setuptools-build" \
TFE_PY_CMAKE_BUILD_DIR="${TFE_PY_CMAKE_BUILD_DIR:-$ROOT/build-py/cmake}" \
  "$PY" -m pip wheel -q --no-build-isolation --no-deps -w "$WORK/dist" "$ROOT"
WHEEL="$(ls "$WORK"/dist/tfe_py-*.whl)"
echo "built $(basename "$WHEEL") ($(du -k "$WHEEL" | cut -f1) KiB)"
"$PY" - "$WHEEL" <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["tfe_py/include/tensorflow/c/c_api.h", "tfe_py/include/tfe/tfe.h",
        "tfe_py/include/tsl/c/tsl_status.h", "tfe_py/libtfe.so.0",
        "tfe_py/libtensorflow_framework.so.2", "tfe_py/examples/example_device.c",
        "tfe_py/examples/example_op_library.c"]
missing = [n for n in need if n not in names]
if missing or not any(n.startswith("tfe_py/include/xla/") for n in names):
    sys.exit(f"wheel lacks {missing or 'tfe_py/include/xla/'}")
EOF

echo "--- installing it into a fresh venv ($WORK/venv)"
"$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install -q --disable-pip-version-check "$WHEEL"

cd "$WORK"  # nothing of the checkout on sys.path from here on
export TFE_DOCTOR_CACHE="$WORK/doctor-cache"

echo "--- import, a constant and an op"
"$VPY" - "$WORK" <<'EOF'
import sys
import numpy as np
import tfe_py
from tfe_py import ops

work = sys.argv[1]
assert tfe_py.__file__.startswith(work), f"tfe_py imported from {tfe_py.__file__}"
assert tfe_py.runtime_library_path().startswith(work), tfe_py.runtime_library_path()
assert tfe_py.get_include().startswith(work) and tfe_py.get_library_dir().startswith(work)
with tfe_py.Context():
    x = tfe_py.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = ops.MatMul(a=x, b=x, transpose_b=True) + 1.0
    assert x.dtype == tfe_py.float32
    np.testing.assert_allclose(y.numpy(), [[6.0, 15.0], [15.0, 51.0]])
print("ok: tfe_py", tfe_py.__version__, "from", tfe_py.__file__)
EOF

echo "--- a plugin built with 'python -m tfe_py config --cflags'"
CC="${CC:-cc}"
read -r -a CFLAGS_ <<<"$("$VPY" -m tfe_py config --cflags)"
EXAMPLES="$("$VPY" -c 'import pathlib, tfe_py; print(pathlib.Path(tfe_py.__file__).parent / "examples")')"
"$CC" -shared -fPIC -std=c11 -Wall -Wextra -Werror "${CFLAGS_[@]}" \
  "$EXAMPLES/example_op_library.c" -o "$WORK/libmy_ops.so"
"$VPY" - "$WORK/libmy_ops.so" <<'EOF'
import sys
import numpy as np
import tfe_py
from tfe_py import ops

lib = tfe_py.load_op_library(sys.argv[1])
assert "TfeTestScaleAdd" in lib.ops, lib.ops
z = ops.TfeTestScaleAdd(np.array([1.0, 2.0], np.float32), np.float32(1.0), scale=3.0)
np.testing.assert_allclose(z.numpy(), [4.0, 7.0])
print("ok: op library", lib.ops)
EOF

echo "--- a program built with 'python -m tfe_py config --cflags --libs'"
cat >"$WORK/prog.c" <<'EOF'
#include <stdio.h>
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

int main(void) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  int ok = TF_GetCode(s) == TF_OK;
  printf("TF API %s, context %s\n", TF_Version(), ok ? "ok" : TF_Message(s));
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
  return ok ? 0 : 1;
}
EOF
read -r -a FLAGS_ <<<"$("$VPY" -m tfe_py config --cflags --libs)"
"$CC" -std=c11 -Wall -Wextra -Werror "$WORK/prog.c" "${FLAGS_[@]}" -o "$WORK/prog"
env -u LD_LIBRARY_PATH "$WORK/prog"

echo "--- python -m tfe_py saved-model (a TF-exported Keras model, from the wheel)"
(cd "$WORK" && "$VPY" -m tfe_py saved-model show "$ROOT/tests/data/saved_models/keras_mlp" |
  grep -q "tfe has CPU kernels for every op the model uses")
(cd "$WORK" && "$VPY" -m tfe_py saved-model run "$ROOT/tests/data/saved_models/keras_mlp" \
  --input "x=$ROOT/tests/data/saved_models/keras_mlp/io/x.npy" --output-dir "$WORK/sm_out")
"$VPY" - "$ROOT/tests/data/saved_models/keras_mlp/io/out_output_0.npy" "$WORK/sm_out/output_0.npy" <<'EOF2'
import sys
import numpy as np
np.testing.assert_allclose(np.load(sys.argv[2]), np.load(sys.argv[1]), rtol=1e-5, atol=1e-6)
print("ok: saved-model run gives TF's outputs")
EOF2

echo "--- python -m tfe_py doctor"
"$VPY" -m tfe_py doctor
echo "wheel smoke test passed"
