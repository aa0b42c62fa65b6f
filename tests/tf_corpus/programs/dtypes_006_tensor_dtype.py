import numpy as np
import tensorflow as tf

print(tf.constant(1).dtype)
print(tf.constant(1.0).dtype)
print(tf.constant([True]).dtype)
print(tf.constant("a").dtype)
print(tf.constant(1 + 2j).dtype)
print(tf.constant(np.float64(1.0)).dtype)
