"""Record a SavedModel whose graph mentions TF ops tfe has no kernel for.

Run with TF 2.21 (outside the tests; the output is committed):

    /work/tfvenv/bin/python tools/record_generated_op_saved_model.py

Writes tests/data/generated_ops_saved_model/: a tf.Module with a variable
and two signatures. ``serving_default`` computes ``x * w + 1`` (ops with
kernels everywhere); ``sharded`` passes ``x * w`` through XlaSharding and
TPUReplicatedInput, ops TF defines but registers no CPU kernel for, so TF
itself cannot run it on a CPU. tests/c/test_generated_ops.c loads the model
with TF_LoadSessionFromSavedModel, runs serving_default and checks that
running ``sharded`` fails naming the kernel-less op.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import tensorflow as tf

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "generated_ops_saved_model"


class Model(tf.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w = tf.Variable([2.0, 3.0], name="w")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="x")])
    def serve(self, x: tf.Tensor) -> dict[str, tf.Tensor]:
        return {"y": x * self.w + 1.0}

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="x")])
    def sharded(self, x: tf.Tensor) -> dict[str, tf.Tensor]:
        from tensorflow.compiler.tf2xla.ops import gen_xla_ops

        s = gen_xla_ops.xla_sharding(x * self.w, sharding="")
        return {"y": tf.raw_ops.TPUReplicatedInput(inputs=[s])}


def main() -> None:
    m = Model()
    if OUT.exists():
        shutil.rmtree(OUT)
    tf.saved_model.save(m, str(OUT), signatures={"serving_default": m.serve,
                                                 "sharded": m.sharded})
    print("wrote", OUT, m.serve(tf.constant([1.0, 1.0]))["y"].numpy())


if __name__ == "__main__":
    main()
