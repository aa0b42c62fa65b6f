"""Version of the tfe_py package.

It must equal TFE_VERSION in include/tfe/tfe.h: setup.py refuses to build
when they differ, and tfe_py._ffi refuses to import an extension or a
libtfe built for another version.
"""

__version__ = "0.1.0"
