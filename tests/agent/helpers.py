"""Build a real agent in-process for end-to-end tests: hook files, a script, a session file.

``make_agent`` (conftest) writes each hook as a real ``.py`` file and the
model's turns as a script file, then calls ``build_agent`` exactly as the CLI
does. A recorder hook (first in load order) keeps every event it is sent, so
a test can check both the order of events and their payloads.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest

from hookline import Agent, Event, HookError, HookRunner, NoUI
from hookline.agent.providers.scripted import ScriptedProvider
from hookline.agent.setup import AgentBundle
from hookline.core.messages import Message, content_text
from hookline.discovery.loader import module_name_for

E = TypeVar("E", bound=Event)

#: Every recorder instance's events by hook file, in order: ``/new`` and ``/reload`` load
#: the hooks again, and the harness reads what all of them heard.
RECORDINGS: dict[str, list[Event]] = {}

#: A hook that subscribes to every event name and keeps the events, in order: this
#: instance's in ``EVENTS``, every instance's in ``RECORDINGS``.
RECORDER = f"""\
import sys

from hookline import EVENT_NAMES

EVENTS = []
ALL = sys.modules[{__name__!r}].RECORDINGS.setdefault(__file__, [])


def register(pi):
    def record(event, ctx):
        EVENTS.append(event)
        ALL.append(event)

    for name in sorted(EVENT_NAMES):
        pi.on(name, record)
"""


def covers(*names: str) -> pytest.MarkDecorator:
    """Mark a test as checking the payload of these events (see test_coverage.py)."""
    return pytest.mark.covers(*names)


def covered_names(folder: Path) -> set[str]:
    """Every event name given to ``covers(...)`` in the test modules of ``folder``."""
    names: set[str] = set()
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "covers"
            ):
                names.update(
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
    return names


class ScriptedUI(NoUI):
    """A UI whose dialogs give fixed answers and remember what they were asked."""

    def __init__(
        self, select: str | None = None, confirm: bool = False, input: str | None = None
    ) -> None:
        super().__init__()
        self.select_answer = select
        self.confirm_answer = confirm
        self.input_answer = input
        self.asked: list[tuple[str, Any]] = []

    async def select(self, title: str, options: Sequence[str], **_: Any) -> str | None:
        """The first option starting with the scripted answer (None: Esc)."""
        self.asked.append((title, list(options)))
        if self.select_answer is None:
            return None
        return next((o for o in options if o.startswith(self.select_answer)), None)

    async def confirm(self, title: str, message: str, **_: Any) -> bool:
        self.asked.append((title, message))
        return self.confirm_answer

    async def input(self, title: str, placeholder: str | None = None, **_: Any) -> str | None:
        self.asked.append((title, placeholder))
        return self.input_answer


@dataclass
class Harness:
    """One built agent with its hook files, its script and what went wrong in hooks."""

    bundle: AgentBundle
    project: Path
    hook_files: dict[str, Path]
    stderr: Any
    errors: list[HookError] = field(default_factory=list)

    @property
    def agent(self) -> Agent:
        return self.bundle.agent

    @property
    def runner(self) -> HookRunner:
        return self.bundle.runner

    @property
    def provider(self) -> ScriptedProvider:
        provider = self.bundle.agent.provider
        assert isinstance(provider, ScriptedProvider)
        return provider

    def hook(self, name: str) -> ModuleType:
        """The imported module of hook file ``name`` (its globals hold what it recorded)."""
        return sys.modules[module_name_for(str(self.hook_files[name]))]

    def events(self, kind: type[E]) -> list[E]:
        """The recorded events of one class, in order."""
        return [e for e in self.recorded() if isinstance(e, kind)]

    def event(self, kind: type[E]) -> E:
        """The one recorded event of ``kind`` (fails when there are none or several)."""
        found = self.events(kind)
        assert len(found) == 1, f"expected one {kind.type} event, got {len(found)}"
        return found[0]

    def recorded(self) -> list[Event]:
        return list(RECORDINGS.get(str(self.hook_files["recorder"]), []))

    def types(self) -> list[str]:
        return [e.type for e in self.recorded()]

    def entries(self, path: str | None = None) -> list[dict[str, Any]]:
        """The lines of a session file (default: the agent's current one), header first."""
        file = path or self.agent.session.get_session_file()
        assert file is not None, "the session is in memory"
        return [json.loads(line) for line in Path(file).read_text().splitlines()]

    def seen_by_model(self, call: int = -1) -> list[Message]:
        """The messages of one model call (default: the last)."""
        return self.provider.requests[call].messages


def texts(messages: Sequence[Message]) -> list[str]:
    """Each message's text, for compact assertions."""
    return [content_text(m["content"]) for m in messages]
