"""The host asker (a select dialog in the session's UI) and the "always" rule it saves."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.network_ask import ASK_OPTIONS, make_host_asker, make_host_rememberer
from hookline.authoring.ui import ScriptedUI
from hookline.core.runner import HookRunner
from hookline.sandbox.network import DomainPolicy, NetworkProxy, rule_domains
from hookline.settings.local_settings import LocalSettingsError


def _runner(ui: ScriptedUI | None) -> HookRunner:
    runner = HookRunner()
    if ui is not None:
        runner.set_ui(ui, True)
    return runner


@pytest.mark.parametrize(
    ("choice", "answer"),
    [
        ("Allow once", "once"),
        ("Always allow for this project", "always"),
        ("No", "no"),
        (None, "no"),  # dismissed
    ],
)
async def test_the_dialog_and_its_answers(choice: str | None, answer: str) -> None:
    ui = ScriptedUI()
    ui.answer("select", choice)
    assert await make_host_asker(_runner(ui))("example.com", 443) == answer
    (dialog,) = ui.asked
    assert dialog.title == "Allow network access to example.com:443?"
    assert dialog.detail == ["Allow once", "Always allow for this project", "No"]
    assert list(ASK_OPTIONS) == dialog.detail


async def test_an_ipv6_host_is_bracketed() -> None:
    ui = ScriptedUI()
    await make_host_asker(_runner(ui))("::1", 8080)
    assert ui.asked[0].title == "Allow network access to [::1]:8080?"


async def test_without_a_ui_the_answer_is_no() -> None:
    runner = HookRunner()
    assert not runner.context.has_ui
    assert await make_host_asker(runner)("example.com", 443) == "no"


class HeldUI(ScriptedUI):
    """Select dialogs stay open until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.opened = 0
        self.closed_unanswered = 0

    async def select(self, title: str, options: Sequence[str], **kwargs: Any) -> str | None:
        self.opened += 1
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.closed_unanswered += 1
            raise
        return "Allow once"


async def test_concurrent_asks_for_one_host_open_one_dialog() -> None:
    ui = HeldUI()
    ask = make_host_asker(_runner(ui))
    same = [asyncio.ensure_future(ask("example.com", 443)) for _ in range(4)]
    other = asyncio.ensure_future(ask("other.example", 443))
    while ui.opened < 2:
        await asyncio.sleep(0.01)
    ui.release.set()
    assert await asyncio.gather(*same, other) == ["once"] * 5
    assert ui.opened == 2


async def test_a_dialog_nobody_waits_for_is_closed() -> None:
    ui = HeldUI()
    ask = make_host_asker(_runner(ui))
    waiting = asyncio.ensure_future(ask("example.com", 443))
    while ui.opened < 1:
        await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.sleep(0)
    assert ui.closed_unanswered == 1


def _local(project: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((project / ".claude" / "settings.local.json").read_text())
    return data


def test_always_writes_the_rule_claude_code_writes(tmp_path: Path) -> None:
    remember = make_host_rememberer(tmp_path)
    remember("registry.npmjs.org")
    assert _local(tmp_path) == {"permissions": {"allow": ["WebFetch(domain:registry.npmjs.org)"]}}
    remember("registry.npmjs.org")  # once
    assert _local(tmp_path)["permissions"]["allow"] == ["WebFetch(domain:registry.npmjs.org)"]


def test_other_settings_are_kept(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps({"permissions": {"allow": ["Bash(ls *)"], "deny": ["Read(.env)"]}, "model": "x"})
    )
    make_host_rememberer(tmp_path)("example.com")
    assert _local(tmp_path) == {
        "permissions": {
            "allow": ["Bash(ls *)", "WebFetch(domain:example.com)"],
            "deny": ["Read(.env)"],
        },
        "model": "x",
    }


@pytest.mark.parametrize("content", ['{"permissions": []}', '{"permissions": {"allow": "x"}}'])
def test_a_file_of_another_shape_is_left_alone(tmp_path: Path, content: str) -> None:
    path = tmp_path / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text(content)
    with pytest.raises(LocalSettingsError):
        make_host_rememberer(tmp_path)("example.com")
    assert path.read_text() == content


def test_the_saved_rule_allows_the_host_next_session(tmp_path: Path) -> None:
    make_host_rememberer(tmp_path)("api.example.com")
    allowed = rule_domains(_local(tmp_path)["permissions"]["allow"])
    assert allowed == ("api.example.com",)
    assert DomainPolicy(allowed=allowed).decide("api.example.com", 443) == "allow"


def test_rule_domains_reads_only_webfetch_domain_rules() -> None:
    rules = ["Bash(ls *)", "WebFetch", "WebFetch(domain:a.com)", "WebFetch(https://b.com)", "(("]
    assert rule_domains(rules) == ("a.com",)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
async def test_always_through_the_real_sandbox_saves_the_rule(tmp_path: Path) -> None:
    """The agent's asker and rememberer on the real path: curl in bwrap asks, the user
    picks "always", the request gets through and the rule is in the file."""
    from tests.sandbox.net_helpers import http_server, run_in_sandbox

    ui = ScriptedUI()
    ui.answer("select", "Always allow for this project")
    proxy = NetworkProxy(
        DomainPolicy(), ask=make_host_asker(_runner(ui)), remember=make_host_rememberer(tmp_path)
    )
    async with http_server() as server:
        url = f"http://localhost:{server.port}/saved"
        run = await run_in_sandbox(proxy, ["curl", "-sS", "--max-time", "20", url])
    assert run.stdout == "ok /saved\n", run
    assert server.requests == ["GET /saved"]
    assert _local(tmp_path)["permissions"]["allow"] == ["WebFetch(domain:localhost)"]
    assert [d.title for d in ui.asked] == [f"Allow network access to localhost:{server.port}?"]
