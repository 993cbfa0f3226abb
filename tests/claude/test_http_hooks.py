"""``http`` hooks against a real loopback HTTP server: body, headers, allowlists, failures."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import HookSource
from hookline.claude.http_hook import HttpHookPolicy, check_url, interpolate
from hookline.settings.models import HttpHookConfig, MatcherConfig
from hookline.settings.validate import check_hooks

from .conftest import hooks_for

CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    hold: threading.Event | None = None  # wait for this before answering


@dataclass
class Server:
    url: str
    requests: list[dict[str, Any]]
    replies: dict[str, Reply]


@pytest.fixture
def server() -> Iterator[Server]:
    requests: list[dict[str, Any]] = []
    replies: dict[str, Reply] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(size)
            requests.append(
                {"path": self.path, "headers": dict(self.headers.items()), "body": body}
            )
            reply = replies.get(self.path, Reply())
            if reply.hold is not None:
                reply.hold.wait(30)
            self.send_response(reply.status)
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.handle_error = lambda *a: None  # type: ignore[method-assign]  # a client that gave up
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_port}", requests, replies)
    finally:
        for reply in replies.values():
            if reply.hold is not None:
                reply.hold.set()
        httpd.shutdown()
        httpd.server_close()


def http(url: str, **kw: Any) -> HttpHookConfig:
    return HttpHookConfig(type="http", url=url, **kw)


def src(event: str, *hooks: HttpHookConfig, matcher: str | None = None) -> HookSource:
    group = MatcherConfig(matcher=matcher, hooks=list(hooks))
    return HookSource("project", Path("/proj/.claude/settings.json"), {event: [group]})


async def test_posts_the_input_json_and_reads_a_decision(tmp_path: Path, server: Server) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "not on fridays",
        }
    }
    server.replies["/guard"] = Reply(body=json.dumps(deny).encode())
    hooks = hooks_for(tmp_path, src("PreToolUse", http(f"{server.url}/guard")))
    run = await hooks.engine.run("PreToolUse", dict(CALL))
    (o,) = run.outcomes
    assert (o.kind, o.reason) == ("blocking", "not on fridays")
    assert run.verdict.permission == "deny"
    (req,) = server.requests
    assert json.loads(req["body"]) == run.payload
    assert req["headers"]["Content-Type"] == "application/json"


async def test_plain_text_body_is_context_like_stdout(tmp_path: Path, server: Server) -> None:
    server.replies["/ctx"] = Reply(body=b"the build is red")
    hooks = hooks_for(tmp_path, src("UserPromptSubmit", http(f"{server.url}/ctx")))
    (o,) = (await hooks.engine.run("UserPromptSubmit", {"prompt": "hi"})).outcomes
    assert (o.kind, o.additional_context) == ("success", "the build is red")


async def test_empty_2xx_is_success(tmp_path: Path, server: Server) -> None:
    server.replies["/ok"] = Reply(status=204)
    hooks = hooks_for(tmp_path, src("Stop", http(f"{server.url}/ok")))
    (o,) = (await hooks.engine.run("Stop", {})).outcomes
    assert o.kind == "success"


async def test_headers_interpolate_only_allowed_variables(
    tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "s3cret")
    monkeypatch.setenv("OTHER_SECRET", "leak")
    hook = http(
        f"{server.url}/h",
        headers={
            "Authorization": "Bearer $HOOK_TOKEN",
            "X-Braced": "${HOOK_TOKEN}-x",
            "X-Other": "[$OTHER_SECRET]",
        },
        allowed_env_vars=["HOOK_TOKEN"],
    )
    await hooks_for(tmp_path, src("Stop", hook)).engine.run("Stop", {})
    (req,) = server.requests
    assert req["headers"]["Authorization"] == "Bearer s3cret"
    assert req["headers"]["X-Braced"] == "s3cret-x"
    assert req["headers"]["X-Other"] == "[]"


async def test_settings_cut_allowed_env_vars(
    tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "s3cret")
    monkeypatch.setenv("EXTRA", "more")
    hook = http(
        f"{server.url}/h",
        headers={"A": "$HOOK_TOKEN", "B": "$EXTRA"},
        allowed_env_vars=["HOOK_TOKEN", "EXTRA"],
    )
    policy = HttpHookPolicy(allowed_env_vars=frozenset({"HOOK_TOKEN"}))
    await hooks_for(tmp_path, src("Stop", hook), http_policy=policy).engine.run("Stop", {})
    (req,) = server.requests
    assert (req["headers"]["A"], req["headers"]["B"]) == ("s3cret", "")


async def test_allowed_urls_are_enforced(tmp_path: Path, server: Server) -> None:
    allowed = HttpHookPolicy(allowed_urls=(f"{server.url}/hooks/*",))
    hooks = hooks_for(
        tmp_path,
        src("Stop", http(f"{server.url}/hooks/a"), http(f"{server.url}/other")),
        http_policy=allowed,
    )
    ok, refused = (await hooks.engine.run("Stop", {})).outcomes
    assert ok.kind == "success"
    assert refused.kind == "non_blocking_error"
    assert "allowedHttpHookUrls" in (refused.reason or "")
    assert [r["path"] for r in server.requests] == ["/hooks/a"]


async def test_empty_allowlist_allows_no_url(tmp_path: Path, server: Server) -> None:
    hooks = hooks_for(
        tmp_path, src("Stop", http(f"{server.url}/a")), http_policy=HttpHookPolicy(allowed_urls=())
    )
    (o,) = (await hooks.engine.run("Stop", {})).outcomes
    assert o.kind == "non_blocking_error" and server.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost:80@evil.example/x",  # userinfo: the host is evil.example
        "http://localhost:1@127.0.0.2:9/",
        "http://evil.example/#http://localhost:1/",
        "http://localhost.evil.example:1/",
    ],
)
def test_allowlist_cannot_be_walked_around(url: str) -> None:
    parsed, why = check_url(url, ["http://localhost:*"])
    assert parsed is None and why


def test_allowlist_star_matches_ports_and_paths() -> None:
    assert check_url("http://localhost:8080/x", ["http://localhost:*"])[0] is not None
    assert check_url("https://hooks.example.com/a/b", ["https://hooks.example.com/*"])[0]


async def test_on_failure_block_with_allowlist_refusal_blocks(tmp_path: Path) -> None:
    hook = http("http://127.0.0.1:9/x", on_failure="block")
    policy = HttpHookPolicy(allowed_urls=())
    (o,) = (
        await hooks_for(tmp_path, src("PreToolUse", hook), http_policy=policy).engine.run(
            "PreToolUse", dict(CALL)
        )
    ).outcomes
    assert o.kind == "blocking"


@pytest.mark.parametrize("status", [400, 404, 500, 503])
async def test_non_2xx_is_a_non_blocking_error(tmp_path: Path, server: Server, status: int) -> None:
    server.replies["/x"] = Reply(status=status, body=b'{"decision": "block", "reason": "x"}')
    hooks = hooks_for(tmp_path, src("PreToolUse", http(f"{server.url}/x")))
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    assert o.kind == "non_blocking_error" and str(status) in (o.reason or "")


async def test_redirects_are_not_followed(tmp_path: Path, server: Server) -> None:
    server.replies["/r"] = Reply(status=307, headers={"Location": f"{server.url}/target"})
    hooks = hooks_for(tmp_path, src("Stop", http(f"{server.url}/r")))
    (o,) = (await hooks.engine.run("Stop", {})).outcomes
    assert o.kind == "non_blocking_error" and "307" in (o.reason or "")
    assert [r["path"] for r in server.requests] == ["/r"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_connection_failure_is_non_blocking_or_blocking_on_failure(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/x"
    hooks = hooks_for(tmp_path, src("PreToolUse", http(url), http(url + "?b", on_failure="block")))
    loose, strict = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    assert loose.kind == "non_blocking_error" and "failed" in (loose.reason or "")
    assert strict.kind == "blocking"


async def test_timeout_is_non_blocking_or_blocking_on_failure(
    tmp_path: Path, server: Server
) -> None:
    hold = threading.Event()
    server.replies["/slow"] = Reply(hold=hold)
    server.replies["/slow2"] = Reply(hold=hold)
    hooks = hooks_for(
        tmp_path,
        src(
            "PreToolUse",
            http(f"{server.url}/slow", timeout=0.3),
            http(f"{server.url}/slow2", timeout=0.3, on_failure="block"),
        ),
    )
    loose, strict = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    hold.set()
    assert loose.kind == "non_blocking_error" and "timed out" in (loose.reason or "")
    assert strict.kind == "blocking"


async def test_header_injection_through_a_variable_fails_cleanly(
    tmp_path: Path, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOKEN", "x\r\nX-Injected: yes")
    hook = http(f"{server.url}/h", headers={"A": "$TOKEN"}, allowed_env_vars=["TOKEN"])
    (o,) = (await hooks_for(tmp_path, src("Stop", hook)).engine.run("Stop", {})).outcomes
    assert o.kind == "non_blocking_error"
    assert all("X-Injected" not in r["headers"] for r in server.requests)


async def test_large_body_is_cut(tmp_path: Path, server: Server) -> None:
    server.replies["/big"] = Reply(body=b"x" * 5000)
    hooks = hooks_for(tmp_path, src("Stop", http(f"{server.url}/big")), max_output=100)
    (o,) = (await hooks.engine.run("Stop", {})).outcomes
    assert o.stdout_truncated and len(o.stdout) == 100 and o.stdout_bytes == 5000


async def test_same_url_twice_is_deduped(tmp_path: Path, server: Server) -> None:
    hooks = hooks_for(tmp_path, src("Stop", http(f"{server.url}/a"), http(f"{server.url}/a")))
    run = await hooks.engine.run("Stop", {})
    assert len(run.outcomes) == 1 and len(server.requests) == 1


def test_interpolate() -> None:
    env = {"A": "1", "B": "2"}
    assert interpolate("$A-${A}-$B-${C}", frozenset({"A"}), env) == "1-1--"


def test_http_entries_validate_with_key_paths() -> None:
    hooks = {
        "Stop": [
            {
                "hooks": [
                    {"type": "http", "url": "http://localhost:1/x", "headers": {"A": "b"}},
                    {"type": "http", "url": "ftp://x"},
                    {"type": "http", "url": "http://x", "onFailure": "explode"},
                    {"type": "http", "url": "http://x", "allowedEnvVars": "TOKEN"},
                ]
            }
        ]
    }
    checked = check_hooks(hooks)
    assert len(checked.value["Stop"][0]["hooks"]) == 1
    where = [w.split(":")[0] for w in checked.warnings]
    assert where == [
        "hooks.Stop[0].hooks[1].url",
        "hooks.Stop[0].hooks[2].onFailure",
        "hooks.Stop[0].hooks[3].allowedEnvVars",
    ]
