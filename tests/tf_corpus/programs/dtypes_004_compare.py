import numpy as np
import tensorflow as tf

print(tf.float32 == np.float32)
print(tf.float32 == "float32")
print(tf.int32 != tf.int64)
print(tf.float64 == tf.double, tf.float16 == tf.half)
print(tf.dtypes.float32 is tf.float32)
