"""Each compatibility case under the real Claude Code and under hookline, compared.

A mismatch fails the case unless the case marks it as a deliberate difference
(``differs``: key → reason). The keys are ``effect``, ``results``,
``model_calls``, ``model_sees:TEXT`` and ``hook:NAME:FIELD``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from cases import CASES, Case
from harness import (
    AgentRun,
    Call,
    Turn,
    hook_command,
    record_http,
    run_claude,
    run_hookline,
    serve_http,
)

_MISSING = "<missing>"


def _params() -> list[Any]:
    out = []
    for case in CASES:
        marks = [pytest.mark.xfail(reason=case.pending, strict=False)] if case.pending else []
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


def _normalize(value: Any, project: Path) -> Any:
    """Paths under the run's project folder become ``<project>/...``: the folders differ."""
    if isinstance(value, str):
        for root in {str(project.resolve()), str(project)}:
            value = value.replace(root, "<project>")
        return value
    if isinstance(value, dict):
        return {k: _normalize(v, project) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v, project) for v in value]
    return value


def _get(data: dict[str, Any], dotted: str) -> Any:
    if dotted == "@keys":  # the set of top-level fields, minus the recorder's own
        return sorted(k for k in data if k != "_env")
    value: Any = data
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            return _MISSING
        value = value[key]
    return value


def _observe(case: Case, run: AgentRun) -> dict[str, Any]:
    """Everything compared, for one agent, keyed as ``differs`` names it."""
    seen: dict[str, Any] = {}
    if case.effect is not None:
        seen["effect"] = case.effect(run.project)
    results = run.tool_results()
    seen["results"] = [r.is_error for r in results]
    seen["model_calls"] = len(run.requests)
    texts = "\n".join(run.user_texts())
    for text in case.model_sees:
        seen[f"model_sees:{text}"] = text in texts
    for n, wanted in enumerate(case.result_contains):
        got = results[n].text if n < len(results) else ""
        for text in wanted:
            seen[f"result[{n}] contains {text}"] = text in got
    for name, fields in case.hook_fields.items():
        inputs = [_normalize(i, run.project) for i in run.hook_inputs(name)]
        seen[f"hook:{name}:count"] = len(inputs)
        for f in fields:
            seen[f"hook:{name}:{f}"] = [_get(i, f) for i in inputs]
    return seen


@pytest.mark.parametrize("case", _params())
def test_case_matches_claude_code(claude: Path, tmp_path: Path, case: Case) -> None:
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    theirs = run_claude(
        claude,
        tmp_path,
        settings=case.settings,
        turns=case.turns,
        prompt=case.prompt,
        files=case.files,
        extra_env=env,
    )
    ours = run_hookline(
        tmp_path,
        settings=case.settings,
        turns=case.turns,
        prompt=case.prompt,
        files=case.files,
        extra_env=env,
    )
    expected, got = _observe(case, theirs), _observe(case, ours)
    # The case is not vacuous: what it looks for happened under Claude Code.
    for key, value in expected.items():
        if key.startswith(("model_sees:", "result[")):
            assert value is True, f"Claude Code: {key} is not so\n{theirs.describe()}"
    counts = [v for k, v in expected.items() if k.startswith("hook:") and k.endswith(":count")]
    assert not counts or any(counts), f"Claude Code ran none of the hooks\n{theirs.describe()}"
    mismatches = {
        key: (expected[key], got.get(key))
        for key in expected
        if expected[key] != got.get(key) and key not in case.differs
    }
    assert not mismatches, (
        "hookline differs from Claude Code (key: (claude, hookline)):\n"
        + "\n".join(f"  {k}: {v}" for k, v in mismatches.items())
        + f"\n\n{ours.describe()}"
    )


HTTP_GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event.tool_name == "bash" and event.input.get("command", "").startswith("rm "):
            return {"block": True, "reason": "HTTP-GUARD"}
"""


def test_http_hook_to_hookline_serve_matches(claude: Path, tmp_path: Path) -> None:
    """An `http` PreToolUse hook answered by `hookline serve`, under both agents."""
    turns = [
        Turn(calls=[Call("Bash", {"command": "rm keep.txt", "description": "rm"})]),
        Turn(calls=[Call("Bash", {"command": "touch ran.txt", "description": "t"})]),
        Turn("done"),
    ]
    with serve_http(tmp_path, HTTP_GUARD, token="tok") as url:
        hook = {
            "type": "http",
            "url": url,
            "headers": {"Authorization": "Bearer $HOOKLINE_SERVE_TOKEN"},
            "allowedEnvVars": ["HOOKLINE_SERVE_TOKEN"],
        }
        case = Case(
            "http_hook",
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}},
            turns,
            files={"keep.txt": "keep"},
            effect=lambda p: {n: (p / n).exists() for n in ("keep.txt", "ran.txt")},
            result_contains=[["HTTP-GUARD"], []],
        )
        env = {"HOOKLINE_SERVE_TOKEN": "tok"}
        kw: dict[str, Any] = dict(
            settings=case.settings, turns=turns, files=case.files, extra_env=env
        )
        expected = _observe(case, run_claude(claude, tmp_path, **kw))
        ours = run_hookline(tmp_path, **kw)
    assert expected["effect"] == {"keep.txt": True, "ran.txt": True}
    assert _observe(case, ours) == expected, ours.describe()


def test_http_hooks_skip_session_start_as_claude_code_does(claude: Path, tmp_path: Path) -> None:
    """Claude Code runs no `http` hook on SessionStart (nor Setup): the endpoint hears from
    UserPromptSubmit and Stop only; a command hook on SessionStart still runs."""
    events: dict[str, list[str]] = {}
    for agent in ("claude", "hookline"):
        with record_http() as (url, got):
            http = {"type": "http", "url": url}
            groups = {e: [{"hooks": [http]}] for e in ("SessionStart", "UserPromptSubmit", "Stop")}
            groups["SessionStart"][0]["hooks"].append(
                {"type": "command", "command": "echo started > started.txt"}
            )
            kw: dict[str, Any] = dict(settings={"hooks": groups}, turns=[Turn("done")])
            run = (
                run_claude(claude, tmp_path, **kw)
                if agent == "claude"
                else run_hookline(tmp_path, **kw)
            )
            assert (run.project / "started.txt").exists(), run.describe()
            events[agent] = [body.get("hook_event_name") for body in got]
    assert events["claude"] == ["UserPromptSubmit", "Stop"]
    assert events["hookline"] == events["claude"]


def _run(agent: str, claude: Path, tmp: Path, **kw: Any) -> AgentRun:
    """One print-mode run of ``agent``; hookline keeps its session, as Claude Code does."""
    if agent == "claude":
        return run_claude(claude, tmp, **kw)
    return run_hookline(tmp, session=True, **kw)


def test_print_compact_runs_as_a_command(claude: Path, tmp_path: Path) -> None:
    """`-c -p "/compact …"` compacts the last session: PreCompact fires as manual with the
    instructions, no UserPromptSubmit fires and the model never gets "/compact" as a prompt.
    The first answer is long so that hookline's compaction (which keeps the last 20 000
    tokens) has something to summarise too."""
    hooks = {
        event: [{"hooks": [{"type": "command", "command": hook_command(name)}]}]
        for event, name in (("PreCompact", "precompact"), ("UserPromptSubmit", "prompt"))
    }
    settings = {"hooks": hooks}
    seen: dict[str, Any] = {}
    for agent in ("claude", "hookline"):
        tmp = tmp_path / agent
        first = _run(
            agent, claude, tmp, settings=settings, turns=[Turn("FIRST " + "word " * 20_000)]
        )
        assert first.returncode == 0, first.describe()
        run = _run(
            agent,
            claude,
            tmp,
            settings=settings,
            turns=[Turn("SUMMARY"), Turn("SUMMARY")],
            prompt="/compact keep the tests",
            extra_args=["-c"],
        )
        assert run.returncode == 0, run.describe()
        prompts = [
            text
            for body in run.requests
            for m in body.get("messages", [])
            if m.get("role") == "user"
            for text in _plain_texts(m.get("content"))
        ]
        seen[agent] = {
            "precompact": [
                (i["trigger"], i["custom_instructions"]) for i in run.hook_inputs("precompact")
            ],
            "prompts": [i["prompt"] for i in run.hook_inputs("prompt")],
            "model got /compact": any("/compact" in t for t in prompts),
        }
    assert seen["claude"] == {
        "precompact": [("manual", "keep the tests")],
        "prompts": ["go"],
        "model got /compact": False,
    }
    assert seen["hookline"] == seen["claude"]


def _plain_texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or [] if b.get("type") == "text"]


@pytest.mark.parametrize("command", ["/help", "/permissions", "/hooks"])
def test_print_ui_commands_say_they_are_not_available(
    claude: Path, tmp_path: Path, command: str
) -> None:
    """A built-in that needs the terminal app answers so under `-p`, without the model."""
    runs = {
        agent: _run(
            agent, claude, tmp_path / agent, settings={}, turns=[Turn("MODEL")], prompt=command
        )
        for agent in ("claude", "hookline")
    }
    for run in runs.values():
        assert run.returncode == 0 and not run.requests, run.describe()
    assert runs["claude"].answer() == f"{command} isn't available in this environment."
    assert runs["hookline"].answer() == runs["claude"].answer()


def test_read_only_commands_run_unasked_in_the_default_mode(claude: Path, tmp_path: Path) -> None:
    """In the default mode with no UI (`-p`), Claude Code runs a read-only line (`ls`, `git
    status`) without asking and denies a line that writes (`touch`); no PermissionRequest
    hook fires for the read-only ones. hookline decides the same through its read-only list."""
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": hook_command("pre")}]}
            ],
            "PermissionRequest": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": hook_command("ask")}]}
            ],
        }
    }
    turns = [
        Turn(calls=[Call("Bash", {"command": "ls -la", "description": "list"})]),
        Turn(calls=[Call("Bash", {"command": "cat seen.txt | wc -l", "description": "count"})]),
        Turn(calls=[Call("Bash", {"command": "touch made.txt", "description": "make"})]),
        Turn("done"),
    ]
    seen: dict[str, Any] = {}
    for agent in ("claude", "hookline"):
        kw: dict[str, Any] = dict(
            settings=settings,
            turns=turns,
            files={"seen.txt": "one\ntwo\n"},
            extra_args=["--permission-mode", "default"],
        )
        run = (
            run_claude(claude, tmp_path, **kw)
            if agent == "claude"
            else run_hookline(tmp_path, **kw)
        )
        results = run.tool_results()
        seen[agent] = {
            "listed": len(results) > 0 and "seen.txt" in results[0].text,
            "counted": len(results) > 1 and "2" in results[1].text and not results[1].is_error,
            "errors": [r.is_error for r in results],
            "made": (run.project / "made.txt").exists(),
            "pre": len(run.hook_inputs("pre")),
            "asked": [i.get("tool_input", {}).get("command") for i in run.hook_inputs("ask")],
        }
    assert seen["claude"]["listed"] and not seen["claude"]["made"], seen
    assert seen["hookline"] == seen["claude"]
