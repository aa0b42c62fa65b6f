import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
tf.io.gfile.makedirs(os.path.join(d, "x", "y"))
with tf.io.gfile.GFile(os.path.join(d, "b.txt"), "w") as f:
    f.write("x")
print(sorted(tf.io.gfile.listdir(d)))
print(tf.io.gfile.isdir(os.path.join(d, "x")))
tf.io.gfile.remove(os.path.join(d, "b.txt"))
print(sorted(tf.io.gfile.listdir(d)))
