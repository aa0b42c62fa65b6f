import numpy as np
import tensorflow as tf

t = tf.constant([1, 2, 3])
a = np.asarray(t)
print(a, a.dtype)
print(np.array(t, dtype=np.float64))
