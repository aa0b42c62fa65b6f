import numpy as np
import tensorflow as tf

t = tf.constant([[1, 2], [3, 4]])
print(t.numpy().tolist())
print(np.array_equal(t, [[1, 2], [3, 4]]))
