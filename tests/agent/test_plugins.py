"""Claude Code plugins where Claude Code installs them: enabled ones run, others never do.

Every test builds the real layout under a temporary HOME (``installed_plugins.json``,
``cache/<market>/<name>/<version>/``, settings ``enabledPlugins``) and runs real command
hooks through a built agent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookline.core.messages import content_text

from .conftest import MakeAgent

BASH_CALL = {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def _recording_hook(root: Path, record_name: str = "seen.jsonl", exit_code: int = 0) -> str:
    """A script in the plugin that appends its env and stdin to ``$CLAUDE_PLUGIN_DATA/...``."""
    script = root / "hooks" / "record.sh"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(
        "#!/bin/sh\n"
        "input=$(cat)\n"
        f'printf \'%s\\t%s\\t%s\\t%s\\n\' "$0" "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" '
        f'"$input" >> "$CLAUDE_PLUGIN_DATA/{record_name}"\n'
        + ("echo 'plugin says no' >&2\n" if exit_code == 2 else "")
        + f"exit {exit_code}\n"
    )
    script.chmod(0o755)
    return "${CLAUDE_PLUGIN_ROOT}/hooks/record.sh"


def _hooks(command: str, matcher: str = "Bash") -> dict[str, Any]:
    return {
        "hooks": {
            "PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]
        }
    }


def install(
    home: Path,
    plugin_id: str,
    *,
    hooks: dict[str, Any] | None = None,
    manifest: dict[str, Any] | None = None,
    scope: str = "user",
    project: Path | None = None,
    exit_code: int = 0,
    version: str = "1.0.0",
    record: bool = True,
) -> Path:
    """Install ``name@market`` as Claude Code does: cache folder + installed_plugins.json entry."""
    name, _, market = plugin_id.partition("@")
    root = home / ".claude" / "plugins" / "cache" / market / name / version
    root.mkdir(parents=True)
    command = _recording_hook(root, exit_code=exit_code) if record else "true"
    if hooks is None and manifest is None:
        hooks = _hooks(command)
    if hooks is not None:
        _write(root / "hooks" / "hooks.json", hooks)
    if manifest is not None:
        _write(root / ".claude-plugin" / "plugin.json", manifest)
    registry = home / ".claude" / "plugins" / "installed_plugins.json"
    data = json.loads(registry.read_text()) if registry.exists() else {"version": 2, "plugins": {}}
    entry: dict[str, Any] = {"scope": scope, "installPath": str(root), "version": version}
    if project is not None:
        entry["projectPath"] = str(project)
    data["plugins"].setdefault(plugin_id, []).append(entry)
    _write(registry, data)
    return root


def enable(home: Path, **ids: bool) -> None:
    _write(home / ".claude" / "settings.json", {"enabledPlugins": dict(ids)})


def data_dir(home: Path, plugin_id: str) -> Path:
    return home / ".claude" / "plugins" / "data" / plugin_id.replace("@", "-")


def records(home: Path, plugin_id: str) -> list[list[str]]:
    path = data_dir(home, plugin_id) / "seen.jsonl"
    if not path.exists():
        return []
    return [line.split("\t") for line in path.read_text().splitlines()]


def tool_results(h: Any) -> list[dict[str, Any]]:
    return [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]


async def test_enabled_installed_plugin_runs_with_root_and_data(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    root = install(isolated_home, "guard@market")
    enable(isolated_home, **{"guard@market": True})
    h = await make_agent([BASH_CALL, "done"], trust_project=False)
    await h.agent.prompt("go")
    [seen] = records(isolated_home, "guard@market")
    script, env_root, env_data, stdin = seen
    assert script == f"{root}/hooks/record.sh"  # ${CLAUDE_PLUGIN_ROOT} expanded in the command
    assert env_root == str(root)
    assert env_data == str(data_dir(isolated_home, "guard@market"))
    assert json.loads(stdin)["tool_input"] == {"command": "echo hi"}


async def test_disabled_or_unlisted_plugin_never_runs(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    install(isolated_home, "off@market", exit_code=2)
    install(isolated_home, "unlisted@market", exit_code=2)
    enable(isolated_home, **{"off@market": False})
    h = await make_agent([BASH_CALL, "done"], verbose=True)
    await h.agent.prompt("go")
    [result] = tool_results(h)
    assert not result["is_error"], content_text(result["content"])
    assert records(isolated_home, "off@market") == []
    assert records(isolated_home, "unlisted@market") == []
    err = h.stderr.getvalue()
    assert "plugin off@market not loaded: disabled in enabledPlugins" in err
    assert "plugin unlisted@market not loaded: installed but not enabled" in err


async def test_project_settings_disable_a_user_enabled_plugin(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    """``enabledPlugins`` merges like other settings: the project's ``false`` wins."""
    install(isolated_home, "guard@market", exit_code=2)
    enable(isolated_home, **{"guard@market": True})
    h = await make_agent(
        [BASH_CALL, "done"], claude_settings={"enabledPlugins": {"guard@market": False}}
    )
    await h.agent.prompt("go")
    assert not tool_results(h)[0]["is_error"]
    assert records(isolated_home, "guard@market") == []


async def test_untrusted_project_cannot_enable_a_plugin(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    install(isolated_home, "guard@market", exit_code=2)
    h = await make_agent(
        [BASH_CALL, "done"],
        claude_settings={"enabledPlugins": {"guard@market": True}},
        trust_project=False,
    )
    await h.agent.prompt("go")
    assert not tool_results(h)[0]["is_error"]
    assert records(isolated_home, "guard@market") == []
    assert "enabledPlugins" in h.stderr.getvalue()  # listed as ignored


async def test_project_scope_install_needs_its_project_and_trust(
    make_agent: MakeAgent, isolated_home: Path, project: Path, tmp_path: Path
) -> None:
    install(isolated_home, "mine@market", scope="project", project=project, exit_code=2)
    install(isolated_home, "theirs@market", scope="local", project=tmp_path, exit_code=2)
    enable(isolated_home, **{"mine@market": True, "theirs@market": True})

    untrusted = await make_agent([BASH_CALL, "done"], trust_project=False, verbose=True)
    await untrusted.agent.prompt("go")
    assert not tool_results(untrusted)[0]["is_error"], (
        tool_results(untrusted),
        untrusted.stderr.getvalue(),
    )
    assert "mine@market not loaded: installed for project" in untrusted.stderr.getvalue()

    trusted = await make_agent([BASH_CALL, "done"], trust_project=True)
    await trusted.agent.prompt("go")
    [result] = tool_results(trusted)
    assert result["is_error"] and "plugin says no" in content_text(result["content"])
    assert len(records(isolated_home, "mine@market")) == 1  # the trusted run only
    assert records(isolated_home, "theirs@market") == []  # another project's install never runs


async def test_same_template_under_two_roots_is_two_hooks(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    """``"$CLAUDE_PLUGIN_ROOT/hooks/record.sh"`` (env form, not expanded) in two plugins."""
    hooks = _hooks('sh "$CLAUDE_PLUGIN_ROOT/hooks/record.sh"')
    install(isolated_home, "one@market", hooks=hooks)
    install(isolated_home, "two@market", hooks=hooks)
    enable(isolated_home, **{"one@market": True, "two@market": True})
    h = await make_agent([BASH_CALL, "done"])
    await h.agent.prompt("go")
    assert len(records(isolated_home, "one@market")) == 1
    assert len(records(isolated_home, "two@market")) == 1


async def test_manifest_hooks_inline_and_by_path(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    plugin_id = "manifest@market"
    name, market = "manifest", "market"
    root = isolated_home / ".claude" / "plugins" / "cache" / market / name / "2.0.0"
    root.mkdir(parents=True)
    command = _recording_hook(root)
    _write(root / "extra" / "more.json", _hooks(command + " path", matcher="Bash"))
    manifest = {
        "name": name,
        "hooks": [
            "./extra/more.json",
            "../../../../../../escape.json",
            {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [{"type": "command", "command": command + " inline"}],
                    }
                ]
            },
        ],
    }
    _write(root / ".claude-plugin" / "plugin.json", manifest)
    _write(
        isolated_home / ".claude" / "plugins" / "installed_plugins.json",
        {"version": 2, "plugins": {plugin_id: [{"scope": "user", "installPath": str(root)}]}},
    )
    enable(isolated_home, **{plugin_id: True})
    h = await make_agent([BASH_CALL, "done"])
    await h.agent.prompt("go")
    assert len(records(isolated_home, plugin_id)) == 2  # the path file and the inline object
    assert "hooks path '../../../../../../escape.json' leaves the plugin" in h.stderr.getvalue()


async def test_plugin_dir_flag_loads_a_folder_for_one_run(
    make_agent: MakeAgent, isolated_home: Path, tmp_path: Path
) -> None:
    root = tmp_path / "dev-plugin"
    command = _recording_hook(root, exit_code=2)
    _write(root / "hooks" / "hooks.json", _hooks(command))
    _write(root / ".claude-plugin" / "plugin.json", {"name": "dev"})
    h = await make_agent([BASH_CALL, "done"], plugin_dirs=[str(root)], trust_project=False)
    await h.agent.prompt("go")
    [result] = tool_results(h)
    assert result["is_error"] and "plugin says no" in content_text(result["content"])
    assert len(records(isolated_home, "dev@inline")) == 1


async def test_enabled_plugin_found_in_cache_without_registry_entry(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    root = isolated_home / ".claude" / "plugins" / "cache" / "market" / "cached" / "0.1.0"
    _write(root / "hooks" / "hooks.json", _hooks(_recording_hook(root)))
    enable(isolated_home, **{"cached@market": True})
    h = await make_agent([BASH_CALL, "done"])
    await h.agent.prompt("go")
    assert len(records(isolated_home, "cached@market")) == 1


async def test_enabled_but_missing_plugin_is_reported(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    enable(isolated_home, **{"ghost@market": True})
    h = await make_agent([BASH_CALL, "done"])
    assert "plugins: plugin ghost@market: enabled but not installed" in h.stderr.getvalue()


async def test_hookline_own_plugin_folder_runs_unless_disabled(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    root = isolated_home / ".hookline" / "plugins" / "local"
    _write(root / "hooks" / "hooks.json", _hooks(_recording_hook(root, exit_code=2)))
    h = await make_agent([BASH_CALL, "done"], trust_project=False)
    await h.agent.prompt("go")
    assert tool_results(h)[0]["is_error"]
    enable(isolated_home, **{"local@hookline": False})
    h2 = await make_agent([BASH_CALL, "done"])
    await h2.agent.prompt("go")
    assert not tool_results(h2)[0]["is_error"]
    assert len(records(isolated_home, "local@hookline")) == 1


async def test_managed_only_policy_loads_no_plugin(
    make_agent: MakeAgent, isolated_home: Path, tmp_path: Path
) -> None:
    install(isolated_home, "guard@market", exit_code=2)
    enable(isolated_home, **{"guard@market": True})
    managed = _write(tmp_path / "managed.json", {"allowManagedHooksOnly": True})
    h = await make_agent([BASH_CALL, "done"], managed_paths=[managed])
    await h.agent.prompt("go")
    assert not tool_results(h)[0]["is_error"]
    assert records(isolated_home, "guard@market") == []


async def test_enabled_plugin_agents_are_task_types(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    root = install(isolated_home, "kit@market", record=False)
    _write(
        root / "agents" / "checker.md",
        "---\nname: checker\ndescription: Checks\ntools: Read\n---\nPLUGIN-AGENT-PROMPT\n",
    )
    off = install(isolated_home, "offkit@market", record=False)
    _write(off / "agents" / "x.md", "---\nname: x\ndescription: X\n---\nOFF\n")
    enable(isolated_home, **{"kit@market": True, "offkit@market": False})
    call = {
        "tool_calls": [
            {
                "name": "task",
                "arguments": {"description": "d", "prompt": "p", "subagent_type": "kit:checker"},
            }
        ]
    }
    h = await make_agent(
        [call, {"text": "CHECKED", "expect_system_contains": "PLUGIN-AGENT-PROMPT"}, "done"]
    )
    await h.agent.prompt("go")
    [result] = tool_results(h)
    assert content_text(result["content"]) == "CHECKED"
    task_spec = next(t for t in h.agent.provider.requests[0].tools if t.name == "task")  # type: ignore[attr-defined]
    assert "kit:checker: Checks" in task_spec.description
    assert "offkit:x" not in task_spec.description


async def test_a_hooks_json_linking_out_of_the_plugin_is_refused_and_said(
    make_agent: MakeAgent, isolated_home: Path, tmp_path: Path
) -> None:
    """``hooks/hooks.json`` as a symlink to a file outside the plugin: refused like a
    manifest path that leaves it (the plugin's folder is what was installed and trusted)."""
    root = install(isolated_home, "linked@market", record=False, hooks={})
    marker = tmp_path / "outside-hook-ran"
    outside = _write(tmp_path / "elsewhere" / "hooks.json", _hooks(f"touch {marker}"))
    (root / "hooks" / "hooks.json").unlink()
    (root / "hooks" / "hooks.json").symlink_to(outside)
    enable(isolated_home, **{"linked@market": True})
    h = await make_agent([BASH_CALL, "done"])
    await h.agent.prompt("go")
    assert not marker.exists()
    said = [line for line in h.stderr.getvalue().splitlines() if "outside the plugin" in line]
    assert len(said) == 1 and str(root / "hooks" / "hooks.json") in said[0]


async def test_a_hooks_json_linking_inside_the_plugin_still_loads(
    make_agent: MakeAgent, isolated_home: Path
) -> None:
    root = install(isolated_home, "inner@market")
    (root / "hooks" / "hooks.json").rename(root / "hooks" / "real.json")
    (root / "hooks" / "hooks.json").symlink_to(root / "hooks" / "real.json")
    enable(isolated_home, **{"inner@market": True})
    h = await make_agent([BASH_CALL, "done"])
    await h.agent.prompt("go")
    assert len(records(isolated_home, "inner@market")) == 1
