import tensorflow as tf

labels = tf.constant([[0.0, 1.0], [1.0, 0.0]])
logits = tf.constant([[1.0, 2.0], [0.5, 0.5]])
print(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0], logits=logits))
print(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
