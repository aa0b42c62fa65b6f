import tensorflow as tf

t = tf.constant(3.7)
print(float(t), int(t), bool(t))
print(f"{t:.2f}")
print(int(tf.constant(5)) + 1)
try:
    print(round(tf.constant(2.6)))
except (TypeError, AttributeError) as e:
    print(type(e).__name__)
