import numpy as np
import tensorflow as tf

t = tf.constant([1.0, 4.0, 9.0])
print(np.sqrt(t))
print(np.sum(t))
print(np.mean(t), np.max(t))
print(np.concatenate([t, t]))
