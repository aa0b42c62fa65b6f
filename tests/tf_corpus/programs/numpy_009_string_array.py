import numpy as np
import tensorflow as tf

t = tf.constant(np.array(["a", "bb"]))
print(t)
print(t.dtype)
print(np.array(tf.constant(["q"])))
