import tensorflow as tf

print(tf.executing_eagerly())
print(tf.config.functions_run_eagerly())
