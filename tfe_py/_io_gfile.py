"""``tf.io.gfile``: TensorFlow's file API over every registered filesystem.

The functions are those of :mod:`tfe_py.io` (tfe's own gfile-style
module) under TF's names, with TF's behaviour where the two differ:
``listdir`` of a missing path or a file raises NotFoundError ("Could not
find directory ..."), and ``mkdir`` of an existing directory does nothing.
``GFile`` opens the file at once, so a missing file raises NotFoundError
when it is created rather than at the first read (the same exception), and
a directory FailedPreconditionError ("<path>; Is a directory").
"""

from __future__ import annotations

from tfe_py import errors
from tfe_py import io as _io
from tfe_py.io import (
    FileStatistics,
    PathLike,
    copy,
    exists,
    get_registered_schemes,
    glob,
    isdir,
    join,
    makedirs,
    remove,
    rename,
    rmtree,
    stat,
    walk,
)

__all__ = [
    "FileStatistics",
    "GFile",
    "copy",
    "exists",
    "get_registered_schemes",
    "glob",
    "isdir",
    "join",
    "listdir",
    "makedirs",
    "mkdir",
    "remove",
    "rename",
    "rmtree",
    "stat",
    "walk",
]


class GFile(_io.GFile):
    """``tf.io.gfile.GFile``: :class:`tfe_py.io.GFile` raising TF's plain
    FailedPreconditionError for a directory."""

    def __init__(self, name: PathLike, mode: str = "r", encoding: str = "utf-8") -> None:
        try:
            super().__init__(name, mode, encoding)
        except _io.IsADirectoryFailedPreconditionError:
            raise errors.FailedPreconditionError(
                f"{_io._decode(_io._encode(name))}; Is a directory",
                errors.CODES["FAILED_PRECONDITION"],
            ) from None

    def __repr__(self) -> str:
        return super().__repr__().replace("tfe_py.io.GFile", "tf.io.gfile.GFile")


def listdir(path: PathLike) -> list[str]:
    """Names of the entries of directory ``path`` (NotFoundError when it is
    not a directory, as TF)."""
    if not isdir(path):
        raise errors.NotFoundError(
            f"Could not find directory {_io._decode(_io._encode(path))}",
            errors.CODES["NOT_FOUND"],
        )
    return _io.listdir(path)


def mkdir(path: PathLike) -> None:
    """Creates one directory (its parent must exist); an existing
    directory is left as it is, as TF's gfile.mkdir does."""
    try:
        _io.mkdir(path)
    except errors.AlreadyExistsError:
        if not isdir(path):
            raise
