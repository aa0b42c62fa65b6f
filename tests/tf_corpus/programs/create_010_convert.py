import numpy as np
import tensorflow as tf

t = tf.convert_to_tensor([1, 2, 3])
print(t)
print(tf.convert_to_tensor(np.array([1.5, 2.5])))
print(tf.convert_to_tensor(4, dtype=tf.float32))
print(tf.identity(t))
