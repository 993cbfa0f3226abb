"""Machine-read stdout stays clean, and denied tool calls are never silent.

A hook that prints (at import, in ``register``, in a handler) and one that
spawns ``echo`` must not put a single non-JSON line on stdout in JSON or RPC
mode, nor anything but the answer in print mode. A run whose tool calls were
denied says so on stderr (print) or in its final ``agent_end`` event (JSON).
"""

from __future__ import annotations

from pathlib import Path

from .helpers import RpcClient, json_lines, run_cli, write_hook, write_script

NOISY = """
    import os
    import subprocess

    print("printed at import")


    def register(pi):
        print("printed in register")

        @pi.on("tool_call")
        def noisy(event, ctx):
            print("printed in a handler")
            os.system("echo spawned by os.system")
            subprocess.run(["echo", "spawned by subprocess"], check=True)

        @pi.on("agent_end")
        async def more(event, ctx):
            await ctx.exec("echo", ["spawned by ctx.exec"])
"""

LS_THEN_ANSWER = [
    {"tool_calls": [{"id": "l1", "name": "ls", "arguments": {"path": "."}}]},
    {"text": "All done."},
]


def _noisy_run(tmp_path: Path, *mode: str) -> tuple[str, str, int]:
    hook = write_hook(tmp_path / "noisy.py", NOISY)
    model = write_script(tmp_path / "script.json", LS_THEN_ANSWER)
    done = run_cli(
        *mode, "-p", "look", "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
        "--no-session",
    )  # fmt: skip
    return done.stdout, done.stderr, done.returncode


def test_json_stdout_is_only_json_lines_whatever_hooks_print(tmp_path: Path) -> None:
    stdout, stderr, code = _noisy_run(tmp_path, "--mode", "json")
    assert code == 0, stderr
    events = json_lines(stdout)  # raises on any non-JSON line
    assert events[-1]["type"] == "session_shutdown"
    for noise in (
        "printed at import",
        "printed in register",
        "printed in a handler",
        "spawned by os.system",
        "spawned by subprocess",
    ):
        assert noise in stderr and noise not in stdout


def test_print_stdout_is_only_the_answer(tmp_path: Path) -> None:
    stdout, stderr, code = _noisy_run(tmp_path)
    assert code == 0, stderr
    assert stdout == "All done.\n"
    assert "printed in a handler" in stderr


async def test_rpc_stdout_is_only_protocol_lines(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "noisy.py", NOISY)
    model = write_script(tmp_path / "script.json", LS_THEN_ANSWER)
    async with RpcClient(
        "--model", model, "--hook", str(hook), "--cwd", str(tmp_path), "--no-session"
    ) as rpc:
        response, _ = await rpc.command({"type": "prompt", "message": "look"})
        assert response["success"] is True, response
        code = await rpc.close_stdin()
        stderr = await rpc.stderr()
    assert code == 0, stderr
    # rpc.read() parsed every stdout line as a JSON object with a type
    assert any(line["type"] == "tool_execution_start" for line in rpc.seen)
    assert "spawned by os.system" in stderr


RM_THEN_ANSWER = [
    {"tool_calls": [{"id": "b1", "name": "bash", "arguments": {"command": "rm -rf build"}}]},
    {"text": "Could not clean."},
]


def test_print_mode_says_on_stderr_what_was_denied_and_how_to_allow_it(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    model = write_script(tmp_path / "script.json", RM_THEN_ANSWER)
    done = run_cli("-p", "clean", "--model", model, "--cwd", str(tmp_path), "--no-session")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Could not clean.\n"
    assert (tmp_path / "build").is_dir()
    (line,) = [x for x in done.stderr.splitlines() if "denied" in x and x.startswith("hookline:")]
    assert line.startswith("hookline: 1 tool call denied: bash (b1):")
    assert "no UI to ask" in line
    assert "Bash(rm -rf build)" in line and "--permission-mode bypassPermissions" in line


def test_json_mode_records_each_denial_in_its_final_event(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", RM_THEN_ANSWER)
    done = run_cli(
        "--mode", "json", "-p", "clean", "--model", model, "--cwd", str(tmp_path),
        "--no-session",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    events = json_lines(done.stdout)
    (end,) = [e for e in events if e["type"] == "agent_end"]
    (denial,) = end["denials"]
    assert (denial["tool_name"], denial["tool_call_id"], denial["source"]) == (
        "bash",
        "b1",
        "no_ui",
    )
    # The denied call is visible in the stream as a tool_call line too.
    assert [e["input"] for e in events if e["type"] == "tool_call"] == [{"command": "rm -rf build"}]
    assert "tool call denied" not in done.stderr  # JSON mode: the event carries it


def test_file_tools_never_touch_stdin_or_stdout_when_they_are_regular_files(
    tmp_path: Path,
) -> None:
    import os
    import subprocess

    from .helpers import CLI, TIMEOUT

    forged = '{"type": "forged"}\n'
    paths = ["/dev/stdin", "/dev/stdout", *(f"/proc/self/fd/{n}" for n in range(3, 12))]
    calls = [
        {"id": f"r{i}", "name": "read", "arguments": {"path": path}} for i, path in enumerate(paths)
    ] + [
        {"id": f"w{i}", "name": "write", "arguments": {"path": path, "content": forged}}
        for i, path in enumerate(paths)
    ]
    model = write_script(tmp_path / "script.json", [{"tool_calls": calls}, {"text": "done"}])
    stdin_file, stdout_file = tmp_path / "in.txt", tmp_path / "out.jsonl"
    stdin_file.write_text("the host's input\n")
    with stdin_file.open("rb") as stdin, stdout_file.open("wb") as stdout:
        done = subprocess.run(
            [*CLI, "--mode", "json", "-p", "go", "--model", model, "--cwd", str(tmp_path),
             "--permission-mode", "bypassPermissions"],
            stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
            env=os.environ.copy(), timeout=TIMEOUT, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stdin_file.read_text() == "the host's input\n"
    lines = json_lines(stdout_file.read_text())
    assert "forged" not in [line["type"] for line in lines]
    ends = {line["tool_call_id"]: line for line in lines if line["type"] == "tool_execution_end"}
    for kind in "rw":  # /dev/stdin: refused, naming why (/dev/stdout is stderr's pipe here)
        assert "own input or output stream" in ends[f"{kind}0"]["result_text"]
        assert ends[f"{kind}0"]["is_error"] is ends[f"{kind}1"]["is_error"] is True
    assert "the host's input" not in ends["r0"]["result_text"]
