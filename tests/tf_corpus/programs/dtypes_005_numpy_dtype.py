import tensorflow as tf

print(tf.float32.as_numpy_dtype)
print(tf.int16.as_numpy_dtype)
print(tf.bool.as_numpy_dtype)
print(tf.complex128.as_numpy_dtype)
print(tf.float32.base_dtype)
