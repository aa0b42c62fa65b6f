import numpy as np
import tensorflow as tf

t = tf.constant([1.0, 2.0, 3.0])
cap = tf.experimental.dlpack.to_dlpack(t)
back = tf.experimental.dlpack.from_dlpack(cap)
print(back)
print(np.from_dlpack(t))
