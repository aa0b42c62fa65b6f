import os
import tempfile

import tensorflow as tf

path = os.path.join(tempfile.mkdtemp(), "f.txt")
tf.io.write_file(path, "hello tf")
data = tf.io.read_file(path)
print(data)
print(data.numpy())
