"""``python -m tfe_py doctor``: reports, contract violations, crashes.

Every run starts child processes, so these tests are a few seconds each.
The example plugins are built into a temporary cache directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tfe_py import doctor

REPO = Path(__file__).resolve().parents[2]


def run_doctor(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["TFE_DOCTOR_CACHE"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "tfe_py", "doctor", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
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
    assert "graph optimizer for MY_DEVICE (remapping=off): recorded, not run" in out
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
