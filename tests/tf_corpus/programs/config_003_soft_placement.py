import tensorflow as tf

tf.config.set_soft_device_placement(True)
print(tf.config.get_soft_device_placement())
tf.config.set_soft_device_placement(False)
print(tf.config.get_soft_device_placement())
