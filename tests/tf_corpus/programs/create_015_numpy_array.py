import numpy as np
import tensorflow as tf

a = np.arange(6, dtype=np.int16).reshape(2, 3)
t = tf.constant(a)
print(t.dtype, t.shape)
print(t)
