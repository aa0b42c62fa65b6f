"""tfe_py.io: the scheme registry and plugin loading from Python.

Broken plugins come from tests/plugins/fs_broken_*.c, compiled for this
session; each is rejected with its exact message and leaves the list of
schemes as it was.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tfe_py import errors
from tfe_py import io as tio


def test_builtin_schemes() -> None:
    schemes = tio.get_registered_schemes()
    assert schemes == sorted(schemes)
    assert {"", "file", "ram"} <= set(schemes)


def test_missing_plugin_file(tmp_path: Path) -> None:
    before = tio.get_registered_schemes()
    with pytest.raises(errors.NotFoundError) as info:
        tio.register_filesystem_plugin(tmp_path / "nope.so")
    assert str(tmp_path / "nope.so") in str(info.value)
    assert tio.get_registered_schemes() == before


def test_empty_plugin_path_is_not_found() -> None:
    # As in TF: "" names no loadable library.
    before = tio.get_registered_schemes()
    with pytest.raises(errors.NotFoundError):
        tio.register_filesystem_plugin("")
    assert tio.get_registered_schemes() == before


def test_plugin_without_schemes_loads(build_test_plugin: Callable[[str], Path]) -> None:
    # TF loads a plugin that declares no scheme and registers nothing.
    before = tio.get_registered_schemes()
    tio.register_filesystem_plugin(build_test_plugin("fs_broken_no_schemes"))
    assert tio.get_registered_schemes() == before


@pytest.mark.parametrize(
    ("plugin", "error", "message"),
    [
        (
            "fs_broken_no_entry",
            errors.NotFoundError,
            "filesystem plugin '{path}' does not export the entry point TF_InitPlugin",
        ),
        (
            "fs_broken_abi_wf",
            errors.FailedPreconditionError,
            "filesystem plugin '{path}', scheme 'brokenabiwf': table TF_WritableFileOps has "
            "ABI version 3 but the core expects 0; plugin cannot be loaded",
        ),
        (
            "fs_broken_dep_raf",
            errors.FailedPreconditionError,
            "filesystem plugin '{path}', scheme 'brokendepraf': "
            "TF_FilesystemOps.new_random_access_file is set but "
            "TF_FilesystemPluginOps.random_access_file_ops is NULL",
        ),
        (
            "fs_broken_bad_scheme",
            errors.InvalidArgumentError,
            "filesystem plugin '{path}': scheme 'my-fs' is not valid: use \"\" for local "
            "paths, or a letter followed by letters, digits or '.'",
        ),
        (
            "fs_broken_dup_builtin",
            errors.AlreadyExistsError,
            "filesystem plugin '{path}': scheme 'ram' is already registered "
            "(by built-in ram filesystem)",
        ),
        (
            "fs_broken_init_fails",
            errors.PermissionDeniedError,
            "backend refused the credentials",
        ),
    ],
)
def test_broken_plugins_are_rejected(
    build_test_plugin: Callable[[str], Path],
    plugin: str,
    error: type[errors.OpError],
    message: str,
) -> None:
    path = build_test_plugin(plugin)
    before = tio.get_registered_schemes()
    with pytest.raises(error) as info:
        tio.register_filesystem_plugin(path)
    assert str(info.value) == message.format(path=path)
    assert tio.get_registered_schemes() == before


def test_older_plugin_missing_operation_is_unimplemented(
    build_test_plugin: Callable[[str], Path],
) -> None:
    if "oldfs" not in tio.get_registered_schemes():
        tio.register_filesystem_plugin(build_test_plugin("fs_old_plugin"))
    assert "oldfs" in tio.get_registered_schemes()
    assert tio.stat("oldfs:///hello").length == 5
    with tio.GFile("oldfs:///hello", "rb") as f, pytest.raises(errors.UnimplementedError) as info:
        f.read()
    assert "`read` operation" in str(info.value)
    with pytest.raises(errors.UnimplementedError):
        tio.listdir("oldfs:///")


def test_plugin_scheme_cannot_be_registered_twice(
    build_test_plugin: Callable[[str], Path],
) -> None:
    path = build_test_plugin("fs_new_plugin")
    if "newfs" not in tio.get_registered_schemes():
        tio.register_filesystem_plugin(path)
    with tio.GFile("newfs:///hello", "rb") as f:
        assert f.read() == b"hello"
    with pytest.raises(errors.AlreadyExistsError):
        tio.register_filesystem_plugin(path)


def test_unregistered_scheme() -> None:
    with pytest.raises(errors.UnimplementedError):
        tio.GFile("nosuchscheme://x/y")
    assert not tio.isdir("nosuchscheme://x")
    with pytest.raises(errors.UnimplementedError):
        tio.exists("nosuchscheme://x")


def test_ram_paths_need_no_makedirs() -> None:
    tag = uuid.uuid4().hex[:8]
    with tio.GFile(f"ram://{tag}/y.bin", "wb") as f:
        f.write(b"...")
    assert tio.isdir(f"ram://{tag}")
    assert tio.listdir(f"ram://{tag}") == ["y.bin"]
    # The host is just the first directory: both spellings name one file.
    with tio.GFile(f"ram:///{tag}/y.bin", "rb") as f:
        assert f.read() == b"..."
    tio.rmtree(f"ram://{tag}")


def test_join() -> None:
    assert tio.join("ram://h", "a", "b") == "ram://h/a/b"
    assert tio.join("/x/", "y") == "/x/y"
    assert tio.join("a", "/abs") == "/abs"
    assert tio.join(b"a", "b") == "a/b"
