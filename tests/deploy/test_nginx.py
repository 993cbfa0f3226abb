"""deploy/nginx/hookline.conf: TLS in front of the service, run for real with Debian's nginx
(``make install`` installs it) and a throwaway certificate."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.deploy.helpers import (
    DEPLOY,
    TOKEN,
    denied,
    option,
    pre_tool_use,
    serve_argv,
    serving_policy,
)
from tests.deploy.test_systemd import _unit

SITE = DEPLOY / "nginx" / "hookline.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)

MAIN = """
worker_processes 1;
pid {tmp}/nginx.pid;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/hookline.conf;
}}
"""


def _replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_proxies_to_the_address_the_systemd_unit_listens_on() -> None:
    listen = option(serve_argv(_unit()["Service"]["ExecStart"]), "--http")
    assert f"server {listen};" in SITE.read_text()


def _certificate(tmp: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate for the TLS test")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"]
    subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(
        ["openssl", "req", "-x509", *curve, *subject, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _until_accepting(port: int, proc: subprocess.Popen[bytes]) -> None:
    """Return once ``port`` accepts a connection; fail when nginx exits first."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, "nginx exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)  # poll interval, not a synchronisation: we wait for accept()
    raise AssertionError(f"nginx did not accept on {port}")


@contextmanager
def _nginx(tmp: Path, backend: int) -> Iterator[int]:
    """nginx with the site file (its ports and certificate paths swapped in); its TLS port."""
    if NGINX is None:
        pytest.skip("nginx is not installed (make install: apt-get install nginx)")
    cert, key = _certificate(tmp)
    port = _free_port()
    site = SITE.read_text()
    site = _replace_once(
        site, "    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{port} ssl http2;\n"
    )
    site = _replace_once(site, "    listen [::]:443 ssl http2;\n", "")
    site = _replace_once(site, "/etc/ssl/hookline/fullchain.pem", str(cert))
    site = _replace_once(site, "/etc/ssl/hookline/privkey.pem", str(key))
    site = _replace_once(site, "server 127.0.0.1:8377;", f"server 127.0.0.1:{backend};")
    (tmp / "hookline.conf").write_text(site)
    (tmp / "nginx.conf").write_text(MAIN.format(tmp=tmp))
    base = [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", "stderr"]
    checked = subprocess.run([*base, "-t"], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen([*base, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
    try:
        _until_accepting(port, proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _post(port: int, cert: Path, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    context = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)
    conn.request("POST", "/", body, {"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def test_decisions_over_tls_with_the_services_checks_kept(tmp_path: Path) -> None:
    backend_dir, proxy_dir = tmp_path / "serve", tmp_path / "nginx"
    backend_dir.mkdir()
    proxy_dir.mkdir()
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    rm = json.dumps(pre_tool_use("rm -rf /", backend_dir)).encode()
    ls = json.dumps(pre_tool_use("ls", backend_dir)).encode()
    with serving_policy(backend_dir) as backend, _nginx(proxy_dir, backend) as port:
        cert = proxy_dir / "cert.pem"
        status, data = _post(port, cert, rm, bearer)
        assert status == 200 and denied(json.loads(data))
        status, data = _post(port, cert, ls, bearer)
        assert status == 200 and not denied(json.loads(data or b"{}"))
        # The proxy adds no authority: no token, or a browser's Origin, is still refused.
        assert _post(port, cert, ls, {})[0] == 401
        assert _post(port, cert, ls, {**bearer, "Origin": "https://evil.example"})[0] == 403
