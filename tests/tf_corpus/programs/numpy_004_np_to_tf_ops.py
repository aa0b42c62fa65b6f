import numpy as np
import tensorflow as tf

a = np.array([1.0, 2.0], dtype=np.float32)
print(tf.add(a, 1.0))
print(tf.reduce_sum(np.ones((2, 2), dtype=np.int32)))
print(tf.constant(a) + a)
