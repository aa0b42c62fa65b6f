import tensorflow as tf

e = tf.io.encode_base64(tf.constant("hello world"))
print(e)
print(tf.io.decode_base64(e))
