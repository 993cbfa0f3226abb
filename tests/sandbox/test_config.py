"""The resolved configuration: Claude Code's keys and defaults, path syntax, permission rules
merged in, managed-only lists, and what an untrusted project may not change."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookline.sandbox.config import resolve_sandbox
from hookline.sandbox.policy import SandboxPolicy, excluded, vettable
from hookline.settings import load_settings
from hookline.settings.permission_rules import PermissionRules
from tests.sandbox.helpers import config_for, write_settings


def test_defaults_are_claude_codes(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path, managed_paths=[])
    config = resolve_sandbox(loaded, PermissionRules(), str(tmp_path))
    assert config.enabled is False
    assert config.auto_allow is True
    assert config.allow_unsandboxed is True
    assert config.fail_if_unavailable is False
    assert config.working_dirs == (str(tmp_path),)


def test_paths_are_read_as_claude_code_documents_them(tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    write_settings(
        tmp_path,
        {
            "sandbox": {
                "filesystem": {
                    "allowWrite": ["//opt/build", "/srv/out", "~/.kube", "./gen", "dist"],
                    "denyRead": ["~/.aws/credentials"],
                }
            }
        },
    )
    user = home / ".claude"
    user.mkdir()
    (user / "settings.json").write_text(
        json.dumps({"sandbox": {"filesystem": {"allowWrite": ["cache"]}}})
    )
    config = config_for(tmp_path)
    assert config.allow_write == (
        str(user / "cache"),  # a user file's relative path: its own folder
        "/opt/build",
        "/srv/out",
        str(home / ".kube"),
        str(tmp_path / "gen"),
        str(tmp_path / "dist"),
    )
    assert [e.root for e in config.deny_read] == [str(home / ".aws" / "credentials")]


def test_permission_rules_merge_into_the_sandbox(tmp_path: Path) -> None:
    config = config_for(
        tmp_path,
        deny=["Edit(.env)", "Read(./secrets/**)", "WebFetch(domain:evil.com)", "Bash(rm *)"],
        allow=["WebFetch(domain:docs.python.org)", "Edit(//opt/shared/**)"],
    )
    assert [e.text for e in config.deny_write] == ["Edit(.env)"]
    assert config.deny_write[0].literal == str(tmp_path / ".env")
    assert [e.root for e in config.deny_read] == [str(tmp_path / "secrets")]
    assert config.denied_domains == ("evil.com",)
    assert config.allowed_domains == ("docs.python.org",)
    assert "/opt/shared" in config.allow_write


def test_a_bare_edit_deny_rule_leaves_nothing_writable(tmp_path: Path) -> None:
    config = config_for(tmp_path, deny=["Edit"])
    assert config.writable == ()


def test_managed_only_domains(tmp_path: Path) -> None:
    managed = tmp_path / "managed.json"
    managed.write_text(
        json.dumps(
            {
                "sandbox": {
                    "network": {"allowedDomains": ["corp.example"], "allowManagedDomainsOnly": True}
                }
            }
        )
    )
    write_settings(tmp_path, {"sandbox": {"network": {"allowedDomains": ["anything.example"]}}})
    loaded = load_settings(tmp_path, managed_paths=[managed])
    config = resolve_sandbox(loaded, PermissionRules.from_settings(loaded), str(tmp_path))
    assert config.allowed_domains == ("corp.example",)


def test_an_untrusted_project_only_restricts(tmp_path: Path) -> None:
    write_settings(
        tmp_path,
        {
            "sandbox": {
                "enabled": True,
                "failIfUnavailable": True,
                "autoAllowBashIfSandboxed": True,
                "allowUnsandboxedCommands": True,
                "excludedCommands": ["docker"],
                "filesystem": {
                    "allowWrite": ["/"],
                    "denyWrite": ["x"],
                    "denyRead": ["y"],
                    "allowRead": ["z"],
                },
                "network": {
                    "allowedDomains": ["a.example"],
                    "deniedDomains": ["b.example"],
                    "allowUnixSockets": ["/run/docker.sock"],
                },
            }
        },
    )
    loaded = load_settings(tmp_path, managed_paths=[], project_trusted=False)
    config = resolve_sandbox(loaded, PermissionRules.from_settings(loaded), str(tmp_path))
    assert config.enabled and config.fail_if_unavailable
    assert config.excluded_commands == () and config.allow_write == ()
    assert [e.root for e in config.deny_write] == [str(tmp_path / "x")]
    assert config.allow_read == () and config.allowed_domains == ()
    assert config.denied_domains == ("b.example",)
    ignored = loaded.ignored_summary() or ""
    for key in (
        "sandbox.autoAllowBashIfSandboxed",
        "sandbox.allowUnsandboxedCommands",
        "sandbox.excludedCommands",
        "sandbox.filesystem.allowWrite",
        "sandbox.filesystem.allowRead",
        "sandbox.network.allowedDomains",
        "sandbox.network.allowUnixSockets",
    ):
        assert key in ignored


def test_an_untrusted_project_may_still_confine(tmp_path: Path) -> None:
    write_settings(
        tmp_path,
        {"sandbox": {"allowUnsandboxedCommands": False, "autoAllowBashIfSandboxed": False}},
    )
    loaded = load_settings(tmp_path, managed_paths=[], project_trusted=False)
    config = resolve_sandbox(loaded, PermissionRules.from_settings(loaded), str(tmp_path))
    assert config.allow_unsandboxed is False and config.auto_allow is False


def test_a_malformed_sandbox_section_stops_start_up(tmp_path: Path) -> None:
    write_settings(tmp_path, {"sandbox": {"enabled": True, "excludedCommands": "git"}})
    loaded = load_settings(tmp_path, managed_paths=[])
    assert loaded.errors and "sandbox" in loaded.errors[0]


def test_unknown_keys_are_listed_as_not_enforced(tmp_path: Path) -> None:
    write_settings(
        tmp_path,
        {
            "sandbox": {
                "enabled": True,
                "enableWeakerNestedSandbox": True,
                "network": {"httpProxyPort": 8080},
            }
        },
    )
    config = config_for(tmp_path)
    text = "\n".join(config.not_enforced)
    assert "enableWeakerNestedSandbox" in text and "httpProxyPort" in text


@pytest.mark.parametrize(
    ("line", "patterns", "out"),
    [
        ("docker ps", ("docker",), True),
        ("docker", ("docker",), True),
        ("dockerd", ("docker",), False),
        ("git push origin", ("git push *",), True),
        ("git status", ("git push *",), False),
        ("git status && curl x", ("git",), False),  # every command must be excluded
        ("git status && git log", ("git",), True),
        ("$(echo git) status", ("git",), False),
        ("", ("git",), False),
    ],
)
def test_excluded_commands(line: str, patterns: tuple[str, ...], out: bool) -> None:
    assert excluded(line, patterns) is out


@pytest.mark.parametrize(
    ("line", "out"),
    [
        ("ls -la", True),
        ("echo $(date)", True),
        ("cat <(ls)", True),
        ("(ls)", False),
        ("a && (b)", False),
        ("source x", False),
        (". x", False),
        ("FOO=1 source x", False),
        ("echo $$", False),
        ('eval "$x"', False),
    ],
)
def test_what_auto_allow_may_answer_for(line: str, out: bool, tmp_path: Path) -> None:
    assert vettable(line, str(tmp_path)) is out


def test_the_policy_per_call(tmp_path: Path) -> None:
    config = config_for(tmp_path, excluded_commands=("git",))
    on = SandboxPolicy(config, active=True)
    assert on.sandboxed({"command": "ls"})
    assert not on.sandboxed({"command": "git status"})
    assert not on.sandboxed({"command": "ls", "dangerouslyDisableSandbox": True})
    strict = SandboxPolicy(config_for(tmp_path, allow_unsandboxed=False), active=True)
    assert strict.sandboxed({"command": "ls", "dangerouslyDisableSandbox": True})
    assert not SandboxPolicy(config, active=False).sandboxed({"command": "ls"})
    assert not SandboxPolicy(config_for(tmp_path, auto_allow=False), active=True).auto_allows(
        {"command": "ls"}, str(tmp_path)
    )


def test_a_search_cut_short_is_said(tmp_path: Path) -> None:
    from hookline.sandbox.mounts import Planner
    from hookline.sandbox.tree import TreeIndex

    for i in range(20):
        (tmp_path / f"f{i}.pem").write_text("x")
    planner = Planner(config_for(tmp_path, deny=["Read(**/*.pem)"]), TreeIndex(limit=5))
    plan = planner.plan(str(tmp_path / "tmp"))
    assert plan.notes == ["a search stopped after 5 entries"]
    roomy = Planner(config_for(tmp_path, deny=["Read(**/*.pem)"])).plan(str(tmp_path / "tmp"))
    assert roomy.notes == [] and len(roomy.hidden_files) == 20
