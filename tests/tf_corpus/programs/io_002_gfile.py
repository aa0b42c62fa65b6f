import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
p = os.path.join(d, "a.txt")
with tf.io.gfile.GFile(p, "w") as f:
    f.write("line1\nline2\n")
with tf.io.gfile.GFile(p) as f:
    print(f.read().splitlines())
print(tf.io.gfile.exists(p))
print(tf.io.gfile.exists(os.path.join(d, "nope")))
