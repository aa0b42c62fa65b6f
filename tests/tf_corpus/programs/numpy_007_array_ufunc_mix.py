import numpy as np
import tensorflow as tf

t = tf.constant([1, 2, 3])
print(np.add(t, 1))
print(np.multiply(t, t).dtype)
print(np.arange(3) + tf.constant([1, 1, 1]))
