"""Files on every registered filesystem, in the style of ``tf.io.gfile``.

Paths are local paths (``/tmp/x``, ``rel/x``) or URIs whose scheme selects a
filesystem: ``file://`` (local), ``ram://`` (tfe's in-memory filesystem) or
any scheme a plugin registered with :func:`register_filesystem_plugin`.

Errors are :mod:`tfe_py.errors` exceptions (``NotFoundError``,
``AlreadyExistsError``, ``FailedPreconditionError``, ...). Where tfe
deliberately differs from TensorFlow it behaves as Python's own file
functions do:

* opening a directory as a file fails right away, with an exception that is
  both a ``FailedPreconditionError`` and an ``IsADirectoryError``
  (TensorFlow only fails at the first read or write);
* globbing below a missing directory returns ``[]`` (TensorFlow raises
  ``NotFoundError``);
* :func:`get_registered_schemes` lists the schemes (TensorFlow cannot).

As ``tf.io`` (``import tfe_py as tf``) the module also has TensorFlow's
functions: ``read_file``/``write_file``, ``serialize_tensor``/
``parse_tensor``, ``decode_raw``, ``decode_csv``, ``encode_base64``/
``decode_base64``, ``decode_compressed``, ``decode_png``/``decode_bmp``/
``decode_image`` (PNG and BMP), ``matching_files``, ``is_jpeg``, ``TFRecordWriter``, the
feature classes of ``parse_example``, and ``tf.io.gfile``
(:mod:`tfe_py._io_gfile`: the functions above under TF's names, with TF's
behaviour where it differs). Functions whose op tfe lacks raise
NotImplementedError naming the op.

Example::

    from tfe_py import io

    with io.GFile("ram://bucket/x.bin", "wb") as f:
        f.write(b"payload")
    io.copy("ram://bucket/x.bin", "/tmp/x.bin", overwrite=True)
    for line in io.GFile("/tmp/notes.txt"):
        ...
"""

from __future__ import annotations

import io as _pyio
import os
import sys as _sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from tfe_py import (
    _capsule,  # type: ignore[attr-defined]
    errors,
)
from tfe_py._ffi import CData, ffi, lib

__all__ = [
    "FileStatistics",
    "FixedLenFeature",
    "FixedLenSequenceFeature",
    "GFile",
    "IsADirectoryFailedPreconditionError",
    "RaggedFeature",
    "SparseFeature",
    "TFRecordOptions",
    "TFRecordWriter",
    "VarLenFeature",
    "copy",
    "decode_and_crop_jpeg",
    "decode_base64",
    "decode_bmp",
    "decode_compressed",
    "decode_csv",
    "decode_gif",
    "decode_image",
    "decode_jpeg",
    "decode_json_example",
    "decode_jxl",
    "decode_png",
    "decode_proto",
    "decode_raw",
    "decode_webp",
    "deserialize_many_sparse",
    "encode_base64",
    "encode_jpeg",
    "encode_png",
    "encode_proto",
    "exists",
    "extract_jpeg_shape",
    "get_registered_schemes",
    "glob",
    "is_jpeg",
    "isdir",
    "join",
    "listdir",
    "makedirs",
    "match_filenames_once",
    "matching_files",
    "mkdir",
    "parse_example",
    "parse_sequence_example",
    "parse_single_example",
    "parse_single_sequence_example",
    "parse_tensor",
    "read_file",
    "register_filesystem_plugin",
    "remove",
    "rename",
    "rmtree",
    "serialize_many_sparse",
    "serialize_sparse",
    "serialize_tensor",
    "stat",
    "walk",
    "write_file",
    "write_graph",
]

# Names TensorFlow also exports at the top level (none for tf.io).
TOPLEVEL: frozenset[str] = frozenset()

#: Anything that names a path: str, bytes or an os.PathLike.
PathLike = str | bytes | os.PathLike[str] | os.PathLike[bytes]

_OK = errors.CODES["OK"]
_NOT_FOUND = errors.CODES["NOT_FOUND"]
_OUT_OF_RANGE = errors.CODES["OUT_OF_RANGE"]
_FAILED_PRECONDITION = errors.CODES["FAILED_PRECONDITION"]


# A new, uninitialised bytes object of a given size (tfe_py/_capsule.c), so
# readall() can read straight into its result, as CPython's FileIO does.
_new_bytes = _capsule.uninit_bytes

# Size of the Python-side buffer of a GFile. Reads and writes at least this
# large bypass it and go straight to the C file.
_BUFFER_SIZE = 256 * 1024


class IsADirectoryFailedPreconditionError(errors.FailedPreconditionError, IsADirectoryError):
    """A directory was opened as a file: a FailedPreconditionError (as tfe
    reports it) that is also Python's IsADirectoryError."""

    def __init__(self, message: str, error_code: int | None = None) -> None:
        errors.FailedPreconditionError.__init__(self, message, error_code)

    def __str__(self) -> str:
        return self.message


def _encode(path: PathLike) -> bytes:
    return os.fsencode(path)


def _decode(raw: bytes) -> str:
    return os.fsdecode(raw)


def _c_str(ptr: CData) -> str:
    return _decode(ffi.string(ptr))


def _stream_to_list(stream: CData) -> list[str]:
    """Drains and frees a ``TF_StringStream*``."""
    out: list[str] = []
    if stream == ffi.NULL:
        return out
    item = ffi.new("const char**")
    try:
        while lib.TF_StringStreamNext(stream, item):
            out.append(_c_str(item[0]))
    finally:
        lib.TF_StringStreamDone(stream)
    return out


def join(path: PathLike, *paths: PathLike) -> str:
    """Joins path components with '/' (URIs keep their scheme://host)."""
    out = _decode(_encode(path))
    for p in paths:
        part = _decode(_encode(p))
        if not out or part.startswith("/"):
            out = part
        elif out.endswith("/"):
            out += part
        else:
            out += "/" + part
    return out


# ---------------------------------------------------------------- registry


def register_filesystem_plugin(plugin_location: PathLike) -> None:
    """Loads a filesystem plugin (a shared library exporting TF_InitPlugin)
    and registers the schemes it declares; all of them or none.

    Raises NotFoundError if the library cannot be loaded or lacks the entry
    point, FailedPreconditionError / InvalidArgumentError /
    AlreadyExistsError when the plugin breaks a rule (the message names the
    plugin, scheme, table and field; see docs/FILESYSTEMS.md).
    """
    with errors.status() as s:
        lib.TF_RegisterFilesystemPlugin(_encode(plugin_location), s)


def get_registered_schemes() -> list[str]:
    """Every registered scheme, sorted; ``""`` stands for plain local paths."""
    with errors.status() as s:
        stream = lib.TFE_GetRegisteredFilesystemSchemes(s)
    return _stream_to_list(stream)


# ------------------------------------------------------------------- paths


def exists(path: PathLike) -> bool:
    """Whether ``path`` exists (file or directory). Errors other than
    "not found" (e.g. an unregistered scheme) are raised."""
    s = lib.TF_NewStatus()
    try:
        lib.TFE_FileExists(_encode(path), s)
        if lib.TF_GetCode(s) == _NOT_FOUND:
            return False
        errors.check(s)
        return True
    finally:
        lib.TF_DeleteStatus(s)


def isdir(path: PathLike) -> bool:
    """Whether ``path`` is a directory; False if it cannot be told."""
    s = lib.TF_NewStatus()
    try:
        return bool(lib.TFE_IsDirectory(_encode(path), s))
    finally:
        lib.TF_DeleteStatus(s)


def listdir(path: PathLike) -> list[str]:
    """Names of the entries of directory ``path``, sorted.

    Raises NotFoundError for a missing directory and FailedPreconditionError
    when ``path`` is not a directory.
    """
    with errors.status() as s:
        stream = lib.TF_GetChildren(_encode(path), s)
        if lib.TF_GetCode(s) != _OK:
            lib.TF_StringStreamDone(stream)
            stream = ffi.NULL
    return _stream_to_list(stream)


def glob(pattern: PathLike | Iterable[PathLike]) -> list[str]:
    """Paths matching a glob pattern (or any of several patterns), in the
    pattern's own form (same scheme and host), sorted per pattern.

    Within one path segment, ``*`` matches any run of characters, ``?`` one
    character, ``[abc]`` / ``[a-z]`` / ``[!a]`` a set; ``\\`` escapes. A
    pattern below a missing directory matches nothing. After the first
    wildcard, ``..`` and ``.`` segments are resolved (``d/*/..`` is ``d``,
    once, if ``d`` has a subdirectory), so each path is returned once.
    """
    patterns: Iterable[PathLike]
    if isinstance(pattern, str | bytes | os.PathLike):
        patterns = [pattern]
    else:
        patterns = pattern
    out: list[str] = []
    for p in patterns:
        with errors.status() as s:
            stream = lib.TFE_GetMatchingPaths(_encode(p), s)
        out.extend(_stream_to_list(stream))
    return out


def walk(
    top: PathLike,
    topdown: bool = True,
    onerror: Callable[[errors.OpError], Any] | None = None,
) -> Iterator[tuple[str, list[str], list[str]]]:
    """Yields ``(dirpath, subdirnames, filenames)`` for ``top`` and every
    directory below it, like os.walk. With topdown, the caller may prune
    ``subdirnames`` in place. A missing ``top`` yields nothing (after
    passing the NotFoundError to ``onerror``, if given). Iterative: any
    depth works, without Python's recursion limit."""

    def scan(d: str) -> tuple[str, list[str], list[str]] | None:
        try:
            names = listdir(d)
        except errors.NotFoundError as err:
            if onerror is not None:
                onerror(err)
            return None
        subdirs: list[str] = []
        files: list[str] = []
        for name in names:
            (subdirs if isdir(join(d, name)) else files).append(name)
        return (d, subdirs, files)

    first = scan(_decode(_encode(top)))
    if first is None:
        return
    # Each frame: a directory's entry and an iterator over its subdirs
    # (taken after a topdown caller had its chance to prune them).
    stack: list[tuple[tuple[str, list[str], list[str]], Iterator[str]]] = []
    if topdown:
        yield first
    stack.append((first, iter(list(first[1]))))
    while stack:
        here, pending = stack[-1]
        name = next(pending, None)
        if name is None:
            stack.pop()
            if not topdown:
                yield here
            continue
        entry = scan(join(here[0], name))
        if entry is None:
            continue
        if topdown:
            yield entry
        stack.append((entry, iter(list(entry[1]))))


def mkdir(path: PathLike) -> None:
    """Creates one directory; its parent must exist. AlreadyExistsError if
    ``path`` exists."""
    with errors.status() as s:
        lib.TF_CreateDir(_encode(path), s)


def makedirs(path: PathLike) -> None:
    """Creates ``path`` and missing parents; fine if it already is a
    directory."""
    with errors.status() as s:
        lib.TFE_RecursivelyCreateDir(_encode(path), s)


def remove(path: PathLike) -> None:
    """Deletes a file (FailedPreconditionError for a directory)."""
    with errors.status() as s:
        lib.TF_DeleteFile(_encode(path), s)


def rmtree(path: PathLike) -> None:
    """Deletes a directory and everything below it (or a single file).

    Iterative and linear in the number of entries, however deep the tree;
    on local paths symbolic links are removed, not followed.
    """
    counts = ffi.new("int64_t[2]")
    with errors.status() as s:
        lib.TF_DeleteRecursively(_encode(path), counts, counts + 1, s)


def rename(src: PathLike, dst: PathLike, overwrite: bool = False) -> None:
    """Renames a file or directory within one filesystem. Without
    ``overwrite`` an existing ``dst`` raises AlreadyExistsError."""
    with errors.status() as s:
        lib.TFE_RenameFile(_encode(src), _encode(dst), bool(overwrite), s)


def copy(src: PathLike, dst: PathLike, overwrite: bool = False) -> None:
    """Copies a file, possibly to another filesystem (streamed). A directory
    ``dst`` receives a file named like ``src``. Without ``overwrite`` an
    existing destination raises AlreadyExistsError."""
    with errors.status() as s:
        lib.TFE_CopyFile(_encode(src), _encode(dst), bool(overwrite), s)


@dataclass(frozen=True)
class FileStatistics:
    """What :func:`stat` reports about a path."""

    length: int
    mtime_nsec: int
    is_directory: bool


def stat(path: PathLike) -> FileStatistics:
    """Size, modification time (ns since the epoch) and kind of ``path``."""
    st = ffi.new("TF_FileStatistics*")
    with errors.status() as s:
        lib.TF_FileStat(_encode(path), st, s)
    return FileStatistics(int(st.length), int(st.mtime_nsec), bool(st.is_directory))


# ------------------------------------------------------------------- files


def _raise_open_error(status: CData, path: bytes) -> None:
    """Raises for a failed open; a directory gives the IsADirectoryError
    flavour, as Python's open() does."""
    if lib.TF_GetCode(status) == _FAILED_PRECONDITION and isdir(path):
        message = ffi.string(lib.TF_Message(status)).decode("utf-8", "replace")
        raise IsADirectoryFailedPreconditionError(
            f"{_decode(path)}: is a directory ({message})", _FAILED_PRECONDITION
        )
    errors.check(status)


class _RawReader(_pyio.RawIOBase):
    """Unbuffered reads of a file through TFE_ReadRandomAccessFile."""

    def __init__(self, path: bytes) -> None:
        super().__init__()
        self._path = path
        self._pos = 0
        self._file: CData = ffi.NULL
        self._status = lib.TF_NewStatus()
        if self._status == ffi.NULL:
            raise errors.out_of_memory("TF_NewStatus")
        f = lib.TFE_NewRandomAccessFile(path, self._status)
        if f == ffi.NULL:
            try:
                _raise_open_error(self._status, path)
            finally:
                lib.TF_DeleteStatus(self._status)
                self._status = ffi.NULL
        self._file = f

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def _read_into(self, buf: CData, n: int) -> int:
        got = lib.TFE_ReadRandomAccessFile(self._file, self._pos, n, buf, self._status)
        if got != n:
            # A short read is the end of the file (OUT_OF_RANGE); anything
            # else is an error.
            code = lib.TF_GetCode(self._status)
            if code != _OK and code != _OUT_OF_RANGE:
                errors.check(self._status)
        self._pos += got
        return int(got)

    def readinto(self, b: Any) -> int:
        if self._file == ffi.NULL:
            raise ValueError("I/O operation on closed file")
        buf = ffi.from_buffer("char[]", b, require_writable=True)
        n = len(buf)
        return self._read_into(buf, n) if n else 0

    def readall(self) -> bytes:
        if self._file == ffi.NULL:
            raise ValueError("I/O operation on closed file")
        remaining = max(self._size() - self._pos, 0)
        first = b""
        if remaining:
            # Read straight into a new bytes object, as CPython's own
            # FileIO.readall does: the object is unshared until returned.
            first = _new_bytes(remaining)
            got = self._read_into(ffi.from_buffer("char[]", first), remaining)
            if got < remaining:
                return first[:got]
        # The rest (the whole file without the fast path, or whatever was
        # appended meanwhile), in chunks.
        chunks = [first]
        while True:
            buf = bytearray(_BUFFER_SIZE)
            got = self.readinto(buf)
            if got == 0:
                break
            chunks.append(bytes(memoryview(buf)[:got]))
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def _size(self) -> int:
        with errors.status() as s:
            size = lib.TFE_GetFileSize(self._path, s)
        return int(size)

    def seek(self, offset: int, whence: int = _pyio.SEEK_SET) -> int:
        if self.closed:
            raise ValueError("I/O operation on closed file")
        if whence == _pyio.SEEK_SET:
            pos = offset
        elif whence == _pyio.SEEK_CUR:
            pos = self._pos + offset
        elif whence == _pyio.SEEK_END:
            pos = self._size() + offset
        else:
            raise ValueError(f"invalid whence ({whence}, should be 0, 1 or 2)")
        if pos < 0:
            raise OSError(22, "negative seek position")
        self._pos = pos
        return pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        if self._file != ffi.NULL:
            lib.TFE_DeleteRandomAccessFile(self._file)
            self._file = ffi.NULL
        if self._status != ffi.NULL:
            lib.TF_DeleteStatus(self._status)
            self._status = ffi.NULL
        super().close()


class _RawWriter(_pyio.RawIOBase):
    """Unbuffered appends through TF_AppendWritableFile. ``kind`` is "w"
    (truncate or create), "a" (append) or "x" (create a new file)."""

    def __init__(self, path: bytes, kind: str) -> None:
        super().__init__()
        self._path = path
        self._handle: CData = ffi.NULL
        self._status = lib.TF_NewStatus()
        if self._status == ffi.NULL:
            raise errors.out_of_memory("TF_NewStatus")
        out = ffi.new("TF_WritableFileHandle**")
        if kind == "a":
            lib.TFE_NewAppendableFile(path, out, self._status)
        elif kind == "x":
            lib.TFE_NewExclusiveWritableFile(path, out, self._status)
        else:
            lib.TF_NewWritableFile(path, out, self._status)
        if out[0] == ffi.NULL:
            try:
                _raise_open_error(self._status, path)
            finally:
                lib.TF_DeleteStatus(self._status)
                self._status = ffi.NULL
        self._handle = out[0]

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if self._handle == ffi.NULL:
            raise ValueError("I/O operation on closed file")
        buf = ffi.from_buffer("char[]", b)
        n = len(buf)
        if n:
            lib.TF_AppendWritableFile(self._handle, buf, n, self._status)
            if lib.TF_GetCode(self._status) != _OK:
                errors.check(self._status)
        return n

    def flush(self) -> None:
        if self._handle != ffi.NULL:
            lib.TF_FlushWritableFile(self._handle, self._status)
            errors.check(self._status)

    def sync(self) -> None:
        if self._handle == ffi.NULL:
            raise ValueError("I/O operation on closed file")
        lib.TF_SyncWritableFile(self._handle, self._status)
        errors.check(self._status)

    def tell(self) -> int:
        if self._handle == ffi.NULL:
            raise ValueError("I/O operation on closed file")
        pos = lib.TFE_TellWritableFile(self._handle, self._status)
        errors.check(self._status)
        return int(pos)

    def close(self) -> None:
        if self._handle == ffi.NULL:
            super().close()
            return
        handle, self._handle = self._handle, ffi.NULL
        status, self._status = self._status, ffi.NULL
        try:
            # Frees the handle even when closing reports an error.
            lib.TF_CloseWritableFile(handle, status)
            errors.check(status)
        finally:
            lib.TF_DeleteStatus(status)
            super().close()


_MODES = {
    "r": ("r", False),
    "rb": ("r", True),
    "rt": ("r", False),
    "w": ("w", False),
    "wb": ("w", True),
    "wt": ("w", False),
    "a": ("a", False),
    "ab": ("a", True),
    "at": ("a", False),
    "x": ("x", False),
    "xb": ("x", True),
    "xt": ("x", False),
}


class GFile:
    """A file on any registered filesystem, like ``tf.io.gfile.GFile``.

    ``mode`` is one of ``r``, ``w``, ``a``, ``x`` (exclusive create) with
    ``b`` for bytes or ``t`` (the default) for text. The file opens at once:
    a missing file raises NotFoundError, a directory
    IsADirectoryFailedPreconditionError, and ``x`` on an existing path
    AlreadyExistsError. On the built-in filesystems (local paths,
    ``file://``, ``ram://``) ``x`` is atomic: of several threads or
    processes creating the same file, exactly one succeeds. A plugin's
    operation table has no exclusive create, so on plugin schemes ``x``
    checks for the file and then creates it, and a concurrent creator can
    slip in between.

    Several handles may share a file, with POSIX semantics on every
    built-in filesystem: a ``w`` handle writes at its own offset (past a
    truncation by another handle, the gap reads as zeros), an ``a`` handle
    writes at the current end, and a reader past a truncated end reads
    nothing.

    Text mode decodes ``encoding``
    (UTF-8) and, like TensorFlow, splits lines on ``\\n`` only and does not
    translate line endings. As in TensorFlow, ``write`` accepts both str
    (encoded as UTF-8) and bytes-like objects in either mode.

    Reading supports read, readline, readlines, iteration over lines, seek
    and tell; writing supports write, flush, tell, close. Use it as a
    context manager, or call close(): that is when the last bytes reach the
    filesystem.
    """

    def __init__(
        self,
        name: PathLike,
        mode: str = "r",
        encoding: str = "utf-8",
    ) -> None:
        if mode not in _MODES:
            raise ValueError(f"invalid mode {mode!r} (use r, w, a or x, with b or t)")
        self._name = _decode(_encode(name))
        self._mode = mode
        kind, binary = _MODES[mode]
        self._binary = binary
        self._encoding = encoding
        path = _encode(name)
        self._raw: _RawReader | _RawWriter
        self._buffer: _pyio.BufferedReader | _pyio.BufferedWriter
        self._text: _pyio.TextIOWrapper | None = None
        if kind == "r":
            self._raw = _RawReader(path)
            self._buffer = _pyio.BufferedReader(self._raw, _BUFFER_SIZE)
        else:
            self._raw = _RawWriter(path, kind)
            self._buffer = _pyio.BufferedWriter(self._raw, _BUFFER_SIZE)
        if not binary:
            self._text = _pyio.TextIOWrapper(
                self._buffer, encoding=encoding, newline="\n", write_through=False
            )

    # -- properties -------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def closed(self) -> bool:
        return self._buffer.closed

    def readable(self) -> bool:
        return isinstance(self._raw, _RawReader)

    def writable(self) -> bool:
        return isinstance(self._raw, _RawWriter)

    def seekable(self) -> bool:
        return self.readable()

    def size(self) -> int:
        """Size of the file in bytes (for a file being written: so far)."""
        if isinstance(self._raw, _RawWriter):
            return self.tell()
        return stat(self._name).length

    # -- reading ----------------------------------------------------------

    def _reader(self) -> Any:
        if not self.readable():
            raise errors.PermissionDeniedError(
                "File isn't open for reading", errors.CODES["PERMISSION_DENIED"]
            )
        return self._text if self._text is not None else self._buffer

    def read(self, n: int = -1) -> Any:
        """Up to ``n`` bytes (or characters in text mode); everything left
        if ``n`` is negative."""
        return self._reader().read(n)

    def readline(self, limit: int = -1) -> Any:
        return self._reader().readline(limit)

    def readlines(self, hint: int = -1) -> list[Any]:
        return self._reader().readlines(hint)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._reader())

    def __next__(self) -> Any:
        return next(self._reader())

    def seek(self, offset: int, whence: int = _pyio.SEEK_SET) -> int:
        """Moves the read position (bytes in binary mode; in text mode an
        offset from tell(), or 0)."""
        if not self.readable():
            raise _pyio.UnsupportedOperation("seek is only supported when reading")
        return self._reader().seek(offset, whence)

    def tell(self) -> int:
        if self._text is not None:
            return self._text.tell() if self.readable() else self._written_tell()
        if self.writable():
            return self._written_tell()
        return self._buffer.tell()

    def _written_tell(self) -> int:
        if self._text is not None:
            self._text.flush()
        self._buffer.flush()
        return self._raw.tell()

    # -- writing ----------------------------------------------------------

    def write(self, data: str | bytes | bytearray | memoryview) -> int:
        """Appends ``data``; returns how much was written (characters for
        str in text mode, bytes otherwise)."""
        if not self.writable():
            raise errors.PermissionDeniedError(
                "File isn't open for writing", errors.CODES["PERMISSION_DENIED"]
            )
        if self._text is not None:
            if isinstance(data, str):
                return self._text.write(data)
            self._text.flush()
            return self._buffer.write(data)
        if isinstance(data, str):
            data = data.encode(self._encoding)
        return self._buffer.write(data)

    def writelines(self, lines: Iterable[str | bytes]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Hands buffered data to the filesystem (visible to readers)."""
        if self.closed:
            return
        if self._text is not None:
            self._text.flush()
        self._buffer.flush()
        if isinstance(self._raw, _RawWriter):
            self._raw.flush()  # the buffered layer does not pass it on

    def sync(self) -> None:
        """Flushes, then waits until the data is durable."""
        self.flush()
        if isinstance(self._raw, _RawWriter):
            self._raw.sync()

    # -- lifetime ---------------------------------------------------------

    def close(self) -> None:
        """Flushes and closes; idempotent. Errors of the final write are
        raised here."""
        if self._text is not None:
            self._text.close()
        else:
            self._buffer.close()

    def __enter__(self) -> GFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass  # a finaliser must not raise

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<tfe_py.io.GFile {self._name!r} mode={self._mode!r} {state}>"


# ============================================================ tf.io ops
#
# TensorFlow's tf.io functions: thin layers over the ops (ReadFile,
# WriteFile, SerializeTensor, ParseTensor, DecodeRaw, DecodeCSV, ...).


def _ops() -> Any:
    from tfe_py import ops

    return ops


def _str_tensor(value: Any) -> Any:
    from tfe_py import _api, dtypes

    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    return _api.tensor(value, dtype=dtypes.string)


def read_file(filename: Any, name: str | None = None) -> Any:
    """The whole contents of a file, as a scalar string tensor (ReadFile):
    NotFoundError for a missing file."""
    return _ops().ReadFile(_str_tensor(filename))


def write_file(filename: Any, contents: Any, name: str | None = None) -> Any:
    """Writes a scalar string to a file, creating missing parent
    directories (WriteFile). Returns None eagerly (the op in a graph)."""
    return _ops().WriteFile(_str_tensor(filename), _str_tensor(contents))  # type: ignore[no-any-return]


def matching_files(pattern: Any, name: str | None = None) -> Any:
    """The paths matching a glob pattern (or vector of patterns), as a
    string vector (MatchingFiles)."""
    return _ops().MatchingFiles(_str_tensor(pattern))


def encode_base64(input: Any, pad: bool = False, name: str | None = None) -> Any:
    """Web-safe base64 (``-`` and ``_``) of each string; ``=`` padding
    only with ``pad=True``."""
    return _ops().EncodeBase64(_str_tensor(input), pad=bool(pad))


def decode_base64(input: Any, name: str | None = None) -> Any:
    """Decodes web-safe base64 strings (padding optional)."""
    return _ops().DecodeBase64(_str_tensor(input))


def serialize_tensor(tensor: Any, name: str | None = None) -> Any:
    """The tensor as a serialized TensorProto (scalar string)."""
    from tfe_py import _api

    return _ops().SerializeTensor(_api.tensor(tensor))


def parse_tensor(serialized: Any, out_type: Any, name: str | None = None) -> Any:
    """A tensor from a serialized TensorProto; InvalidArgumentError when
    its dtype is not ``out_type`` or the bytes do not parse."""
    from tfe_py import dtypes

    return _ops().ParseTensor(_str_tensor(serialized), out_type=dtypes.as_dtype(out_type))


def decode_raw(
    input_bytes: Any,
    out_type: Any,
    little_endian: bool = True,
    fixed_length: Any = None,
    name: str | None = None,
) -> Any:
    """Reinterprets the bytes of each string as a vector of ``out_type``
    (a new last dimension). Without ``fixed_length`` every string must have
    the same length; with it each is cut or zero-padded to that many
    bytes (DecodePaddedRaw)."""
    from tfe_py import _api, dtypes

    dt = dtypes.as_dtype(out_type)
    if fixed_length is None:
        return _ops().DecodeRaw(
            _str_tensor(input_bytes), out_type=dt, little_endian=bool(little_endian)
        )
    return _ops().DecodePaddedRaw(
        _str_tensor(input_bytes),
        _api.tensor(fixed_length, dtype=dtypes.int32),
        out_type=dt,
        little_endian=bool(little_endian),
    )


def decode_csv(
    records: Any,
    record_defaults: Any,
    field_delim: str = ",",
    use_quote_delim: bool = True,
    na_value: str = "",
    select_cols: Any = None,
    name: str | None = None,
) -> list[Any]:
    """Parses CSV records into one tensor per column (DecodeCSV).

    ``record_defaults`` gives each column's dtype (float32, float64, int32,
    int64 or string) and its value for an empty field: a one-element
    tensor, or an empty one for a required column.
    """
    from tfe_py import _api

    if select_cols is not None:
        cols = list(select_cols)
        if any(cols[i] >= cols[i + 1] for i in range(len(cols) - 1)):
            raise ValueError("select_cols is not strictly increasing.")
        if cols and cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    else:
        cols = []
    defaults = [_api.tensor(d) for d in record_defaults]
    out = _ops().DecodeCSV(
        _str_tensor(records),
        defaults,
        field_delim=field_delim,
        use_quote_delim=bool(use_quote_delim),
        na_value=na_value,
        select_cols=[int(c) for c in cols],
    )
    return list(out)


def decode_compressed(bytes: Any, compression_type: str = "", name: str | None = None) -> Any:
    """Decompresses each string: ``""`` (as is), ``"ZLIB"`` or ``"GZIP"``."""
    return _ops().DecodeCompressed(_str_tensor(bytes), compression_type=compression_type)


def is_jpeg(contents: Any, name: str | None = None) -> Any:
    """Whether the string starts with the JPEG marker bytes FF D8 FF."""
    ops = _ops()
    head = ops.Substr(_str_tensor(contents), 0, 3)
    return ops.Equal(head, _str_tensor(b"\xff\xd8\xff"))


def decode_png(contents: Any, channels: int = 0, dtype: Any = None, name: str | None = None) -> Any:
    """Decodes a PNG image into a [height, width, channels] uint8 (or
    uint16) tensor; ``channels`` 0 keeps the file's, 1 gray, 3 RGB, 4 RGBA.
    A BMP input is InvalidArgumentError (as TF); JPEG, GIF and WebP, which
    TF also decodes here, are UnimplementedError in tfe."""
    from tfe_py import dtypes

    dt = dtypes.uint8 if dtype is None else dtypes.as_dtype(dtype)
    return _ops().DecodePng(_str_tensor(contents), channels=int(channels), dtype=dt)


def decode_bmp(contents: Any, channels: int = 0, name: str | None = None) -> Any:
    """Decodes a BMP (8, 24 or 32 bits per pixel, uncompressed) into a
    [height, width, channels] uint8 tensor; ``channels`` 0, 3 or 4. A PNG
    is InvalidArgumentError, as in TF (use decode_image)."""
    return _ops().DecodeBmp(_str_tensor(contents), channels=int(channels))


def decode_image(
    contents: Any,
    channels: int | None = None,
    dtype: Any = None,
    name: str | None = None,
    expand_animations: bool = True,
) -> Any:
    """Decodes an image (PNG or BMP in tfe) into [height, width, channels];
    ``dtype`` float32 scales to [0, 1], other dtypes go through
    ``tf.image.convert_image_dtype``."""
    from tfe_py import dtypes

    dt = dtypes.uint8 if dtype is None else dtypes.as_dtype(dtype)
    ch = 0 if channels is None else int(channels)
    if dt not in (dtypes.float32, dtypes.uint8, dtypes.uint16):
        from tfe_py import image

        img = _ops().DecodeImage(
            _str_tensor(contents),
            channels=ch,
            dtype=dtypes.uint16,
            expand_animations=bool(expand_animations),
        )
        return image.convert_image_dtype(img, dt)
    return _ops().DecodeImage(
        _str_tensor(contents), channels=ch, dtype=dt, expand_animations=bool(expand_animations)
    )


def _missing(op_name: str, api: str) -> Callable[..., Any]:
    def fn(*_args: Any, **_kwargs: Any) -> Any:
        from tfe_py import _api

        if _api.has_op(op_name):  # loaded from a plugin library
            return _api.op(op_name)(*_args, **_kwargs)
        _api.unimplemented(op_name, api)

    fn.__name__ = api.rsplit(".", 1)[-1]
    fn.__doc__ = f"``{api}``: needs the op {op_name}, which tfe does not implement."
    return fn


# The other image codecs and the Example/sparse parsers need ops tfe does
# not implement; they raise NotImplementedError naming them.
decode_and_crop_jpeg = _missing("DecodeAndCropJpeg", "tf.io.decode_and_crop_jpeg")
decode_gif = _missing("DecodeGif", "tf.io.decode_gif")
decode_jpeg = _missing("DecodeJpeg", "tf.io.decode_jpeg")
decode_jxl = _missing("DecodeJxl", "tf.io.decode_jxl")
decode_webp = _missing("DecodeWebP", "tf.io.decode_webp")
encode_jpeg = _missing("EncodeJpeg", "tf.io.encode_jpeg")
encode_png = _missing("EncodePng", "tf.io.encode_png")
extract_jpeg_shape = _missing("ExtractJpegShape", "tf.io.extract_jpeg_shape")
decode_json_example = _missing("DecodeJSONExample", "tf.io.decode_json_example")
decode_proto = _missing("DecodeProtoV2", "tf.io.decode_proto")
encode_proto = _missing("EncodeProto", "tf.io.encode_proto")


def _wrapper_missing(op_name: str, api: str) -> Callable[..., Any]:
    """An API whose op has a kernel but whose Python wrapper (feature specs
    to the op's arguments) is not written yet."""

    def fn(*_args: Any, **_kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{api}: the wrapper over the op {op_name} is not written in tfe yet; "
            f"tfe_py.ops.{op_name} runs the op itself"
        )

    fn.__name__ = api.rsplit(".", 1)[-1]
    fn.__doc__ = f"``{api}``: its wrapper over the op {op_name} is not written yet."
    return fn


parse_example = _wrapper_missing("ParseExampleV2", "tf.io.parse_example")
parse_single_example = _wrapper_missing("ParseExampleV2", "tf.io.parse_single_example")
parse_sequence_example = _missing("ParseSequenceExampleV2", "tf.io.parse_sequence_example")
parse_single_sequence_example = _missing(
    "ParseSingleSequenceExample", "tf.io.parse_single_sequence_example"
)
serialize_sparse = _missing("SerializeSparse", "tf.io.serialize_sparse")
serialize_many_sparse = _missing("SerializeManySparse", "tf.io.serialize_many_sparse")
deserialize_many_sparse = _missing("DeserializeManySparse", "tf.io.deserialize_many_sparse")


def match_filenames_once(pattern: Any, name: str | None = None) -> Any:
    """A non-trainable string variable holding the paths that match
    ``pattern`` when it is created (MatchingFiles), as TF's."""
    from tfe_py.variables import Variable

    return Variable(matching_files(pattern), trainable=False, name=name or "Variable")


def write_graph(graph_or_graph_def: Any, logdir: Any, name: Any, as_text: bool = True) -> str:
    """Writes a graph's GraphDef (binary, or text format with ``as_text``)
    to ``logdir/name`` and returns the path. Text format needs TF's
    protobuf printer, which tfe does not have: ``as_text=True`` raises
    NotImplementedError."""
    if as_text:
        raise NotImplementedError(
            "tf.io.write_graph(as_text=True) needs the GraphDef text format, which tfe_py "
            "does not implement; pass as_text=False"
        )
    data = graph_or_graph_def
    if hasattr(data, "as_graph_def"):
        data = data.as_graph_def()
    if hasattr(data, "SerializeToString"):
        data = data.SerializeToString()
    if not isinstance(data, bytes | bytearray):
        raise TypeError("graph_or_graph_def must be a tfe_py.Graph or serialized GraphDef bytes")
    path = join(logdir, name)
    makedirs(_decode(_encode(logdir)))
    with GFile(path, "wb") as f:
        f.write(bytes(data))
    return path


# --------------------------------------------------- parsing configuration


class FixedLenFeature:
    """Configuration of a fixed-length feature for ``parse_example``."""

    __slots__ = ("default_value", "dtype", "shape")

    def __init__(self, shape: Any, dtype: Any, default_value: Any = None) -> None:
        self.shape = shape
        self.dtype = dtype
        self.default_value = default_value

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (("shape", self.shape), ("dtype", self.dtype), ("default_value", self.default_value))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields())
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(self)))


class FixedLenSequenceFeature(FixedLenFeature):
    """Configuration of a sequence feature of fixed-length items."""

    __slots__ = ("allow_missing",)

    def __init__(
        self, shape: Any, dtype: Any, allow_missing: bool = False, default_value: Any = None
    ) -> None:
        super().__init__(shape, dtype, default_value)
        self.allow_missing = allow_missing

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (
            ("shape", self.shape),
            ("dtype", self.dtype),
            ("allow_missing", self.allow_missing),
            ("default_value", self.default_value),
        )


class VarLenFeature(FixedLenFeature):
    """Configuration of a variable-length feature (a SparseTensor in TF)."""

    __slots__ = ()

    def __init__(self, dtype: Any) -> None:
        super().__init__(None, dtype)

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (("dtype", self.dtype),)


class SparseFeature(FixedLenFeature):
    """Configuration of a sparse feature built from index and value keys."""

    __slots__ = ("already_sorted", "index_key", "size", "value_key")

    def __init__(
        self, index_key: Any, value_key: Any, dtype: Any, size: Any, already_sorted: bool = False
    ) -> None:
        super().__init__(None, dtype)
        self.index_key = index_key
        self.value_key = value_key
        self.size = size
        self.already_sorted = already_sorted

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (
            ("index_key", self.index_key),
            ("value_key", self.value_key),
            ("dtype", self.dtype),
            ("size", self.size),
            ("already_sorted", self.already_sorted),
        )


class RaggedFeature(FixedLenFeature):
    """Configuration of a ragged feature."""

    __slots__ = ("partitions", "row_splits_dtype", "validate", "value_key")

    def __init__(
        self,
        dtype: Any,
        value_key: Any = None,
        partitions: Any = (),
        row_splits_dtype: Any = None,
        validate: bool = False,
    ) -> None:
        super().__init__(None, dtype)
        self.value_key = value_key
        self.partitions = partitions
        self.row_splits_dtype = row_splits_dtype
        self.validate = validate

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (
            ("dtype", self.dtype),
            ("value_key", self.value_key),
            ("partitions", self.partitions),
            ("row_splits_dtype", self.row_splits_dtype),
            ("validate", self.validate),
        )


class TFRecordOptions:
    """Options of a TFRecord file, as ``tf.io.TFRecordOptions``:
    ``compression_type`` None/"" (none), "ZLIB" or "GZIP", and the zlib
    settings (window_bits, compression_level, mem_level,
    compression_strategy; the others are kept and unused)."""

    compression_type_map: ClassVar[dict[str, str]] = {"ZLIB": "ZLIB", "GZIP": "GZIP", "": ""}

    def __init__(
        self,
        compression_type: str | None = None,
        flush_mode: int | None = None,
        input_buffer_size: int | None = None,
        output_buffer_size: int | None = None,
        window_bits: int | None = None,
        compression_level: int | None = None,
        compression_method: int | None = None,
        mem_level: int | None = None,
        compression_strategy: int | None = None,
    ) -> None:
        if compression_type is not None and compression_type not in self.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{compression_type}"')
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        """ "", "ZLIB" or "GZIP" for None, a compression type string or a
        TFRecordOptions."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if options not in cls.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{options}"')
        return cls.compression_type_map[options]


_crc32c_table: list[int] = []


def _crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of data, as TFRecord files use it."""
    if not _crc32c_table:
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            _crc32c_table.append(c)
    table = _crc32c_table
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> bytes:
    c = _crc32c(data)
    masked = (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    return masked.to_bytes(4, "little")


class TFRecordWriter:
    """Writes records to a TFRecord file, as ``tf.io.TFRecordWriter``:
    each record is its length (uint64), the masked CRC-32C of the length,
    the bytes and their masked CRC-32C; with ZLIB or GZIP options the whole
    file is compressed (Python's zlib). The checksums are computed in
    Python, about a few MB/s."""

    def __init__(self, path: PathLike, options: Any = None) -> None:
        if options is not None and not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(options)
        self._options = options or TFRecordOptions()
        kind = TFRecordOptions.get_compression_type_string(self._options)
        self._file: GFile | None = GFile(path, "wb")
        self._zip: Any = None
        if kind:
            import zlib

            o = self._options
            wbits = o.window_bits if o.window_bits is not None else 15
            self._zip = zlib.compressobj(
                o.compression_level if o.compression_level is not None else -1,
                zlib.DEFLATED,
                wbits + 16 if kind == "GZIP" else wbits,
                o.mem_level if o.mem_level is not None else 9,
                o.compression_strategy if o.compression_strategy is not None else 0,
            )

    def _put(self, data: bytes) -> None:
        assert self._file is not None
        self._file.write(self._zip.compress(data) if self._zip is not None else data)

    def write(self, record: str | bytes) -> None:
        """Appends one record (bytes, or str written as UTF-8)."""
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, bytes | bytearray | memoryview):
            raise TypeError(
                "write(): incompatible function arguments: record must be bytes or str, "
                f"got {type(record).__name__}"
            )
        if self._file is None:
            raise errors.FailedPreconditionError(
                "Writer is closed.", errors.CODES["FAILED_PRECONDITION"]
            )
        data = bytes(record)
        header = len(data).to_bytes(8, "little")
        self._put(header + _masked_crc(header) + data + _masked_crc(data))

    def flush(self) -> None:
        """Hands what was written to the file system (a compressed file
        gets a sync point)."""
        if self._file is None:
            raise errors.FailedPreconditionError(
                "Writer is closed.", errors.CODES["FAILED_PRECONDITION"]
            )
        if self._zip is not None:
            import zlib

            self._file.write(self._zip.flush(zlib.Z_SYNC_FLUSH))
        self._file.flush()

    def close(self) -> None:
        """Finishes the file; later writes raise FailedPreconditionError."""
        if self._file is None:
            return
        if self._zip is not None:
            self._file.write(self._zip.flush())
        self._file.close()
        self._file = None

    def __enter__(self) -> TFRecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass  # a finaliser must not raise


# tf.io.gfile: TF's names for the functions above (imported last: it
# imports them from this module). Also importable as tfe_py.io.gfile.
from tfe_py import _io_gfile as gfile  # noqa: E402

_sys.modules.setdefault("tfe_py.io.gfile", gfile)
