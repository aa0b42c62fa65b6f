import os
import tempfile

import tensorflow as tf

p = os.path.join(tempfile.mkdtemp(), "t.bin")
tf.io.write_file(p, tf.constant(b"\x00abc"))
print(tf.strings.length(tf.io.read_file(p)))
print(tf.io.gfile.GFile(p, "rb").read())
