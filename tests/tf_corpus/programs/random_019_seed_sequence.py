import tensorflow as tf

tf.random.set_seed(100)
for _ in range(3):
    print(tf.random.uniform([], maxval=10, dtype=tf.int32).numpy())
