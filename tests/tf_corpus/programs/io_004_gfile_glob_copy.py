import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
for n in ["a.csv", "b.csv", "c.txt"]:
    with tf.io.gfile.GFile(os.path.join(d, n), "w") as f:
        f.write(n)
print(sorted(os.path.basename(p) for p in tf.io.gfile.glob(os.path.join(d, "*.csv"))))
tf.io.gfile.copy(os.path.join(d, "c.txt"), os.path.join(d, "d.txt"))
tf.io.gfile.rename(os.path.join(d, "a.csv"), os.path.join(d, "z.csv"))
print(sorted(tf.io.gfile.listdir(d)))
