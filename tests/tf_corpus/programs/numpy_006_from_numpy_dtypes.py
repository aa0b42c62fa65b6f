import numpy as np
import tensorflow as tf

for a in [np.int8([1]), np.uint16([2]), np.float16([1.5]), np.bool_([True]), np.complex64([1j])]:
    print(tf.constant(a).dtype)
