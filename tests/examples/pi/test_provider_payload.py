"""pi's provider-payload example in Python (``examples/pi/provider_payload.py``): every
request to the model logged and its ``max_tokens`` capped, the answer's status logged, in a
real ``hookline -p`` run."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.helpers import run_cli, write_script


def test_a_print_run_logs_the_payload_and_the_status(project: Path, tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["ok"])
    done = run_cli(
        "-p", "hi", "--model", model, "--hook", str(example_path("provider_payload")),
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    log = project / ".hookline" / "payloads.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["kind"] for r in records] == ["request", "response"]
    assert records[0]["provider"] == "scripted"
    assert records[1]["status"] == 200 and records[1]["request_id"]


def test_the_log_path_comes_from_the_environment(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "elsewhere.jsonl"
    model = write_script(tmp_path / "script.json", ["ok"])
    env = {**os.environ, "HOOKLINE_PAYLOAD_LOG": str(log)}
    hook = str(example_path("provider_payload"))
    done = run_cli("-p", "hi", "--model", model, "--hook", hook, cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    assert len(log.read_text().splitlines()) == 2
