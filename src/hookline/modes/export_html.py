"""A session as one standalone HTML file (RPC's ``export_html``).

The page has no script and loads nothing: styles are inline, and every piece
of text from the session (messages, tool arguments and results, summaries,
the system prompt) is HTML-escaped, so a message containing ``<script>``
shows as text and never runs.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from hookline.session import SessionManager

_STYLE = """
body{font:14px/1.5 system-ui,sans-serif;max-width:58em;margin:2em auto;padding:0 1em;
color:#1d1d1f;background:#fafafa}
header{border-bottom:1px solid #ccc;margin-bottom:1em}
.meta{color:#666;font-size:12px}
section{border-radius:6px;padding:.6em .9em;margin:.7em 0;background:#fff;
border-left:4px solid #999}
.user{border-color:#2b6cb0}.assistant{border-color:#2f855a}.tool{border-color:#b7791f}
.error{border-color:#c53030}.custom,.summary{border-color:#6b46c1}.note{border-color:#aaa}
h2{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#555;margin:0 0 .3em}
pre{white-space:pre-wrap;word-break:break-word;margin:.3em 0;font:13px/1.45 ui-monospace,monospace}
details{color:#555}
"""


def default_export_path(session: SessionManager, cwd: str) -> Path:
    """``hookline-session-<session file name>.html`` in ``cwd`` (the session id in memory)."""
    file = session.get_session_file()
    stem = Path(file).stem if file else session.get_session_id()
    return Path(cwd) / f"hookline-session-{stem}.html"


def export_session_html(
    session: SessionManager,
    output_path: str | None,
    *,
    cwd: str,
    model: str,
    system_prompt: str = "",
    tools: Sequence[tuple[str, str]] = (),
) -> str:
    """Write the current branch of ``session`` to ``output_path`` (relative to ``cwd``;
    by default ``default_export_path``); returns the absolute path written."""
    path = Path(output_path) if output_path else default_export_path(session, cwd)
    if not path.is_absolute():
        path = Path(cwd) / path
    if path.is_dir():
        raise ValueError(f"outputPath {str(path)!r} is a directory; give a file name")
    page = render_session_html(session, model=model, system_prompt=system_prompt, tools=tools)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(page, encoding="utf-8")
    os.replace(tmp, path)  # a reader never sees half a page
    return str(path)


def render_session_html(
    session: SessionManager,
    *,
    model: str,
    system_prompt: str = "",
    tools: Sequence[tuple[str, str]] = (),
) -> str:
    """The page: a header (session, model, time), the system prompt and tools folded
    away, then each entry of the current branch."""
    header = session.get_header()
    name = session.get_session_name()
    title = name or f"hookline session {session.get_session_id()}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f'<header><h1>{_e(title)}</h1><p class="meta">session {_e(header["id"])}'
        f" · started {_e(header['timestamp'])} · cwd {_e(header['cwd'])}"
        f" · model {_e(model)} · exported {_e(time.strftime('%Y-%m-%d %H:%M:%S'))}</p>",
    ]
    if system_prompt:
        parts.append(f"<details><summary>System prompt</summary><pre>{_e(system_prompt)}</pre>")
        parts.append("</details>")
    if tools:
        items = "".join(f"<li><b>{_e(n)}</b>: {_e(d)}</li>" for n, d in tools)
        parts.append(f"<details><summary>Tools ({len(tools)})</summary><ul>{items}</ul></details>")
    parts.append("</header><main>")
    for entry in session.get_branch():
        parts.extend(_entry(entry))
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _section(kind: str, heading: str, body: Iterable[str]) -> str:
    return f'<section class="{kind}"><h2>{_e(heading)}</h2>{"".join(body)}</section>'


def _pre(text: str) -> str:
    return f"<pre>{_e(text)}</pre>"


def _entry(entry: Mapping[str, Any]) -> list[str]:
    kind = entry.get("type")
    if kind == "message":
        return [_message(entry["message"])]
    if kind == "compaction":
        return [_section("summary", "Compaction summary", [_pre(entry.get("summary", ""))])]
    if kind == "branch_summary":
        return [_section("summary", "Branch summary", [_pre(entry.get("summary", ""))])]
    if kind == "custom_message" and entry.get("display", True):
        return [_section("custom", str(entry.get("custom_type", "custom")), _blocks(entry))]
    if kind == "model_change":
        return [_section("note", "Model", [_pre(f"{entry.get('model')}")])]
    if kind == "session_info":
        return [_section("note", "Session name", [_pre(str(entry.get("name", "")))])]
    return []


def _blocks(entry: Mapping[str, Any]) -> list[str]:
    content = entry.get("content")
    if isinstance(content, str):
        return [_pre(content)]
    return [_content(b) for b in content or [] if isinstance(b, Mapping)]


def _message(message: Mapping[str, Any]) -> str:
    role = str(message.get("role"))
    if role == "tool":
        heading = f"Tool result: {message.get('tool_name', '')}"
        kind = "error" if message.get("is_error") else "tool"
        return _section(kind, heading, _blocks(message))
    if role == "custom":
        if message.get("display") is False:
            return ""
        return _section("custom", str(message.get("custom_type", "custom")), _blocks(message))
    kind = "error" if message.get("stop_reason") == "error" else role
    return _section(kind, role.capitalize(), _blocks(message))


def _content(block: Mapping[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        return _pre(str(block.get("text", "")))
    if kind == "thinking":
        return (
            f"<details><summary>Thinking</summary>{_pre(str(block.get('thinking', '')))}</details>"
        )
    if kind == "tool_call":
        args = json.dumps(block.get("arguments"), indent=2, ensure_ascii=False)
        return f"<p>Tool call <b>{_e(block.get('name', ''))}</b></p>{_pre(args)}"
    if kind == "image":
        mime = str(block.get("mime_type", ""))
        if mime in ("image/png", "image/jpeg", "image/gif", "image/webp"):
            src = f"data:{mime};base64,{block.get('data', '')}"
            return f'<p><img alt="image" style="max-width:100%" src="{_e(src)}"></p>'
        return "<p>(image)</p>"
    return _pre(json.dumps(dict(block), ensure_ascii=False, default=str))
