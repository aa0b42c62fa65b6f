"""Trains a small MLP on generated data with tfe_py, TensorFlow-style.

    python -m tfe_py.examples.train_mlp        # or: python train_mlp.py

A 2-layer perceptron (4 -> 32 -> 1, ReLU) learns y = sin(x0) + x1 * x2 - x3
from 256 generated samples with Adam; every 20 steps it prints the mean
squared error, which goes down. Everything runs on tfe's C core: the ops,
the gradient tape, and the ResourceApplyAdam updates.
"""

from __future__ import annotations

import numpy as np

import tfe_py as tf
from tfe_py.optimizers import Adam


def make_data(n: int = 256, seed: int = 0) -> tuple[tf.Tensor, tf.Tensor]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)
    y = np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3] - x[:, 3:4]
    return tf.constant(x), tf.constant(y.astype(np.float32))


def main(steps: int = 200) -> list[float]:
    x, y = make_data()
    rng = np.random.default_rng(1)
    w1 = tf.Variable(rng.normal(0, 0.5, (4, 32)).astype(np.float32), name="w1")
    b1 = tf.Variable(np.zeros(32, np.float32), name="b1")
    w2 = tf.Variable(rng.normal(0, 0.5, (32, 1)).astype(np.float32), name="w2")
    b2 = tf.Variable(np.zeros(1, np.float32), name="b2")
    params = [w1, b1, w2, b2]
    opt = Adam(learning_rate=0.02)
    losses = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
            pred = tf.matmul(hidden, w2) + b2
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params, strict=True))
        losses.append(float(loss))
        if step % 20 == 0 or step == steps - 1:
            print(f"step {step:4d}  loss {float(loss):.5f}")
    return losses


if __name__ == "__main__":
    main()
