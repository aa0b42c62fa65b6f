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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from tfe_py import (
    _capsule,  # type: ignore[attr-defined]
    errors,
)
from tfe_py._ffi import CData, ffi, lib

__all__ = [
    "FileStatistics",
    "GFile",
    "IsADirectoryFailedPreconditionError",
    "copy",
    "exists",
    "get_registered_schemes",
    "glob",
    "isdir",
    "join",
    "listdir",
    "makedirs",
    "mkdir",
    "register_filesystem_plugin",
    "remove",
    "rename",
    "rmtree",
    "stat",
    "walk",
]

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
