"""Writes tests/data/saved_models_text/<name>/saved_model.pbtxt: the
SavedModel of tests/data/saved_models/<name> in protobuf text format (as
`tf.saved_model.save(..., as_text=True)` or the TF1 builder's
`save(as_text=True)` would write it). The tests load them with the variables,
assets and manifest of the binary model.

Run outside the build, with TensorFlow installed:
    /work/tfvenv/bin/python tools/gen_saved_model_text_data.py
"""

from __future__ import annotations

import pathlib

from google.protobuf import text_format
from tensorflow.core.protobuf import saved_model_pb2

MODELS = ("tf1_simple_save", "module_cond_while")


def main() -> None:
    root = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data"
    for name in MODELS:
        sm = saved_model_pb2.SavedModel()
        sm.ParseFromString((root / "saved_models" / name / "saved_model.pb").read_bytes())
        out = root / "saved_models_text" / name
        out.mkdir(parents=True, exist_ok=True)
        (out / "saved_model.pbtxt").write_text(text_format.MessageToString(sm))


if __name__ == "__main__":
    main()
