"""``python -m tfe_py doctor``: reports, contract violations, crashes.

Every run starts child processes, so these tests are a few seconds each.
The example plugins are built into a temporary cache directory.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tfe_py import doctor

REPO = Path(__file__).resolve().parents[2]


def run_doctor(
    *args: str, tmp_path: Path, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["TFE_DOCTOR_CACHE"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "tfe_py", "doctor", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_example_plugins_pass(tmp_path: Path) -> None:
    proc = run_doctor(tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "2 of 2 plugin(s) passed" in out
    assert "platform TFE_TEST_PLATFORM, device type MY_DEVICE" in out
    assert "kind: PluggableDevice plugin (SE_InitPlugin, TF_InitKernel, TF_InitGraph" in out
    assert "Sum: MY_DEVICE T=float Tidx=int32/int64 host:reduction_indices" in out
    assert (
        "graph optimizer for MY_DEVICE (remapping=off): runs on the graphs sessions execute "
        "with MY_DEVICE devices" in out
    )
    assert "self-test pass: ran (1 call) on a 5-node graph and changed nothing" in out
    assert "ops defined: TfeTestRowSums, TfeTestScaleAdd" in out
    assert "contract violations: none" in out
    assert "result: FAIL" not in out


def test_json_report_lists_smoke_tests(tmp_path: Path) -> None:
    proc = run_doctor("--json", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    reports = json.loads(proc.stdout)
    device = reports[0]
    names = {s["name"]: s["status"] for s in device["smoke"]}
    assert names["MatMul[float] on device:MY_DEVICE:0 vs CPU"] == "pass"
    assert names["device:MY_DEVICE:1: event orders streams"] == "pass"
    assert names["memory returns to the plugin"] == "pass"
    assert names["copy round trip of 262144 floats"] == "pass"
    assert device["platforms"][0]["devices"][0]["memory_total"] == 64 << 20
    ops = reports[1]
    assert {s["name"] for s in ops["smoke"]} == {"op TfeTestRowSums", "op TfeTestScaleAdd"}


def test_broken_plugin_fails_with_its_message(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("se_broken_no_allocate")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1
    assert (
        f"load: device plugin '{path}': 'allocate' field in SP_StreamExecutor must be set."
        in proc.stdout
    )
    assert "0 of 1 plugin(s) passed" in proc.stdout


def test_crash_in_se_init_plugin_is_survived(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    crash = build_test_plugin("se_broken_crash_init")
    ok = build_test_plugin("op_lib_test")
    proc = run_doctor(str(crash), str(ok), tmp_path=tmp_path)
    assert proc.returncode == 1
    assert "CRASH: the plugin crashed with SIGSEGV during: load: SE_InitPlugin" in proc.stdout
    assert "1 of 2 plugin(s) passed" in proc.stdout


def test_old_plugin_reports_missing_fill_functions(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("pd_old_device")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout
    for field in ("mem_zero", "memset", "memset32"):
        assert f"'{field}' field in SP_StreamExecutor is not set" in out
    assert "SP_StreamExecutor.struct_size is 264, TensorFlow 2.21's is 288" in out
    # Everything else about it works.
    assert "[fail] MatMul" not in out


def test_missing_file(tmp_path: Path) -> None:
    proc = run_doctor(str(tmp_path / "nope.so"), tmp_path=tmp_path)
    assert proc.returncode == 1
    assert "NotFoundError" in proc.stdout


def test_report_helpers() -> None:
    report = {
        "path": "/x.so",
        "kind": "ops",
        "ops": ["A"],
        "kernels": [],
        "platforms": [],
        "violations": [],
        "smoke": [{"name": "op A", "status": "pass", "detail": ""}],
        "notes": [],
    }
    text = doctor.format_report(report)
    assert "ops defined: A" in text and "result: PASS" in text
    assert doctor.passed(report)
    report["violations"] = [{"where": "x", "message": "y"}]
    assert not doctor.passed(report)
    assert "x: y" in doctor.format_report(report)


@pytest.mark.parametrize("argv", [["doctor", "--help"]])
def test_help(argv: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tfe_py", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert proc.returncode == 0
    assert "PLUGIN.so" in proc.stdout


def test_example_builds_are_reused_until_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TFE_DOCTOR_CACHE", str(tmp_path / "cache"))
    first = doctor.example_plugins()
    stamps = {p: p.stat().st_mtime_ns for p in first}
    # Same sources: nothing is rebuilt.
    again = doctor.example_plugins()
    assert again == first
    assert {p: p.stat().st_mtime_ns for p in again} == stamps
    # A build whose recorded digest no longer matches the sources (as after
    # an edit, whatever the file times say) is rebuilt.
    device = next(p for p in first if "example_device" in p.name)
    Path(str(device) + ".sha256").write_text("stale\n")
    doctor.example_plugins()
    assert device.stat().st_mtime_ns != stamps[device]
    assert Path(str(device) + ".sha256").read_text().strip() != "stale"


# ---------------------------------------------------------------------------
# A crash keeps the partial report and the full stage name


def test_crash_in_self_test_keeps_what_was_learned(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_crash_selftest")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    stage = "self-test /job:localhost/replica:0/task:0/device:MY_DEVICE:0"
    assert f"CRASH: the plugin crashed with SIGSEGV during: {stage}" in out
    # What was learned before the crash is still reported.
    assert "kind: PluggableDevice plugin (SE_InitPlugin, TF_InitKernel" in out
    assert "devices: 2" in out
    assert "/job:localhost/replica:0/task:0/device:MY_DEVICE:1: tfe arena device" in out
    assert "MatMul: MY_DEVICE T=float" in out
    # The violation names the whole stage, ':' in the device name included.
    assert f"    {stage}: the plugin crashed with SIGSEGV" in out

    proc = run_doctor("--json", str(path), tmp_path=tmp_path)
    (report,) = json.loads(proc.stdout)
    assert report["kind"] == "device"
    assert len(report["platforms"][0]["devices"]) == 2
    assert {k["op"] for k in report["kernels"]} >= {"MatMul", "AddV2", "Sum"}
    assert report["violations"][-1]["where"] == stage


def _channel(nonce: str, *events: object) -> str:
    """Report channel text as the child writes it."""
    return "".join(f"\n{nonce} {json.dumps(ev)}\n" for ev in events)


def test_replay_events_rebuilds_the_report_from_a_torn_stream() -> None:
    nonce = "0f" * 16
    text = _channel(
        nonce,
        {"stage": "load: SE_InitPlugin"},
        {"set": "kind", "value": "device"},
        {"add": "smoke", "value": {"name": "a", "status": "pass", "detail": ""}},
        {"stage": "self-test /job:localhost/replica:0/task:0/device:X:0"},
    )
    torn = f'\n{nonce} {{"add": "smo'
    replay = doctor.replay_events("/p.so", text + torn, nonce)
    assert not replay.finished and not replay.malformed and replay.foreign == 0
    report = replay.report
    assert report["kind"] == "device" and report["path"] == "/p.so"
    assert report["smoke"] == [{"name": "a", "status": "pass", "detail": ""}]
    assert replay.stages[-1] == "self-test /job:localhost/replica:0/task:0/device:X:0"
    final = {**report, "kind": "ops"}
    replay = doctor.replay_events("/p.so", text + _channel(nonce, {"final": final}), nonce)
    assert replay.finished and replay.report["kind"] == "ops" and not replay.malformed
    # Only death cuts a line short: the child writing on after it is not.
    replay = doctor.replay_events("/p.so", text + torn + _channel(nonce, {"final": final}), nonce)
    assert replay.malformed and "is not JSON" in replay.malformed[0]


def test_replay_events_ignores_lines_without_the_nonce() -> None:
    nonce = "ab" * 16
    forged = {**doctor._empty_report("/p.so"), "kind": "ops", "ops": ["Forged"]}
    text = (
        "junk without an end"
        + _channel(nonce, {"stage": "load"}, {"set": "kind", "value": "ops"})
        + json.dumps({"final": forged})
        + "\n"
        + _channel("cd" * 16, {"final": forged})
        + '@@tfe-doctor-report {"final": 5}\n'
    )
    replay = doctor.replay_events("/p.so", text, nonce)
    # The unfinished junk ends at the child's own newline; the child's
    # events count, the rest (4 lines) is someone else's.
    assert not replay.finished and not replay.malformed
    assert replay.foreign == 4
    assert replay.report["kind"] == "ops" and replay.report["ops"] == []


@pytest.mark.parametrize(
    "events, problem",
    [
        ([{"final": 5}], "the final report is malformed: the report is a JSON int"),
        ([{"final": {"path": "/other.so"}}], "the report is about '/other.so'"),
        ([{"final": {"path": "/p.so", "violations": "none"}}], "'violations' is not a list"),
        ([{"final": {"path": "/p.so", "smoke": [{"name": 1}]}}], "an entry of 'smoke'"),
        ([{"final": {"path": "/p.so", "platforms": [{}]}}], "cannot be read (KeyError"),
        ([{"set": "violations", "value": 3}], "the events make no report: 'violations'"),
        ([{"add": "kind", "value": 1}], "not an event"),
        ([{"stage": {}}], "not an event"),
        ([[1, 2]], "not an event"),
    ],
)
def test_malformed_report_from_the_child_fails_with_its_output(
    events: list[object], problem: str
) -> None:
    nonce = "01" * 16
    run = doctor.ChildRun(
        status=0,
        timed_out=False,
        channel=_channel(nonce, {"stage": "load"}, *events).encode(),
        output="".join(f"child line {i}\n" for i in range(1, 41)),
    )
    report = doctor.judge("/p.so", run, nonce, timeout=10)
    assert not doctor.passed(report)
    messages = [v["message"] for v in report["violations"] if v["where"] == doctor.REPORT_CHANNEL]
    assert len(messages) == 1 and problem in messages[0], messages
    text = doctor.format_report(report)
    assert "Traceback" not in text
    assert "the child's stderr and stdout (last 20 of 40 lines):" in text
    assert "    | child line 40" in text and "| child line 20\n" not in text


def test_not_json_on_the_channel_is_malformed() -> None:
    nonce = "02" * 16
    text = _channel(nonce, {"stage": "load"}) + f"\n{nonce} {{not json\n"
    replay = doctor.replay_events("/p.so", text, nonce)
    assert replay.malformed and "line 4 is not JSON" in replay.malformed[0]


def test_verdict_needs_status_zero_and_the_final_report() -> None:
    nonce = "03" * 16
    final = {**doctor._empty_report("/p.so"), "kind": "ops", "ops": ["A"]}
    channel = _channel(nonce, {"stage": "done"}, {"final": final}).encode()
    ok = doctor.judge("/p.so", doctor.ChildRun(0, False, channel, ""), nonce, 10)
    assert doctor.passed(ok) and "crash" not in ok
    # A crash after the final report is still a crash.
    late = doctor.judge("/p.so", doctor.ChildRun(-11, False, channel, ""), nonce, 10)
    assert late["crash"] == (
        "the plugin crashed with SIGSEGV during: process exit, after every check "
        "(destructors, atexit handlers)"
    )
    assert not doctor.passed(late) and late["ops"] == ["A"]
    # So is being killed at the timeout, whatever was sent before.
    slow = doctor.judge("/p.so", doctor.ChildRun(-9, True, channel, ""), nonce, 10)
    assert slow["crash"].startswith("the plugin timed out after 10 s")
    # The same report under another nonce is no report at all.
    other = doctor.judge("/p.so", doctor.ChildRun(0, False, channel, ""), "04" * 16, 10)
    assert other["crash"] == "the plugin exited without a report during: start-up"
    assert "the child wrote nothing on stderr or stdout" in doctor.format_report(other)


# ---------------------------------------------------------------------------
# Filesystem plugins: smoke tests in a scratch folder, and nowhere else


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path below root with its contents (None for a folder)."""
    return {
        str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


def _testfs_root(tmp_path: Path) -> Path:
    """A testfs backing folder with files next to and inside the folder
    named as --fs-root, which the doctor must leave alone."""
    root = tmp_path / "testfs-root"
    (root / "bucket" / "tmp" / "old").mkdir(parents=True)
    (root / "bucket" / "keep.txt").write_bytes(b"outside the fs root")
    (root / "bucket" / "tmp" / "other.txt").write_bytes(b"inside the fs root")
    (root / "bucket" / "tmp" / "old" / "x.bin").write_bytes(b"\x00" * 10)
    return root


def test_filesystem_smoke_tests_run_in_a_scratch_folder_only(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("fs_testfs")
    root = _testfs_root(tmp_path)
    before = _tree(root)
    env = {**os.environ, "TFE_TESTFS_ROOT": str(root)}
    proc = run_doctor(
        "-v", "--fs-root", "testfs://bucket/tmp", str(path), tmp_path=tmp_path, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "kind: filesystem plugin (TF_InitPlugin)" in out
    for name in (
        "create folder (create_dir)",
        "write (new_writable_file)",
        "read (new_random_access_file)",
        "append (new_appendable_file)",
        "read after append (new_appendable_file)",
        "stat (stat)",
        "stat of a folder (stat)",
        "create subfolder (create_dir)",
        "list (get_children)",
        "rename (rename_file)",
        "delete (delete_file)",
        "recursive delete (delete_recursively)",
    ):
        assert f"[pass] testfs:// {name}" in out, name
    assert "smoke tests: 12 passed, 0 failed, 0 skipped" in out
    assert "[pass] testfs:// create folder (create_dir) (testfs://bucket/tmp/tfe-doctor-" in out
    assert "not supported" not in out
    # Nothing outside the scratch folder changed, and the folder is gone.
    assert _tree(root) == before


def test_filesystem_operations_left_out_are_not_supported(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fs_minimal")
    root = _testfs_root(tmp_path)
    before = _tree(root)
    env = {**os.environ, "TFE_TESTFS_ROOT": str(root)}
    proc = run_doctor(
        "--json", "--fs-root", "docmin://bucket/tmp/", str(path), tmp_path=tmp_path, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (report,) = json.loads(proc.stdout)
    assert report["schemes"] == ["docmin"]
    assert report["fs_unsupported"] == [
        {
            "scheme": "docmin",
            "root": "docmin://bucket/tmp",
            "operations": [
                "append (new_appendable_file)",
                "list (get_children)",
                "recursive delete (delete_recursively)",
            ],
        }
    ]
    status = {x["name"]: x["status"] for x in report["smoke"]}
    # rename_file and copy_file are left out too, but the runtime's default
    # (copy, then delete) does the rename.
    assert status["docmin:// rename (rename_file)"] == "pass"
    assert status["docmin:// write (new_writable_file)"] == "pass"
    assert status["docmin:// list (get_children)"] == "skip"
    assert report["violations"] == []
    # Without a recursive delete, the doctor removed its folder file by file.
    assert _tree(root) == before

    proc = run_doctor("--fs-root", "docmin://bucket/tmp", str(path), tmp_path=tmp_path, env=env)
    assert (
        "not supported by the plugin (docmin://): append (new_appendable_file), "
        "list (get_children), recursive delete (delete_recursively)" in proc.stdout
    )
    assert "result: PASS" in proc.stdout


def test_filesystem_smoke_tests_need_a_named_root(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("fs_testfs")
    root = _testfs_root(tmp_path)
    before = _tree(root)
    env = {**os.environ, "TFE_TESTFS_ROOT": str(root)}
    proc = run_doctor(str(path), tmp_path=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (
        "note: filesystem smoke tests for testfs:// skipped: name a folder they may use with "
        "--fs-root testfs://BUCKET/PATH" in proc.stdout
    )
    assert "smoke tests: 0 passed, 0 failed, 1 skipped" in proc.stdout
    # A root that does not exist: nothing is created to make it exist.
    proc = run_doctor(
        "--fs-root", "testfs://bucket/missing/dir", str(path), tmp_path=tmp_path, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cannot create a folder in --fs-root testfs://bucket/missing/dir" in proc.stdout
    # A root of another scheme is ignored, with a note.
    proc = run_doctor("--fs-root", "gs://bucket/tmp", str(path), tmp_path=tmp_path, env=env)
    assert "--fs-root gs://bucket/tmp ignored: the plugin did not register the scheme 'gs'" in (
        proc.stdout
    )
    assert _tree(root) == before


# ---------------------------------------------------------------------------
# Unresolved symbols: all of them, classified


def test_unresolved_symbols_are_all_listed_and_classified(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_unresolved_many")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout
    assert "load failed: NotFoundError: could not load" in out
    assert "unresolved symbols (7):" in out
    assert "TensorFlow C API functions tfe does not have (2):" in out
    assert "TensorFlow C++ internals (4):" in out
    assert "symbols of other libraries (1):" in out
    assert "no C-API runtime, tfe included, can provide their internals" in out
    proc = run_doctor("--json", str(path), tmp_path=tmp_path)
    (report,) = json.loads(proc.stdout)
    kinds = {u["name"]: u["kind"] for u in report["unresolved"]}
    assert kinds == {
        "TF_DoctorTestFunctionTfeLacks": "tf_c_api",
        "TFE_DoctorTestFunctionTfeLacks": "tf_c_api",
        "_ZN10tensorflow6TensorC1Ev": "tf_cxx",
        "_ZN10tensorflow8OpKernelD2Ev": "tf_cxx",
        "_ZN3tsl3Env7DefaultEv": "tf_cxx",
        "_ZN4absl5Mutex4LockEv": "tf_cxx",
        "doctor_vendor_runtime_init": "other",
    }
    # Symbols libc or libtfe provide are not listed (the plugin needs none
    # here but the C runtime's), nor are weak references.
    assert "__cxa_finalize" not in kinds


def test_read_elf_dynamic_and_classify_symbol(build_test_plugin: Callable[[str], Path]) -> None:
    elf = doctor.read_elf_dynamic(build_test_plugin("doctor_unresolved_many"))
    assert "SE_InitPlugin" in elf.defined
    assert "_ZN10tensorflow6TensorC1Ev" in elf.undefined
    assert "doctor_vendor_runtime_init" in elf.undefined
    assert "__cxa_finalize" not in elf.undefined  # weak
    elf = doctor.read_elf_dynamic(build_test_plugin("pd_test_device"))
    assert any(n.startswith("libc.so") for n in elf.needed)
    assert {"SE_InitPlugin", "TF_InitKernel", "TF_InitGraph", "TF_InitProfiler"} <= elf.defined
    assert "TF_NewKernelBuilder" in elf.undefined
    with pytest.raises(ValueError):
        doctor.read_elf_dynamic(Path(__file__))
    assert doctor.classify_symbol("TF_NewTensor") == "tf_c_api"
    assert doctor.classify_symbol("TP_Foo") == "tf_c_api"
    assert doctor.classify_symbol("_ZNK10tensorflow6Status8ToStringEv") == "tf_cxx"
    assert doctor.classify_symbol("_ZN3xla5ShapeC1Ev") == "tf_cxx"
    assert doctor.classify_symbol("_ZNSt6vectorIiSaIiEED1Ev") == "other"
    assert doctor.classify_symbol("cudaMalloc") == "other"


# ---------------------------------------------------------------------------
# TensorFlow's own checks decide what is a violation


def test_ordinal_not_written_is_a_warning_only(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_ordinal_unset")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "warnings: 1" in out
    assert "create_device for ordinal 1 set SP_Device.ordinal to 0 (TensorFlow checks only" in out
    assert "contract violations: none" in out
    assert "result: PASS" in out


@pytest.mark.parametrize(
    ("which", "field", "handle"),
    [
        ("timer", "create_timer", "SP_Timer"),
        ("event", "create_event", "SP_Event"),
        ("stream", "create_stream", "SP_Stream"),
    ],
)
def test_null_handles_from_callbacks_are_violations(
    build_test_plugin: Callable[[str], Path], tmp_path: Path, which: str, field: str, handle: str
) -> None:
    path = build_test_plugin("doctor_null_handle")
    env = {**os.environ, "TFE_DOCTOR_NULL_HANDLE": which}
    proc = run_doctor("--json", str(path), tmp_path=tmp_path, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (report,) = json.loads(proc.stdout)
    message = f"SP_StreamExecutor.{field} returned OK but left the {handle} NULL"
    hits = [v for v in report["violations"] if v["where"] == f"SP_StreamExecutor.{field}"]
    assert len(hits) == 2, report["violations"]  # one per device
    assert all(message in v["message"] for v in hits)
    # Neither the self-test nor the runtime's copies hand the NULL handle
    # back to the plugin: the runtime reports it as INTERNAL instead.
    assert "crash" not in report, report.get("crash")


# ---------------------------------------------------------------------------
# What is a plugin at all; ops tfe does not know


def test_library_that_is_no_plugin_fails(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    libs = [str(build_test_plugin("lib_empty"))]
    libz = next(
        (p for p in ("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/libz.so.1") if Path(p).exists()),
        None,
    )
    if libz is not None:
        libs.append(libz)
    ok = build_test_plugin("op_lib_test")
    proc = run_doctor(*libs, str(ok), tmp_path=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout
    assert out.count("kind: not a TensorFlow plugin") == len(libs)
    assert out.count("load: not a TensorFlow plugin: the library exports no plugin entry") == len(
        libs
    )
    assert "op and kernel library" not in out.split("op_lib_test.so")[0]
    # A real op library (registering from a static constructor) still is one.
    assert out.split("op_lib_test.so")[1].count("kind: op and kernel library") == 1
    assert f"1 of {len(libs) + 1} plugin(s) passed" in out


def test_library_with_only_tf_init_kernel_is_still_a_plugin(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_kernel_entry_only")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "kind: op and kernel library" in proc.stdout
    assert "note: the library exports TF_InitKernel but no SE_InitPlugin" in proc.stdout


def test_kernels_for_standard_ops_are_known_ops(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    # tfe defines every TF 2.21 op (issue 18), so a kernel for a standard op
    # tfe has no kernel of its own for (doctor_unknown_ops.c uses
    # BoostedTreesBucketize) is neither an unknown op nor a violation; the
    # kernel for an op nobody defines still is one.
    from tfe_py import _opgen

    standard = "BoostedTreesBucketize"
    assert standard in doctor._tf_op_names()
    assert standard in _opgen.list_op_names()
    path = build_test_plugin("doctor_unknown_ops")
    proc = run_doctor("--json", str(path), tmp_path=tmp_path)
    (report,) = json.loads(proc.stdout)
    assert report.get("ops_not_in_tfe", []) == []
    assert [v["where"] for v in report["violations"]] == ["TF_RegisterKernelBuilder"]
    assert "TfeDoctorNoSuchOp" in report["violations"][0]["message"]
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert "op not known to tfe" not in proc.stdout
    assert "unknown op" not in proc.stdout
    assert "contract violations: 1" in proc.stdout


def test_every_tf_op_is_defined() -> None:
    # TF 2.21's registry as recorded by tools/dump_tf_ops.py; the doctor's own
    # list (tfe_py/tf_op_names.txt) also holds ops only a Python wrapper
    # names (CheckPreemption), which the registry does not define.
    from tfe_py import _opgen

    data = Path(__file__).resolve().parents[2] / "data" / "tf221_ops.txt"
    tf_ops = {x[4:] for x in data.read_text().splitlines() if x.startswith("op: ")}
    assert len(tf_ops) == 1908
    assert tf_ops - set(_opgen.list_op_names()) == set()


def test_tf_op_names_cover_tfe_ops() -> None:
    from tfe_py import _opgen

    names = doctor._tf_op_names()
    assert len(names) > 1500
    assert {"MatMul", "AddV2", "_FusedMatMul", "_Arg", "Const"} <= names
    # Every op tfe defines is a TensorFlow 2.21 op.
    assert set(_opgen.list_op_names()) - names == set()


# ---------------------------------------------------------------------------
# No C compiler: one line, no traceback


def test_without_a_c_compiler_one_line_says_what_to_do(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CC"}
    empty = tmp_path / "bin"
    empty.mkdir()
    env["PATH"] = str(empty)
    proc = run_doctor(tmp_path=tmp_path, env=env)
    assert proc.returncode == doctor.EXIT_CANNOT_RUN == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tfe doctor: no C compiler found")
    assert "apt-get install gcc" in lines[0] and "set CC" in lines[0]

    env["PATH"] = os.environ.get("PATH", "")
    env["CC"] = "/nonexistent/cc"
    proc = run_doctor(tmp_path=tmp_path, env=env)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "CC is set to '/nonexistent/cc', which is not an executable program" in lines[0]
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------------------
# The doctor cannot be fooled: the report travels on a channel of its own,
# checked with a per-run nonce; the child's whole process group is killed


def _gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` has ended (gone, or a zombie) within `within`
    seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _kill_quietly(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def test_forged_report_then_a_crash_is_a_crash(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_fake_report")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    # It died while loading: the forged report it wrote everywhere (stdout,
    # every pipe and file it could write to) is not taken for the child's.
    assert "CRASH: the plugin crashed with SIGSEGV during: load: SE_InitPlugin" in out
    assert "ops defined: Forged" not in out
    assert "result: FAIL" in out and "0 of 1 plugin(s) passed" in out
    # Forging and then ending with status 0 is no better: no report.
    env = {**os.environ, "DOCTOR_FOOL_END": "exit0"}
    proc = run_doctor("--json", str(path), tmp_path=tmp_path, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (report,) = json.loads(proc.stdout)
    assert report["crash"].startswith("the plugin exited without a report during: load: ")
    assert report["path"] == str(path)
    assert report["ops"] == [] and report["smoke"] == []
    assert any("@@tfe-doctor-report" in line for line in report["log"])


def test_malformed_report_lines_do_not_decide_the_verdict(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_malformed")
    proc = run_doctor("--json", str(path), tmp_path=tmp_path)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (report,) = json.loads(proc.stdout)
    # The real report decides: the plugin loaded and its one fault is the
    # kernel for an op nobody defines.
    assert "crash" not in report, report["crash"]
    assert report["kind"] == "ops"
    assert [k["op"] for k in report["kernels"]] == ["TfeDoctorFoolNoSuchOp"]
    assert [v["where"] for v in report["violations"]] == ["TF_RegisterKernelBuilder"]
    # The junk it wrote onto the report channel is a warning, not a verdict.
    assert any("report channel" in w["message"] for w in report["warnings"]), report["warnings"]
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert "kernel for op TfeDoctorFoolNoSuchOp (CPU), which is not registered" in proc.stdout
    assert "contract violations: 1" in proc.stdout and "result: FAIL" in proc.stdout


def test_helper_holding_stdout_does_not_stall_the_doctor(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_fork_holder")
    pidfile = tmp_path / "helper.pid"
    env = {**os.environ, "DOCTOR_FOOL_PIDFILE": str(pidfile)}
    started = time.monotonic()
    try:
        proc = run_doctor("--timeout", "120", str(path), tmp_path=tmp_path, env=env, timeout=90)
        elapsed = time.monotonic() - started
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "result: PASS" in proc.stdout
        # Well before --timeout: the doctor did not wait for the helper to
        # let go of stdout, stderr or the report channel.
        assert elapsed < 60, elapsed
        helper, child = (int(x) for x in pidfile.read_text().split())
        # The child's process group, helper included, was killed.
        assert _gone(helper) and _gone(child)
    finally:
        if pidfile.exists():
            for pid in pidfile.read_text().split():
                _kill_quietly(int(pid))


def test_timeout_kills_the_whole_process_group(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_fork_holder")
    pidfile = tmp_path / "helper.pid"
    env = {**os.environ, "DOCTOR_FOOL_PIDFILE": str(pidfile), "DOCTOR_FOOL_HANG": "1"}
    try:
        proc = run_doctor("--timeout", "8", str(path), tmp_path=tmp_path, env=env, timeout=90)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "CRASH: the plugin timed out after 8 s during: load: SE_InitPlugin" in proc.stdout
        # The tail of the child's output shows what the helper wrote.
        assert "doctor_fool_fork_holder: helper holds stdout and stderr" in proc.stdout
        helper, child = (int(x) for x in pidfile.read_text().split())
        assert _gone(helper) and _gone(child)
    finally:
        if pidfile.exists():
            for pid in pidfile.read_text().split():
                _kill_quietly(int(pid))


def test_helper_that_leaves_the_group_does_not_stall_the_doctor(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_fork_holder")
    pidfile = tmp_path / "helper.pid"
    env = {**os.environ, "DOCTOR_FOOL_PIDFILE": str(pidfile), "DOCTOR_FOOL_SETSID": "1"}
    started = time.monotonic()
    try:
        proc = run_doctor("--timeout", "120", str(path), tmp_path=tmp_path, env=env, timeout=90)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert time.monotonic() - started < 60
        _, child = (int(x) for x in pidfile.read_text().split())
        assert _gone(child)
    finally:
        # A process in a session of its own is beyond the group kill.
        if pidfile.exists():
            for pid in pidfile.read_text().split():
                _kill_quietly(int(pid))


def test_child_exiting_without_a_report_shows_its_stderr_tail(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_silent_exit")
    proc = run_doctor(str(path), tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "CRASH: the plugin exited without a report during: load: SE_InitPlugin" in out
    assert "doctor_fool_silent_exit: no device found, giving up" in out
    assert "doctor_fool_silent_exit: line 30 of 30" in out
    # Only the tail: the first lines are left out.
    assert "doctor_fool_silent_exit: line 1 of 30\n" not in out
    assert out.index("giving up") > out.index("CRASH:")


def test_terminating_the_doctor_kills_the_child_group(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    path = build_test_plugin("doctor_fool_fork_holder")
    pidfile = tmp_path / "helper.pid"
    env = {**os.environ, "DOCTOR_FOOL_PIDFILE": str(pidfile), "DOCTOR_FOOL_HANG": "1"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfe_py", "doctor", "--timeout", "300", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while len(pidfile.read_text().split() if pidfile.exists() else []) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        proc.terminate()
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
        helper, child = (int(x) for x in pidfile.read_text().split())
        assert _gone(helper) and _gone(child)
    finally:
        proc.kill()
        proc.wait()
        if pidfile.exists():
            for pid in pidfile.read_text().split():
                _kill_quietly(int(pid))


def test_strings_that_are_not_utf8_do_not_break_the_report(
    build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    # tfe describes plugins in JSON, which is UTF-8: bytes that are not
    # (in names and messages the plugin hands over) arrive as U+FFFD
    # instead of making the description unreadable.
    path = build_test_plugin("doctor_fool_bad_utf8")
    proc = run_doctor("--json", str(path), tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (report,) = json.loads(proc.stdout)
    assert "crash" not in report, report["crash"] + "\n".join(report["log"][-20:])
    device = report["platforms"][0]["devices"][0]
    # Well-formed sequences pass through.
    assert device["hardware_name"] == "arena \ufffd\ufffd device \u00e9\u20ac\U0001f600"
    assert device["device_vendor"] == "tfe \ufffd tests \ufffd\ufffd"
    failed = {s["name"]: s["detail"] for s in report["smoke"] if s["status"] == "fail"}
    assert failed == {
        f"device:MY_DEVICE:{i}: get_stream_status": "stream broken \ufffd\ufffd\ufffd here"
        for i in (0, 1)
    }
    assert [v["where"] for v in report["violations"]] == ["SP_StreamExecutor"] * 2
