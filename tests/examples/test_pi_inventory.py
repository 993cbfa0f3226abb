"""Every one of pi's 66 example extensions has a Python port in ``examples/pi/`` that a test
drives: a port is ``examples/pi/<name>.py`` or a package ``examples/pi/<name>/``, and a test
module under ``tests/`` that loads examples (``example_path``, the ``example`` fixture or a
path into ``examples/pi``) names it as a string."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .harness import PI_EXAMPLES

TESTS = Path(__file__).resolve().parents[1]

# pi-mono's packages/coding-agent/examples/extensions/, one name per example.
PI_NAMES = [
    "antigravity-image-gen",
    "auto-commit-on-exit",
    "bash-spawn-hook",
    "bookmark",
    "built-in-tool-renderer",
    "claude-rules",
    "commands",
    "confirm-destructive",
    "custom-compaction",
    "custom-footer",
    "custom-header",
    "custom-provider-anthropic",
    "custom-provider-gitlab-duo",
    "custom-provider-qwen-cli",
    "dirty-repo-guard",
    "doom-overlay",
    "dynamic-resources",
    "dynamic-tools",
    "event-bus",
    "file-trigger",
    "git-checkpoint",
    "handoff",
    "hello",
    "inline-bash",
    "input-transform",
    "interactive-shell",
    "mac-system-theme",
    "message-renderer",
    "minimal-mode",
    "modal-editor",
    "model-status",
    "notify",
    "overlay-qa-tests",
    "overlay-test",
    "permission-gate",
    "pirate",
    "plan-mode",
    "preset",
    "protected-paths",
    "provider-payload",
    "qna",
    "question",
    "questionnaire",
    "rainbow-editor",
    "reload-runtime",
    "rpc-demo",
    "sandbox",
    "send-user-message",
    "session-name",
    "shutdown-command",
    "snake",
    "space-invaders",
    "ssh",
    "status-line",
    "subagent",
    "summarize",
    "system-prompt-header",
    "timed-confirm",
    "titlebar-spinner",
    "todo",
    "tool-override",
    "tools",
    "trigger-compact",
    "truncated-tool",
    "widget-placement",
    "with-deps",
]


def _module(name: str) -> str:
    return name.replace("-", "_")


def _port(name: str) -> Path | None:
    module = _module(name)
    for candidate in (PI_EXAMPLES / f"{module}.py", PI_EXAMPLES / module / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _test_texts() -> list[str]:
    texts = []
    for path in TESTS.rglob("test_*.py"):
        if path.resolve() == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        loaders = ("PI_EXAMPLES", '"examples" / "pi"', "examples/pi", "example_path", "example(")
        if any(loader in text for loader in loaders):
            texts.append(text)
    return texts


_TEXTS = _test_texts()


def test_the_list_is_pis_66_examples() -> None:
    assert len(PI_NAMES) == len(set(PI_NAMES)) == 66


@pytest.mark.parametrize("name", PI_NAMES)
def test_each_example_has_a_port_a_test_drives(name: str) -> None:
    port = _port(name)
    assert port is not None, f"no examples/pi/{_module(name)}.py (or package) for pi's {name}"
    # the port named as a string: "snake", "snake.py" (a path's last part counts too)
    pattern = re.compile(rf"[\"'/]{re.escape(_module(name))}(\.py)?[\"']")
    assert any(pattern.search(text) for text in _TEXTS), (
        f"no test under tests/ loads examples/pi/{_module(name)}"
    )
