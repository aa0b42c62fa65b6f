import tensorflow as tf

kinds = [tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.bool]
for d in [*kinds, tf.complex64]:
    print(d.name, d.size, d.is_floating, d.is_integer, d.is_complex, d.is_bool)
