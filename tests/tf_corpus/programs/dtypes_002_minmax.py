import tensorflow as tf

for d in [tf.int8, tf.uint8, tf.int16, tf.int32, tf.uint16]:
    print(d.name, d.min, d.max)
print(tf.float16.max, tf.float32.min)
