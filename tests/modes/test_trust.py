"""Trust: project hooks and settings hooks run only in trusted directories."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import RpcClient, run_cli, write_hook, write_script

SKIPPED = "is not trusted: its hooks and settings hooks are skipped"


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project whose module hook and Claude settings hook each leave a marker file."""
    project = tmp_path / "proj"
    module_marker = tmp_path / "module-imported"
    claude_marker = tmp_path / "claude-hook-ran"
    write_hook(
        project / ".hookline" / "hooks" / "x.py",
        f"""
        from pathlib import Path

        Path({str(module_marker)!r}).write_text("imported")

        def register(pi):
            pass
        """,
    )
    settings = {
        "hooks": {
            "UserPromptSubmit": [
                {"hooks": [{"type": "command", "command": f"touch '{claude_marker}'"}]}
            ]
        }
    }
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    return project, module_marker, claude_marker


def _run(project: Path, tmp_path: Path, *extra: str) -> str:
    model = write_script(tmp_path / "script.json", ["answer"])
    done = run_cli("-p", "hi", "--model", model, "--no-session", "--cwd", str(project), *extra)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer\n"
    return done.stderr


def test_untrusted_project_code_never_runs_in_print_mode(tmp_path: Path) -> None:
    project, module_marker, claude_marker = _project(tmp_path)

    stderr = _run(project, tmp_path)

    assert SKIPPED in stderr
    assert f"hookline trust {project}" in stderr
    assert not module_marker.exists()
    assert not claude_marker.exists()


def test_trust_project_flag_runs_them_for_one_run(tmp_path: Path) -> None:
    project, module_marker, claude_marker = _project(tmp_path)

    stderr = _run(project, tmp_path, "--trust-project")

    assert SKIPPED not in stderr
    assert module_marker.exists()
    assert claude_marker.exists()
    assert not (Path.home() / ".hookline" / "trust.json").exists()  # nothing recorded


def test_trust_and_untrust_commands(tmp_path: Path) -> None:
    project, module_marker, claude_marker = _project(tmp_path)

    trusted = run_cli("trust", str(project))
    assert trusted.returncode == 0, trusted.stderr
    assert str(project) in trusted.stdout
    record = json.loads((Path.home() / ".hookline" / "trust.json").read_text())
    assert str(project.resolve()) in record["trusted"]
    assert SKIPPED not in _run(project, tmp_path)
    assert module_marker.exists() and claude_marker.exists()

    module_marker.unlink()
    claude_marker.unlink()
    untrusted = run_cli("untrust", ".", cwd=project)  # DIR is relative to the shell
    assert untrusted.returncode == 0, untrusted.stderr
    assert json.loads((Path.home() / ".hookline" / "trust.json").read_text())["trusted"] == []
    assert SKIPPED in _run(project, tmp_path)
    assert not module_marker.exists() and not claude_marker.exists()


def test_trust_of_a_missing_directory_exits_2(tmp_path: Path) -> None:
    done = run_cli("trust", str(tmp_path / "nowhere"))

    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert "is not a directory" in done.stderr


async def test_rpc_mode_skips_untrusted_project_hooks_too(tmp_path: Path) -> None:
    project, module_marker, claude_marker = _project(tmp_path)
    model = write_script(tmp_path / "script.json", ["answer"])
    async with RpcClient("--model", model, "--no-session", "--cwd", str(project)) as rpc:
        await rpc.prompt("hi")
        assert (await rpc.ok({"type": "get_state"}))["messageCount"] == 2
        assert await rpc.close_stdin() == 0
        assert SKIPPED in await rpc.stderr()
    assert not module_marker.exists()
    assert not claude_marker.exists()


def test_settings_schema_prints_a_json_schema() -> None:
    done = run_cli("settings", "schema")

    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema.get("type") == "object"
    assert "hooks" in schema["properties"]
    assert any(key in schema for key in ("$schema", "title", "properties"))


# -- scope by where found: a link inside the project is still the project's -------------


def _sibling_hook(tmp_path: Path) -> tuple[Path, Path]:
    """A hook module beside the project (a monorepo sibling) that leaves a marker."""
    marker = tmp_path / "sibling-hook-imported"
    hook = write_hook(
        tmp_path / "sibling" / "hooks" / "evil.py",
        f"""
        from pathlib import Path

        Path({str(marker)!r}).write_text("imported")

        def register(pi):
            pass
        """,
    )
    return hook, marker


def _untrusted_run(project: Path, tmp_path: Path) -> str:
    model = write_script(tmp_path / "script.json", ["answer"])
    done = run_cli("-p", "hi", "--model", model, "--no-session", "--cwd", str(project))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer\n"
    return done.stderr


def test_symlinked_hookline_folder_of_an_untrusted_project_never_runs(tmp_path: Path) -> None:
    """``.hookline`` links to a sibling: neither its hooks/ modules nor its settings list run."""
    hook, marker = _sibling_hook(tmp_path)
    (tmp_path / "sibling" / "settings.json").write_text(json.dumps({"hooks": [str(hook)]}))
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".hookline").symlink_to(tmp_path / "sibling", target_is_directory=True)

    stderr = _untrusted_run(project, tmp_path)

    assert not marker.exists(), stderr
    assert "is not trusted" in stderr


def test_symlinked_settings_file_hooks_list_of_an_untrusted_project_never_runs(
    tmp_path: Path,
) -> None:
    hook, marker = _sibling_hook(tmp_path)
    (tmp_path / "sibling" / "settings.json").write_text(json.dumps({"hooks": [str(hook)]}))
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to(tmp_path / "sibling" / "settings.json")

    stderr = _untrusted_run(project, tmp_path)

    assert not marker.exists(), stderr
    assert "is not trusted" in stderr
    assert "ignored from .claude/settings.json: hooks" in stderr


def test_symlinked_claude_folder_of_an_untrusted_project_never_runs(tmp_path: Path) -> None:
    hook, marker = _sibling_hook(tmp_path)
    command_marker = tmp_path / "command-hook-ran"
    shared = tmp_path / "sibling" / "claude"
    shared.mkdir(parents=True)
    (shared / "settings.json").write_text(json.dumps({"hooks": [str(hook)]}))
    (shared / "settings.local.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "UserPromptSubmit": [
                        {"hooks": [{"type": "command", "command": f"touch '{command_marker}'"}]}
                    ]
                }
            }
        )
    )
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".claude").symlink_to(shared, target_is_directory=True)

    stderr = _untrusted_run(project, tmp_path)

    assert not marker.exists(), stderr
    assert not command_marker.exists(), stderr


def test_a_trusted_project_runs_its_symlinked_hooks(tmp_path: Path) -> None:
    """The same layouts do run once the project is trusted (the tests above are not vacuous)."""
    hook, marker = _sibling_hook(tmp_path)
    (tmp_path / "sibling" / "settings.json").write_text(json.dumps({"hooks": [str(hook)]}))
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to(tmp_path / "sibling" / "settings.json")
    assert run_cli("trust", str(project)).returncode == 0

    stderr = _untrusted_run(project, tmp_path)

    assert marker.exists(), stderr
