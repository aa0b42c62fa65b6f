import numpy as np
import tensorflow as tf

print(tf.as_dtype("float32"))
print(tf.as_dtype(np.int64))
print(tf.as_dtype(np.dtype("uint8")).name)
print(tf.as_dtype("bool") == tf.bool)
print(repr(tf.int32))
