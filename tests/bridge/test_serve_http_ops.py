"""`hookline serve --http` in operation: health, reloads, shutdown, workers, TLS, the store.

Each test drives a real server process over real sockets and waits for what it means
(a stderr line, a file a hook writes, a refused connection), never for time to pass.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server import Served, decision, pre, serving

VERSIONED = """
import os
import time

VERSION = "v1"

def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        command = event.input.get("command", "")
        if command == "slow":
            open(STARTED, "w").close()
            while not os.path.exists(GO):
                time.sleep(0.005)
        if command == "store":
            return {"block": True, "reason": os.environ.get("HOOKLINE_STORE", "unset")}
        return {"block": True, "reason": f"{VERSION} pid {os.getpid()}"}
"""


@pytest.fixture
def hook(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "versioned.py"
    source = VERSIONED.replace("STARTED", repr(str(tmp_path / "started")))
    path.write_text(source.replace("GO", repr(str(tmp_path / "go"))))
    yield path


def _set_version(hook: Path, version: str) -> None:
    hook.write_text(hook.read_text().replace('VERSION = "v1"', f'VERSION = "{version}"'))


def _reason(
    served: Served, command: str = "ls", conn: http.client.HTTPConnection | None = None
) -> str:
    status, text = served.request("POST", "/", pre(command), conn=conn)
    assert status == 200, (status, text)
    return decision(json.loads(text))[1]


FLAGS = ["--no-discovery", "--hook", "versioned.py"]


def test_health_and_readiness(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS) as served:
        assert served.request("GET", "/healthz") == (200, "ok\n")
        status, text = served.request("GET", "/readyz")
        assert (status, json.loads(text)) == (
            200,
            {"ready": True, "problems": [], "load_errors": []},
        )
        assert served.request("DELETE", "/healthz")[0] == 405


def test_reload_takes_the_new_hooks_and_a_failed_one_keeps_the_old(
    tmp_path: Path, hook: Path
) -> None:
    with serving(tmp_path, *FLAGS) as served:
        assert _reason(served).startswith("v1 ")
        _set_version(hook, "v2")
        assert _reason(served).startswith("v1 ")  # nothing changes until asked
        assert served.post("/reload", b"")["reloaded"] is True
        assert _reason(served).startswith("v2 ")
        hook.write_text("def register(pi):\n    raise RuntimeError('typo')\n")
        status, text = served.request("POST", "/reload", b"")
        answer = json.loads(text)
        assert (status, answer["reloaded"]) == (500, False)
        assert "typo" in answer["message"] and "stay" in answer["message"]
        assert _reason(served).startswith("v2 ")  # the loaded hooks still answer
        ready = json.loads(served.request("GET", "/readyz")[1])
        assert ready["load_errors"] == []


def test_an_edit_in_the_same_second_is_reloaded(tmp_path: Path, hook: Path) -> None:
    """Bytecode caches would hide an edit of the same size within a second of the load."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with serving(tmp_path, *FLAGS, env=env) as served:
        for n in range(2, 6):
            hook.write_text(hook.read_text().replace(f'"v{n - 1}"', f'"v{n}"'))
            assert served.post("/reload", b"")["reloaded"] is True
            assert _reason(served).startswith(f"v{n} ")


def test_sighup_reloads(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS) as served:
        served.wait_for("ready")
        assert _reason(served).startswith("v1 ")
        _set_version(hook, "v3")
        served.signal(signal.SIGHUP)
        served.wait_for("hook modules reloaded")
        assert _reason(served).startswith("v3 ")


def test_reloads_under_continuous_requests_drop_none(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS) as served:
        stop = threading.Event()
        seen: list[str] = []
        failures: list[str] = []

        def hammer() -> None:
            conn = served.connect()
            while not stop.is_set():
                try:
                    seen.append(_reason(served, conn=conn))
                except Exception as exc:  # any failure is the test's
                    failures.append(repr(exc))
                    return

        threads = [threading.Thread(target=hammer) for _ in range(4)]
        for thread in threads:
            thread.start()
        for n in range(1, 7):
            if n > 1:
                hook.write_text(hook.read_text().replace(f'"v{n - 1}"', f'"v{n}"'))
                assert served.post("/reload", b"")["reloaded"] is True
            before = len(seen)
            # Wait until the hammering threads have been answered by the new hooks.
            while not failures and not any(r.startswith(f"v{n} ") for r in seen[before:]):
                pass
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert failures == []
        assert {reason.split()[0] for reason in seen} == {f"v{n}" for n in range(1, 7)}, [
            reason for reason in seen if not reason.startswith("v")
        ][:3]


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return True
    return False


def test_sigterm_finishes_the_decision_in_flight(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS) as served:
        answer: list[tuple[int, str]] = []
        asking = threading.Thread(
            target=lambda: answer.append(served.request("POST", "/", pre("slow")))
        )
        asking.start()
        while not (tmp_path / "started").exists():  # the hook is deciding
            pass
        served.signal(signal.SIGTERM)
        while not _refused(served.port):  # the server stopped taking new connections
            pass
        (tmp_path / "go").touch()
        asking.join(timeout=60)
        status, text = answer[0]
        assert status == 200
        assert decision(json.loads(text)) == ("deny", f"v1 pid {served.proc.pid}")
        served.proc.wait(timeout=60)


def test_a_stalled_upload_is_answered_and_holds_up_no_shutdown(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS) as served:
        stalled = socket.create_connection(("127.0.0.1", served.port), timeout=60)
        head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999\r\n\r\n"
        stalled.sendall(head + b'{"hook_event_name": "PreToolUse"')
        assert _reason(served).startswith("v1 ")  # others are answered meanwhile
        served.signal(signal.SIGTERM)
        # Within the body deadline: a deny Claude Code reads (the head and the body may come
        # in two reads; the answer closes the connection).
        answer = b"".join(iter(lambda: stalled.recv(65536), b""))
        assert answer.startswith(b"HTTP/1.1 200 "), answer
        assert b'"permissionDecision": "deny"' in answer and b"not received within" in answer
        served.proc.wait(timeout=60)
        stalled.close()


def test_workers_each_load_the_hooks_and_answer(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS, "--workers", "2") as served:
        ready = served.wait_for("ready", count=2)
        pids = {line.split("worker ")[1].split()[0] for line in ready}
        assert len(pids) == 2 and str(served.proc.pid) not in pids
        answered: set[str] = set()
        for _ in range(400):  # new connections: the kernel hands them to either worker
            answered.add(_reason(served).split()[-1])
            if answered == pids:
                break
        assert answered == pids
        # SIGHUP to the supervisor reloads every worker's hooks.
        _set_version(hook, "v9")
        served.signal(signal.SIGHUP)
        served.wait_for("hook modules reloaded", count=2)
        assert _reason(served).startswith("v9 ")


def test_store_url_reaches_the_workers(tmp_path: Path, hook: Path) -> None:
    with serving(tmp_path, *FLAGS, "--workers", "2", "--store", "redis://127.0.0.1:1/0") as served:
        assert _reason(served, "store") == "redis://127.0.0.1:1/0"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls_through_uvicorns_options(tmp_path: Path, hook: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    trusted = ssl.create_default_context(cafile=str(cert))
    tls = ["--ssl-certfile", str(cert), "--ssl-keyfile", str(key)]
    with serving(tmp_path, *FLAGS, *tls, tls=trusted) as served:
        assert served.lines[0].startswith("hookline serve: listening on https://127.0.0.1:")
        assert _reason(served).startswith("v1 ")
        plain = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
        with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
            plain.request("POST", "/", json.dumps(pre("ls")))
            plain.getresponse().read()
        untrusted = ssl.create_default_context()
        conn = http.client.HTTPSConnection("127.0.0.1", served.port, timeout=60, context=untrusted)
        with pytest.raises(ssl.SSLError):
            conn.request("GET", "/healthz")
    assert os.path.exists(cert)
