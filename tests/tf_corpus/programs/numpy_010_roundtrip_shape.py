import numpy as np
import tensorflow as tf

a = np.zeros((2, 0, 3), dtype=np.float32)
t = tf.constant(a)
print(t.shape, t.numpy().shape)
print(t)
