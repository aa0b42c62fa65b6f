import tensorflow as tf

s = tf.constant(["a", "b", "hello"])
print(tf.strings.to_hash_bucket_fast(s, 10))
print(tf.strings.to_hash_bucket_strong(s, 10, key=[1, 2]))
print(tf.strings.to_hash_bucket(s, 5))
