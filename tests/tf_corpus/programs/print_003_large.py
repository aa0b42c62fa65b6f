import tensorflow as tf

print(tf.range(2000))
print(tf.zeros([20, 20]))
