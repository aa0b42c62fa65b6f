"""tfe_py.io: one conformance body, parametrized over every scheme.

The same test functions run on the local filesystem, on ram:// and on the
testfs:// plugin (tests/plugins/fs_testfs.c, compiled for this session and
loaded with register_filesystem_plugin). The only per-scheme difference is
documented: on ram:// creating a file also creates its missing parents.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tfe_py import errors
from tfe_py import io as tio

_TESTFS_ROOT: dict[str, str] = {}


@dataclass(frozen=True)
class Scheme:
    name: str
    base: str
    implicit_parents: bool

    def p(self, *rel: str) -> str:
        return tio.join(self.base, *rel)


@pytest.fixture(scope="session")
def testfs_root(
    build_test_plugin: Callable[[str], Path], tmp_path_factory: pytest.TempPathFactory
) -> str:
    """Registers the testfs plugin once per process; returns its root."""
    if "testfs" not in tio.get_registered_schemes():
        root = tmp_path_factory.mktemp("testfs-root")
        os.environ["TFE_TESTFS_ROOT"] = str(root)
        tio.register_filesystem_plugin(build_test_plugin("fs_testfs"))
        _TESTFS_ROOT["root"] = str(root)
    return _TESTFS_ROOT.get("root", os.environ.get("TFE_TESTFS_ROOT", ""))


@pytest.fixture(params=["local", "file_uri", "ram", "testfs"])
def scheme(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Scheme]:
    tag = uuid.uuid4().hex[:12]
    if request.param == "local":
        yield Scheme("local", str(tmp_path / "base"), False)
    elif request.param == "file_uri":
        yield Scheme("file_uri", "file://" + str(tmp_path / "base"), False)
    elif request.param == "ram":
        base = f"ram://t{tag}/base"
        yield Scheme("ram", base, True)
        tio.rmtree(f"ram://t{tag}")
    else:
        request.getfixturevalue("testfs_root")
        base = f"testfs://t{tag}/base"
        yield Scheme("testfs", base, False)
        tio.rmtree(f"testfs://t{tag}")


def _prepare(s: Scheme) -> None:
    tio.makedirs(s.base)
    tio.makedirs(s.base)  # already there: fine


# ----------------------------------------------------------- directories


def test_directories(scheme: Scheme) -> None:
    _prepare(scheme)
    assert tio.isdir(scheme.base)
    assert tio.exists(scheme.base)
    tio.mkdir(scheme.p("d"))
    with pytest.raises(errors.AlreadyExistsError):
        tio.mkdir(scheme.p("d"))
    if scheme.implicit_parents:
        tio.mkdir(scheme.p("missing", "child"))
    else:
        with pytest.raises(errors.NotFoundError):
            tio.mkdir(scheme.p("missing", "child"))
    tio.makedirs(scheme.p("a", "b", "c"))
    assert tio.isdir(scheme.p("a", "b"))
    st = tio.stat(scheme.p("d"))
    assert st.is_directory and st.mtime_nsec > 0
    assert not tio.exists(scheme.p("nope"))
    assert not tio.isdir(scheme.p("nope"))


# ------------------------------------------------------------------ files


def test_binary_write_read_seek(scheme: Scheme) -> None:
    _prepare(scheme)
    path = scheme.p("f.bin")
    with tio.GFile(path, "wb") as f:
        assert f.write(b"hello") == 5
        assert f.write(bytearray(b", ")) == 2
        assert f.write(memoryview(b"world\x00!")) == 7
        assert f.tell() == 14
    st = tio.stat(path)
    assert st.length == 14 and not st.is_directory
    with tio.GFile(path, "rb") as f:
        assert f.size() == 14
        assert f.read(5) == b"hello"
        assert f.tell() == 5
        f.seek(7)
        assert f.read(5) == b"world"
        f.seek(-2, os.SEEK_END)
        assert f.read() == b"\x00!"
        assert f.read() == b""
        f.seek(-3, os.SEEK_CUR)
        assert f.read(100) == b"d\x00!"  # short read at the end is fine
        f.seek(0)
        assert f.read() == b"hello, world\x00!"
        with pytest.raises(OSError):
            f.seek(-1)
    # Truncation by a new writer.
    with tio.GFile(path, "wb") as f:
        f.write(b"xy")
    with tio.GFile(path, "rb") as f:
        assert f.read() == b"xy"


def test_text_mode_lines_and_iteration(scheme: Scheme) -> None:
    _prepare(scheme)
    path = scheme.p("t.txt")
    with tio.GFile(path, "w") as f:
        f.write("first line\n")
        f.write("zweite Zeile \u00e4\u00f6\u00fc\n")
        f.writelines(["a\r\n", "last without newline"])
    with tio.GFile(path) as f:
        assert f.readline() == "first line\n"
        assert f.readline() == "zweite Zeile \u00e4\u00f6\u00fc\n"
        # Like TensorFlow: lines end at \n only, \r is kept.
        assert f.readline() == "a\r\n"
        assert f.readline() == "last without newline"
        assert f.readline() == ""
    with tio.GFile(path) as f:
        lines = list(f)
    assert lines == [
        "first line\n",
        "zweite Zeile \u00e4\u00f6\u00fc\n",
        "a\r\n",
        "last without newline",
    ]
    with tio.GFile(path, "r") as f:
        assert f.readlines()[-1] == "last without newline"
        f.seek(0)
        assert f.read(5) == "first"
    with tio.GFile(path, "rb") as f:
        assert next(iter(f)) == b"first line\n"
        assert f.readline() == "zweite Zeile \u00e4\u00f6\u00fc\n".encode()
    # Both str and bytes are accepted for writing, in either mode.
    with tio.GFile(path, "w") as f:
        f.write(b"bytes ")
        f.write("and text")
    with tio.GFile(path, "wb") as f:
        f.write("text in binary mode ")
        f.write(b"and bytes")
    with tio.GFile(path, "rb") as f:
        assert f.read() == b"text in binary mode and bytes"


def test_append_and_exclusive_modes(scheme: Scheme) -> None:
    _prepare(scheme)
    path = scheme.p("log.txt")
    with tio.GFile(path, "a") as f:
        f.write("one\n")
    with tio.GFile(path, "ab") as f:
        assert f.tell() == 4
        f.write(b"two\n")
    with tio.GFile(path) as f:
        assert f.read() == "one\ntwo\n"
    with pytest.raises(errors.AlreadyExistsError):
        tio.GFile(path, "x")
    with tio.GFile(scheme.p("new.txt"), "xb") as f:
        f.write(b"x")
    with pytest.raises(ValueError):
        tio.GFile(path, "r+")


def test_flush_makes_data_visible_before_close(scheme: Scheme) -> None:
    _prepare(scheme)
    path = scheme.p("flushed")
    f = tio.GFile(path, "wb")
    f.write(b"abc")
    f.flush()
    with tio.GFile(path, "rb") as r:
        assert r.read() == b"abc"
    f.sync()
    f.write(b"def")
    f.close()
    f.close()  # idempotent
    assert f.closed
    with tio.GFile(path, "rb") as r:
        assert r.read() == b"abcdef"
    with pytest.raises(ValueError):
        f.write(b"late")


def test_large_file_round_trip(scheme: Scheme) -> None:
    _prepare(scheme)
    data = os.urandom(3 * 1024 * 1024 + 11)
    path = scheme.p("large.bin")
    with tio.GFile(path, "wb") as f:
        pos = 0
        step = 1
        while pos < len(data):
            f.write(data[pos : pos + step])
            pos += step
            step = step * 5 % 400_009 + 1
    assert tio.stat(path).length == len(data)
    with tio.GFile(path, "rb") as f:
        assert f.read() == data
    with tio.GFile(path, "rb") as f:
        parts = []
        while chunk := f.read(1_000_003):
            parts.append(chunk)
    assert b"".join(parts) == data


# ------------------------------------------------------- errors on files


def test_error_codes(scheme: Scheme) -> None:
    _prepare(scheme)
    tio.mkdir(scheme.p("d"))
    with pytest.raises(errors.NotFoundError):
        tio.GFile(scheme.p("missing.txt"))
    # A directory fails at open time, like Python's open().
    with pytest.raises(IsADirectoryError) as info:
        tio.GFile(scheme.p("d"), "rb")
    assert isinstance(info.value, errors.FailedPreconditionError)
    with pytest.raises(errors.FailedPreconditionError):
        tio.GFile(scheme.p("d"), "wb")
    if scheme.implicit_parents:
        with tio.GFile(scheme.p("nodir", "x"), "wb") as f:
            f.write(b"1")
    else:
        with pytest.raises(errors.NotFoundError):
            tio.GFile(scheme.p("nodir", "x"), "wb")
    with pytest.raises(errors.NotFoundError):
        tio.listdir(scheme.p("missing"))
    with tio.GFile(scheme.p("file"), "wb") as f:
        f.write(b"x")
    with pytest.raises(errors.FailedPreconditionError):
        tio.listdir(scheme.p("file"))
    with pytest.raises(errors.FailedPreconditionError):
        tio.remove(scheme.p("d"))
    with pytest.raises(errors.NotFoundError):
        tio.remove(scheme.p("missing"))
    with pytest.raises(errors.NotFoundError):
        tio.stat(scheme.p("missing"))
    with pytest.raises(errors.NotFoundError):
        tio.rmtree(scheme.p("missing"))
    with pytest.raises(errors.PermissionDeniedError):
        tio.GFile(scheme.p("file"), "rb").write(b"no")
    with pytest.raises(errors.PermissionDeniedError), tio.GFile(scheme.p("file"), "wb") as f:
        f.read()


# --------------------------------------------------- listing and walking


def _tree(s: Scheme) -> None:
    _prepare(s)
    for d in ("a", "a/x", "b"):
        tio.mkdir(s.p(d))
    for name in ("a/1.txt", "a/2.txt", "a/x/deep.txt", "b/readme", "top.txt"):
        with tio.GFile(s.p(name), "wb") as f:
            f.write(name.encode())


def test_listdir_glob_walk(scheme: Scheme) -> None:
    _tree(scheme)
    assert tio.listdir(scheme.base) == ["a", "b", "top.txt"]
    assert tio.listdir(scheme.p("a")) == ["1.txt", "2.txt", "x"]
    assert tio.glob(scheme.p("a", "*.txt")) == [scheme.p("a/1.txt"), scheme.p("a/2.txt")]
    assert tio.glob(scheme.p("*", "?.txt")) == [scheme.p("a/1.txt"), scheme.p("a/2.txt")]
    assert tio.glob(scheme.p("*", "*", "deep.*")) == [scheme.p("a/x/deep.txt")]
    assert tio.glob([scheme.p("b/*"), scheme.p("*.txt")]) == [
        scheme.p("b/readme"),
        scheme.p("top.txt"),
    ]
    # Python-like: a missing directory matches nothing.
    assert tio.glob(scheme.p("missing", "*")) == []
    walked = list(tio.walk(scheme.base))
    assert walked == [
        (scheme.base, ["a", "b"], ["top.txt"]),
        (scheme.p("a"), ["x"], ["1.txt", "2.txt"]),
        (scheme.p("a", "x"), [], ["deep.txt"]),
        (scheme.p("b"), [], ["readme"]),
    ]
    bottom_up = [w[0] for w in tio.walk(scheme.base, topdown=False)]
    assert bottom_up == [scheme.p("a", "x"), scheme.p("a"), scheme.p("b"), scheme.base]
    # Pruning in place, as with os.walk.
    pruned = []
    for top, dirs, _files in tio.walk(scheme.base):
        pruned.append(top)
        dirs[:] = [d for d in dirs if d != "a"]
    assert pruned == [scheme.base, scheme.p("b")]
    seen: list[errors.OpError] = []
    assert list(tio.walk(scheme.p("missing"), onerror=seen.append)) == []
    assert len(seen) == 1 and isinstance(seen[0], errors.NotFoundError)


# --------------------------------------------------- rename, copy, delete


def test_rename_copy_delete(scheme: Scheme) -> None:
    _tree(scheme)
    # Rename across directories.
    tio.rename(scheme.p("a/1.txt"), scheme.p("b/one.txt"))
    assert not tio.exists(scheme.p("a/1.txt"))
    with tio.GFile(scheme.p("b/one.txt"), "rb") as f:
        assert f.read() == b"a/1.txt"
    with pytest.raises(errors.AlreadyExistsError):
        tio.rename(scheme.p("a/2.txt"), scheme.p("b/one.txt"))
    tio.rename(scheme.p("a/2.txt"), scheme.p("b/one.txt"), overwrite=True)
    with tio.GFile(scheme.p("b/one.txt"), "rb") as f:
        assert f.read() == b"a/2.txt"
    with pytest.raises(errors.NotFoundError):
        tio.rename(scheme.p("a/gone"), scheme.p("b/x"), overwrite=True)
    # A directory moves with its contents.
    tio.rename(scheme.p("a/x"), scheme.p("moved"))
    assert tio.listdir(scheme.p("moved")) == ["deep.txt"]

    tio.copy(scheme.p("b/one.txt"), scheme.p("copy.txt"))
    assert tio.exists(scheme.p("b/one.txt"))
    with pytest.raises(errors.AlreadyExistsError):
        tio.copy(scheme.p("top.txt"), scheme.p("copy.txt"))
    tio.copy(scheme.p("top.txt"), scheme.p("copy.txt"), overwrite=True)
    with tio.GFile(scheme.p("copy.txt"), "rb") as f:
        assert f.read() == b"top.txt"
    tio.copy(scheme.p("top.txt"), scheme.p("moved"))  # into a directory
    assert tio.listdir(scheme.p("moved")) == ["deep.txt", "top.txt"]
    with pytest.raises(errors.NotFoundError):
        tio.copy(scheme.p("gone"), scheme.p("x"))

    tio.remove(scheme.p("copy.txt"))
    assert not tio.exists(scheme.p("copy.txt"))
    tio.rmtree(scheme.p("moved"))
    assert not tio.exists(scheme.p("moved"))
    assert tio.listdir(scheme.base) == ["a", "b", "top.txt"]


# ------------------------------------------------------- across schemes


def test_copy_between_schemes(tmp_path: Path, testfs_root: str) -> None:
    assert testfs_root
    data = os.urandom(2 * 1024 * 1024 + 3)
    src = tmp_path / "src.bin"
    src.write_bytes(data)
    tag = uuid.uuid4().hex[:8]
    tio.copy(str(src), f"ram://x{tag}/copy.bin")
    tio.makedirs(f"testfs://x{tag}")
    tio.copy(f"ram://x{tag}/copy.bin", f"testfs://x{tag}/copy.bin")
    tio.copy(f"testfs://x{tag}/copy.bin", str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == data
    with pytest.raises(errors.UnimplementedError):
        tio.rename(f"ram://x{tag}/copy.bin", f"testfs://x{tag}/renamed.bin")
    tio.rmtree(f"ram://x{tag}")
    tio.rmtree(f"testfs://x{tag}")


def test_local_files_match_pythons_view(tmp_path: Path) -> None:
    with tio.GFile(str(tmp_path / "p.txt"), "w") as f:
        f.write("from tfe\n")
    assert (tmp_path / "p.txt").read_text() == "from tfe\n"
    (tmp_path / "q.txt").write_text("from python\n")
    with tio.GFile(tmp_path / "q.txt") as f:  # os.PathLike works
        assert f.read() == "from python\n"
    assert tio.stat(tmp_path / "q.txt").length == os.stat(tmp_path / "q.txt").st_size


# ------------------------------------- promises under stress (issue 13)


@pytest.fixture(params=["local", "ram"])
def builtin(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Scheme]:
    """The built-in filesystems, whose promises are atomic."""
    if request.param == "local":
        yield Scheme("local", str(tmp_path / "base"), False)
    else:
        tag = uuid.uuid4().hex[:12]
        yield Scheme("ram", f"ram://s{tag}/base", True)
        tio.rmtree(f"ram://s{tag}")


def test_exclusive_create_is_atomic(builtin: Scheme) -> None:
    """Threads racing GFile(path, "xb"): exactly one wins every time (it
    used to check, then open with "w", and two could both succeed)."""
    _prepare(builtin)
    racers = 4
    start = time.monotonic()
    for trial in range(300):
        path = builtin.p(f"f{trial}")
        barrier = threading.Barrier(racers)
        outcome: list[str] = []

        def race(
            me: int,
            path: str = path,
            barrier: threading.Barrier = barrier,
            outcome: list[str] = outcome,
        ) -> None:
            barrier.wait()
            try:
                with tio.GFile(path, "xb") as f:
                    f.write(b"%d" % me)
                outcome.append("won")
            except errors.AlreadyExistsError:
                outcome.append("lost")

        threads = [threading.Thread(target=race, args=(i,)) for i in range(racers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome) == ["lost"] * (racers - 1) + ["won"], (trial, outcome)
    assert time.monotonic() - start < 30


def test_exclusive_create_refuses_directories(builtin: Scheme) -> None:
    _prepare(builtin)
    with pytest.raises(errors.AlreadyExistsError):
        tio.GFile(builtin.base, "xb")


def _on_small_stack(fn: Callable[[], None]) -> None:
    """Runs fn on a thread with a 256 KiB stack; re-raises its error."""
    errs: list[BaseException] = []

    def body() -> None:
        try:
            fn()
        except BaseException as e:  # handed back to the caller
            errs.append(e)

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=body)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    if errs:
        raise errs[0]


def test_rmtree_deep_ram_tree_is_linear() -> None:
    """10,000 levels: deleted in well under a second on a small stack (it
    took 63 s at 8,000 and overflowed a 256 KiB stack at 3,000)."""
    top = f"ram://deep{uuid.uuid4().hex[:8]}"
    leaf = top + "/x" * 10_000
    tio.makedirs(leaf)
    with tio.GFile(leaf + "/f.bin", "wb") as f:
        f.write(b"leaf")
    took: list[float] = []

    def delete() -> None:
        t0 = time.monotonic()
        tio.rmtree(top)
        took.append(time.monotonic() - t0)

    _on_small_stack(delete)
    assert not tio.exists(top)
    assert took[0] < 0.5, took


def test_glob_repeated_dotdot_is_linear(builtin: Scheme) -> None:
    """Repeated "*/.." used to multiply the candidates by the fan-out at
    every step (a 60-character pattern: 20 s, 16.7 M results)."""
    _prepare(builtin)
    subdirs = [builtin.p(c) for c in "abcdefgh"]
    for d in subdirs:
        tio.makedirs(tio.join(d, "in"))
    pattern = builtin.base + "/" + "*/../" * 10 + "*"
    t0 = time.monotonic()
    assert tio.glob(pattern) == subdirs
    assert time.monotonic() - t0 < 1.0
    assert tio.glob(builtin.p("*", "..")) == [builtin.base]
    assert tio.glob(builtin.p("*", "in", "..", ".")) == subdirs
    # Patterns without "." or ".." after a wildcard are unchanged.
    assert tio.glob(builtin.p("*", "in")) == [tio.join(d, "in") for d in subdirs]


def test_truncation_by_another_handle(builtin: Scheme) -> None:
    """Handles sharing a file that another handle truncates: ram:// does
    what POSIX (the local filesystem) does."""
    _prepare(builtin)
    path = builtin.p("shared.bin")
    w1 = tio.GFile(path, "wb")
    w1.write(b"0123456789")
    w1.flush()
    app = tio.GFile(path, "ab")
    assert app.tell() == 10
    reader = tio.GFile(path, "rb")
    w2 = tio.GFile(path, "wb")  # truncates
    assert tio.stat(path).length == 0
    reader.seek(5)
    assert reader.read() == b""  # past the new end
    w2.write(b"ab")
    w2.flush()
    app.write(b"XY")  # at the end as it is now
    app.flush()
    assert app.tell() == 4
    w1.write(b"cd")  # at its own offset: a zero-filled gap first
    w1.flush()
    assert w1.tell() == 12
    w2.write(b"ef")  # overwrites at its own offset
    w2.flush()
    with tio.GFile(path, "rb") as f:
        assert f.read() == b"abef" + b"\0" * 6 + b"cd"
    for h in (w1, w2, app, reader):
        h.close()


def test_walk_deeper_than_the_recursion_limit() -> None:
    top = f"ram://walk{uuid.uuid4().hex[:8]}"
    depth = 3000
    tio.makedirs(top + "/d" * depth)
    with tio.GFile(top + "/d/f.txt", "w") as f:
        f.write("x")
    down = list(tio.walk(top))
    assert len(down) == depth + 1
    assert down[0] == (top, ["d"], [])
    assert down[1] == (top + "/d", ["d"], ["f.txt"])
    up = list(tio.walk(top, topdown=False))
    assert up == down[::-1]
    # Pruning in place still stops the descent.
    pruned = []
    for dirpath, subdirs, _ in tio.walk(top):
        pruned.append(dirpath)
        if dirpath == top + "/d":
            subdirs.clear()
    assert pruned == [top, top + "/d"]
    tio.rmtree(top)
