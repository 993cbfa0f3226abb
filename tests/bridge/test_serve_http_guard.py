"""`hookline serve --http` on uvicorn: what may ask it, tried by effect on a real server.

The tests of today's guarantees (loopback, Origin, Host, one token, bad bodies) are in
test_serve.py and test_serve_fail_closed.py; these add what the ASGI server brings:
several tokens, the routes beside the hook input, chunked bodies, slow clients.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookline._extras import install_hint
from hookline.bridge.guard import Guard, TokenFileError

from .server import SERVE, decision, pre, serving

COUNTER = """
calls = []

def register(pi):
    @pi.on("tool_call")
    def count(event, ctx):
        calls.append(event.input.get("command"))
        if str(event.input.get("command", "")).startswith("rm "):
            return {"block": True, "reason": f"no rm (call {len(calls)})"}
"""


@pytest.fixture
def hook(tmp_path: Path) -> Iterator[list[str]]:
    (tmp_path / "counter.py").write_text(COUNTER)
    yield ["--no-discovery", "--hook", "counter.py"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_token_of_several_is_accepted_and_no_other(tmp_path: Path, hook: list[str]) -> None:
    (tmp_path / "tokens").write_text("from-file\n\n  spaced  \n")
    env = {**os.environ, "HOOKLINE_SERVE_TOKEN": "env-a, env-b"}
    cases = [
        (["--token", "old", "--token", "new"], ["old", "new"]),
        (["--token-file", "tokens"], ["from-file", "spaced"]),
        ([], ["env-a", "env-b"]),
    ]
    for flags, good in cases:
        with serving(tmp_path, *hook, *flags, env=env) as served:
            for token in good:
                assert served.request("POST", "/", pre("ls"), _bearer(token))[0] == 200
            for bad in ["", "Bearer", "old,new", "new ", "env-a, env-b", "spaced  ", "NEW"]:
                headers = {"Authorization": bad if bad.startswith("Bearer") else f"Bearer {bad}"}
                assert served.request("POST", "/", pre("rm x"), headers)[0] == 401, bad
            assert served.request("POST", "/", pre("rm x"))[0] == 401
            # Two Authorization headers: neither passes for the other.
            conn = served.connect()
            conn.putrequest("POST", "/")
            conn.putheader("Authorization", f"Bearer {good[0]}")
            conn.putheader("Authorization", "Bearer wrong")
            conn.putheader("Content-Length", "2")
            conn.endheaders(b"{}")
            assert conn.getresponse().status == 401
            # None of the refused requests reached the hook: only the accepted ones.
            answer = served.post("/", pre("rm x"), _bearer(good[0]))
            assert decision(answer) == ("deny", f"no rm (call {len(good) + 1})")


def test_every_route_but_health_needs_the_token(tmp_path: Path, hook: list[str]) -> None:
    with serving(tmp_path, *hook, "--token", "t") as served:
        assert served.request("GET", "/healthz") == (200, "ok\n")
        assert served.request("GET", "/readyz")[0] == 200
        for method, path in [("GET", "/metrics"), ("POST", "/reload"), ("POST", "/pi")]:
            assert served.request(method, path, {})[0] == 401, path
        status, text = served.request("GET", "/metrics", headers=_bearer("t"))
        assert status == 200 or (status == 404 and install_hint("serve") in text)


def test_readiness_says_why_only_to_a_token_holder(tmp_path: Path) -> None:
    """A load error can quote a secret and names the hook files: a probe without the
    token learns whether the service is ready, not why."""
    (tmp_path / "broken.py").write_text("raise RuntimeError('password hunter2')\n")
    with serving(tmp_path, "--no-discovery", "--hook", "broken.py", "--token", "t") as served:
        status, text = served.request("GET", "/readyz")
        assert (status, json.loads(text)) == (200, {"ready": True})
        status, text = served.request("GET", "/readyz", headers=_bearer("wrong"))
        assert (status, json.loads(text)) == (200, {"ready": True})
        status, text = served.request("GET", "/readyz", headers=_bearer("t"))
        assert status == 200 and "hunter2" in json.loads(text)["load_errors"][0]


def test_a_web_page_reaches_no_route(tmp_path: Path, hook: list[str]) -> None:
    with serving(tmp_path, *hook) as served:
        for method, path in [("GET", "/healthz"), ("GET", "/readyz"), ("POST", "/reload")]:
            for headers in [{"Origin": "https://evil.example"}, {"Host": "evil.example"}]:
                assert served.request(method, path, b"{}", headers)[0] == 403, (path, headers)
        pi = {"id": 1, "type": "tool_call", "data": {"toolName": "bash", "input": {}}}
        assert served.request("POST", "/pi", pi, {"Origin": "null"})[0] == 403


def _chunked(port: int, chunks: list[bytes]) -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/", iter(chunks), {"Transfer-Encoding": "chunked"}, encode_chunked=True)
    response = conn.getresponse()
    return response.status, response.read().decode()


def test_a_chunked_body_is_read_and_one_over_the_limit_denied(
    tmp_path: Path, hook: list[str]
) -> None:
    with serving(tmp_path, *hook) as served:
        body = json.dumps(pre("rm small")).encode()
        status, text = _chunked(served.port, [body[:10], body[10:]])
        assert (status, decision(json.loads(text))) == (200, ("deny", "no rm (call 1)"))
        big = json.dumps(pre("x" * (9 * 1024 * 1024))).encode()
        pieces = [big[i : i + 65536] for i in range(0, len(big), 65536)]
        status, text = _chunked(served.port, pieces)
        assert status == 200
        verdict, reason = decision(json.loads(text))
        assert verdict == "deny" and "larger than" in reason
        # The oversized body never reached the hook; the server goes on answering.
        assert decision(served.post("/", pre("rm x"))) == ("deny", "no rm (call 2)")


def test_a_client_that_never_finishes_its_request_blocks_nobody(
    tmp_path: Path, hook: list[str]
) -> None:
    with serving(tmp_path, *hook) as served:
        stalled = []
        for part in [b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le", b"POST / HTTP/1.1\r\n"]:
            sock = socket.create_connection(("127.0.0.1", served.port))
            sock.sendall(part)
            stalled.append(sock)
        body = b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}'
        sock = socket.create_connection(("127.0.0.1", served.port))
        sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999\r\n\r\n" + body)
        stalled.append(sock)
        for _ in range(3):
            assert decision(served.post("/", pre("rm x")))[0] == "deny"
        for sock in stalled:
            sock.close()


def test_without_the_serve_extra_the_error_names_the_install(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['uvicorn'] = None\n")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [*SERVE, "--http", "127.0.0.1:0", "--no-discovery"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        timeout=60,
    )
    assert proc.returncode == 2
    assert "--http needs the serve extra (uvicorn): " + install_hint("serve") in proc.stderr


def test_a_remote_bind_with_a_token_serves_and_checks_no_host(
    tmp_path: Path, hook: list[str]
) -> None:
    """Beyond loopback the Host names the service (a proxy, a DNS name): the token guards."""
    proc = subprocess.Popen(
        [*SERVE, "--http", "0.0.0.0:0", "--allow-remote", "--token", "t", *hook],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "listening on http://0.0.0.0:" in line, line
        port = int(line.rsplit(":", 1)[1])
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/", json.dumps(pre("rm x")), {"Host": "hooks.example.com"})
        assert conn.getresponse().status == 401
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Host": "hooks.example.com", **_bearer("t")}
        conn.request("POST", "/", json.dumps(pre("rm x")), headers)
        response = conn.getresponse()
        assert decision(json.loads(response.read()))[0] == "deny"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--workers", "0"], "positive whole number"),
        (["--ssl-keyfile", "k.pem"], "needs --ssl-certfile"),
        (["--token-file", "missing"], "--token-file"),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, extra: list[str], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "serve", "--http", "127.0.0.1:0", *extra],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 2
    assert message in proc.stderr


@pytest.mark.parametrize("shape", ["many headers", "one long header", "a long URL"])
def test_a_request_head_without_end_is_cut_off(tmp_path: Path, hook: list[str], shape: str) -> None:
    """httptools would keep every byte of a head in memory: past 64 KiB it is refused."""
    with serving(tmp_path, *hook) as served:
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        start = b"POST /" + (b"a" * 70_000 if shape == "a long URL" else b"") + b" HTTP/1.1\r\n"
        if shape == "many headers":
            head = start + b"".join(b"X-%d: v\r\n" % n for n in range(20_000))
        else:
            head = start + b"Host: 127.0.0.1\r\nX-Long: " + b"v" * 70_000
        try:
            sock.sendall(head)
            answer = sock.recv(65536)
        except ConnectionError:
            answer = b""  # cut off before the answer was read: refused all the same
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")
        sock.close()
        assert decision(served.post("/", pre("rm x"))) == ("deny", "no rm (call 1)")


def _one_response(sock: socket.socket) -> bytes:
    """One kept-alive response, whole: the head and the body may come in separate reads."""
    said = b""
    while b"\r\n\r\n" not in said:
        said += sock.recv(65536)
    head, _, body = said.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_connection_that_never_finishes_a_head_lets_go_of_its_descriptor(
    tmp_path: Path, hook: list[str]
) -> None:
    """Held for good, enough of them would leave no descriptor for the next hook input:
    a head not complete within its deadline is answered 408 and closed, as is a
    connection that sends nothing, or a second head that stalls after a first request."""
    with serving(tmp_path, *hook) as served:
        silent = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        partial = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        partial.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        again = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        body = json.dumps(pre("rm x")).encode()
        head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % len(body)
        again.sendall(head + body)
        assert b'"permissionDecision": "deny"' in _one_response(again)
        again.sendall(b"POST / HTTP/1.1\r\n")  # keeps uvicorn's keep-alive timer off
        assert decision(served.post("/", pre("rm x")))[0] == "deny"  # answered meanwhile
        for sock in (silent, partial, again):
            said = b""
            while chunk := sock.recv(65536):  # until the server closes it
                said += chunk
            assert said.endswith(b"the request's headers did not arrive in time\n"), said
            assert b"HTTP/1.1 408 " in said
            sock.close()
        assert decision(served.post("/", pre("rm x")))[0] == "deny"


@pytest.mark.parametrize("how", ["POST /reload", "SIGHUP"])
def test_a_token_file_is_read_again_on_reload(tmp_path: Path, hook: list[str], how: str) -> None:
    """Rotation without a restart: roll the new token in, move clients, drop the old one.
    A token file emptied or gone keeps the tokens read before (never an open service)."""
    import signal

    tokens = tmp_path / "tokens"
    tokens.write_text("old\n")
    with serving(tmp_path, *hook, "--token-file", "tokens") as served:
        served.wait_for("ready")

        def reload(using: str) -> None:
            if how == "SIGHUP":
                count = len(served.wait_for("hook modules reloaded", 0))
                served.signal(signal.SIGHUP)
                served.wait_for("hook modules reloaded", count + 1)
            else:
                assert served.post("/reload", b"", _bearer(using))["reloaded"] is True

        def status(token: str) -> int:
            return served.request("POST", "/", pre("ls"), _bearer(token))[0]

        tokens.write_text("old\nnew\n")
        reload("old")
        assert (status("old"), status("new")) == (200, 200)
        tokens.write_text("new\n")
        reload("new")
        assert (status("old"), status("new")) == (401, 200)
        for broken in ("", None):
            if broken is None:
                tokens.unlink()
            else:
                tokens.write_text(broken)
            reload("new")
            assert (status("old"), status("new"), status("")) == (401, 200, 401)
        assert any("the tokens read before stay" in line for line in served.lines)


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:80@evil.example",
        "evil.example@127.0.0.1",
        "[::1]evil.example",
        "[::1]:80x",
        "[::1",
        "localhost:",
        "localhost:x",
        "localhost:80:80",
        "127.0.0.1 evil.example",
        "localhost.",
        "",
    ],
)
def test_a_host_header_is_read_strictly(host: str) -> None:
    assert Guard([], remote=False).refusal({"host": host})


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8377", "127.0.0.1:1", "[::1]", "[::1]:9"])
def test_a_loopback_host_header_is_accepted(host: str) -> None:
    assert Guard([], remote=False).refusal({"host": host.lower()}) == ""


def test_a_token_file_s_comments_and_byte_order_mark_are_no_tokens(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text("\ufeffnew-one\n# rotated out: old-one\n  # spare\nold-one\n", "utf-8")
    guard = Guard([], remote=False, token_file=str(tokens))
    for given, accepted in [
        ("new-one", True),
        ("old-one", True),
        ("\ufeffnew-one", False),
        ("# rotated out: old-one", False),
        ("# spare", False),
    ]:
        header = f"Bearer {given}".encode().decode("latin-1")
        assert guard.authorized({"authorization": header}) is accepted, given


def test_a_token_file_of_comments_only_names_no_token(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text("# the tokens go here\n")
    with pytest.raises(TokenFileError):
        Guard([], remote=False, token_file=str(tokens))
