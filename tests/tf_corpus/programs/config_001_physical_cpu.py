import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
print(len(cpus) > 0)
print(cpus[0].device_type)
print(type(cpus[0]).__name__)
