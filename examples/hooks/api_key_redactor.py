"""API-key redactor: replace secrets in tool output with ``[REDACTED]`` before the model reads it.

The Python version of oh-my-pi's "API-key redactor" example. A ``tool_result``
handler rewrites every text block of every tool's output (``read``, ``bash``,
``grep``, ...); image blocks pass through untouched. Matched:

- ``sk-...``/``pk-...`` keys (OpenAI, Anthropic ``sk-ant-...``, project keys
  with ``-``/``_``), Stripe-style ``sk_live_...``/``pk_test_...``;
- AWS access key ids ``AKIA`` + 16 characters;
- GitHub tokens ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_`` + 36 or more;
- ``Bearer <token>`` and PEM private key blocks;
- ``NAME=VALUE`` / ``NAME: VALUE`` assignments whose name says it is a
  secret (``API_KEY``, ``*_SECRET``, ``*_TOKEN``, ``PASSWORD``,
  ``aws_secret_access_key``, ...): the name is kept, the value becomes
  ``[REDACTED]``;
- oh-my-pi's generic rule: a 20+ character name ``=`` a 20+ character value.

Unlike the original, failed results (``is_error``) are redacted too: an error
message can quote a secret as easily as a file can.

``tool_result`` handlers chain like middleware: a hook loaded after this one
sees the redacted output, so it cannot bring the secret back by echoing what
it was shown. Load this hook first to redact before other hooks see the output.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolResultEvent

REDACTED = "[REDACTED]"

_SECRET_NAME = (
    r"(?:[A-Za-z0-9]+[_.-])*"
    r"(?:api[_-]?key|access[_-]?key|secret(?:[_-]?key)?|token|password|passwd"
    r"|private[_-]?key|client[_-]?secret|credentials?)"
    r"(?:[_.-][A-Za-z0-9]+)*"
)

#: (pattern, replacement) pairs applied in order.
SECRET_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.DOTALL
        ),
        REDACTED,
    ),
    (re.compile(r"\b(?:sk|pk)-[A-Za-z0-9_-]{20,}"), REDACTED),
    (re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"), REDACTED),
    (re.compile(r"\bAKIA[A-Z0-9]{16}\b"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"), REDACTED),
    (re.compile(r"\b(Bearer\s+)[A-Za-z0-9._~+/=-]{16,}"), rf"\g<1>{REDACTED}"),
    (
        re.compile(
            rf"(?<![A-Za-z0-9_])({_SECRET_NAME})([\"']?\s*[=:]\s*)([\"']?)"
            r"(?!\[REDACTED\])[^\s\"'`,;]{8,}",
            re.IGNORECASE,
        ),
        rf"\g<1>\g<2>\g<3>{REDACTED}",
    ),
    (
        re.compile(r"\b([A-Za-z0-9_-]{20,}\s*=\s*)[\"']?[A-Za-z0-9._/+=-]{20,}[\"']?"),
        rf"\g<1>{REDACTED}",
    ),
)


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED]``."""
    for pattern, replacement in SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def register(pi: HookAPI) -> None:
    @pi.on("tool_result")
    async def redact_output(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any] | None:
        changed = False
        content: list[Any] = []
        for chunk in event.content:
            if chunk["type"] != "text":
                content.append(chunk)
                continue
            new = redact(chunk["text"])
            if new != chunk["text"]:
                changed = True
                content.append({**chunk, "text": new})
            else:
                content.append(chunk)
        return {"content": content} if changed else None
