import os
import tempfile

import tensorflow as tf

p = os.path.join(tempfile.mkdtemp(), "s.bin")
with tf.io.gfile.GFile(p, "wb") as f:
    f.write(b"12345")
print(tf.io.gfile.stat(p).length)
print(tf.io.gfile.stat(p).is_directory)
