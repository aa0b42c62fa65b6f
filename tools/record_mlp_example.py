"""Records the loss curve of tfe_py/examples/train_mlp.py's model trained by
TensorFlow 2.21 itself (Keras' Adam, the same data and initial weights) into
tests/data/mlp_example_tf221.json. Run with a Python that has TF 2.21:

    /work/tfvenv/bin/python tools/record_mlp_example.py

The test (tests/python/test_mlp_example.py) trains the example with tfe and
compares its losses with these; TF is never needed to run the tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import tensorflow as tf

ROOT = Path(__file__).resolve().parents[1]
STEPS = 100


def data(n: int = 256, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    # The same draws as train_mlp.make_data.
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)
    y = np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3] - x[:, 3:4]
    return x, y.astype(np.float32)


def main() -> None:
    xv, yv = data()
    x, y = tf.constant(xv), tf.constant(yv)
    rng = np.random.default_rng(1)  # the same initial weights as train_mlp.main
    w1 = tf.Variable(rng.normal(0, 0.5, (4, 32)).astype(np.float32))
    b1 = tf.Variable(np.zeros(32, np.float32))
    w2 = tf.Variable(rng.normal(0, 0.5, (32, 1)).astype(np.float32))
    b2 = tf.Variable(np.zeros(1, np.float32))
    params = [w1, b1, w2, b2]
    opt = tf.keras.optimizers.Adam(learning_rate=0.02)
    losses = []
    # losses[k] is the loss with the weights after k updates.
    for _ in range(STEPS + 1):
        with tf.GradientTape() as tape:
            hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
            pred = tf.matmul(hidden, w2) + b2
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params, strict=True))
        losses.append(float(loss))
    out = {"tf_version": tf.__version__, "steps": STEPS, "losses": losses}
    dest = ROOT / "tests" / "data" / "mlp_example_tf221.json"
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {dest}: loss {losses[0]:.6f} -> {losses[-1]:.6f}")


if __name__ == "__main__":
    main()
