"""pi's antigravity-image-gen example in Python (``examples/pi/antigravity_image_gen.py``):
the tool asks a loopback server standing in for Antigravity, with the stored login, and
returns the image it streamed, saved where the save mode says."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.auth_store import AuthStore
from hookline.authoring import HookHarness
from hookline.core.tool import Tool
from tests.examples.harness import example_path

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake-image").decode()


class ImageServer:
    """Answers ``streamGenerateContent`` with a note, then the image, as server-sent events."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                headers = {k.lower(): v for k, v in self.headers.items()}
                fake.requests.append((self.path, headers, body))
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                image = {"inlineData": {"mimeType": "image/png", "data": PNG}}
                for parts in ([{"text": "A calm sunset."}], [image]):
                    content = {"role": "model", "parts": parts}
                    chunk = {"response": {"candidates": [{"content": content}]}}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        host, port = self.server.server_address[:2]
        self.url = f"http://{host!s}:{port}"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ImageServer]:
    fake = ImageServer()
    monkeypatch.setenv("ANTIGRAVITY_ENDPOINT", fake.url)
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


@pytest.fixture
def logged_in() -> None:
    login = json.dumps({"token": "ya29.token", "projectId": "proj-1"})
    AuthStore().set("google-antigravity", {"type": "api_key", "key": login})


def _tool(harness: HookHarness) -> Tool:
    return next(h.tools["generate_image"] for h in harness.runner.hooks if h.tools)


@pytest.mark.usefixtures("logged_in")
async def test_the_image_comes_back_and_is_saved_in_the_project(
    server: ImageServer, project: Path
) -> None:
    harness = HookHarness(project).load(example_path("antigravity_image_gen"))
    outcome = await harness.run_tool(
        _tool(harness), {"prompt": "a sunset", "aspect_ratio": "16:9", "save": "project"}
    )
    result = outcome.result
    assert not result.is_error, result.content
    text, image = result.content
    assert image == {"type": "image", "data": PNG, "mime_type": "image/png"}
    assert text["type"] == "text" and "Model notes: A calm sunset." in text["text"]
    saved = Path(result.details["saved_path"])
    assert saved.parent == project / ".hookline" / "generated-images"
    assert saved.suffix == ".png" and saved.read_bytes() == base64.b64decode(PNG)
    path, headers, body = server.requests[0]
    assert path == "/v1internal:streamGenerateContent?alt=sse"
    assert headers["authorization"] == "Bearer ya29.token"
    assert body["project"] == "proj-1" and body["model"] == "gemini-3-pro-image"
    assert body["request"]["generationConfig"]["imageConfig"] == {"aspectRatio": "16:9"}


@pytest.mark.usefixtures("logged_in")
async def test_by_default_nothing_is_saved_and_global_saves_in_hookline_home(
    server: ImageServer, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = HookHarness(project).load(example_path("antigravity_image_gen"))
    outcome = await harness.run_tool(_tool(harness), {"prompt": "a cat"})
    assert outcome.result.details["save_mode"] == "none"
    assert outcome.result.details["saved_path"] is None
    monkeypatch.setenv("PI_IMAGE_SAVE_MODE", "global")
    outcome = await harness.run_tool(_tool(harness), {"prompt": "a cat"})
    saved = Path(outcome.result.details["saved_path"])
    home = Path(os.environ["HOOKLINE_HOME"])
    assert saved.parent == home / "generated-images" and saved.is_file()


async def test_without_a_login_the_tool_says_so(server: ImageServer, project: Path) -> None:
    harness = HookHarness(project).load(example_path("antigravity_image_gen"))
    outcome = await harness.run_tool(_tool(harness), {"prompt": "a cat"})
    assert outcome.result.is_error
    assert "Missing Google Antigravity OAuth credentials" in outcome.result.content[0]["text"]
    assert server.requests == []
