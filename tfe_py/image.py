"""``tf.image``: basic image functions.

Filled in by issue 16; see :mod:`tfe_py._api` for the conventions.
"""

from __future__ import annotations

__all__: list[str] = []

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset()
