"""Antigravity image generation: a ``generate_image`` tool that asks Google Antigravity's
image models (gemini-3-pro-image, imagen-3) for a picture and returns it as an image.

The Python version of pi's antigravity-image-gen example. It shows a tool that
calls a model API itself with the credentials the session keeps:
``ctx.model_registry.get_api_key_for_provider("google-antigravity")`` gives the
stored login (a JSON ``{"token", "projectId"}``, kept in
``$HOOKLINE_HOME/auth.json``), the answer's server-sent events are read for the
first inline image, and the image goes back to the model with a summary.

Saving (the tool's ``save`` parameter, else ``PI_IMAGE_SAVE_MODE``, else the
config files ``$HOOKLINE_HOME/extensions/antigravity-image-gen.json`` and
``<project>/.hookline/extensions/antigravity-image-gen.json``, e.g.
``{"save": "project"}``): ``none`` (default), ``project`` (into
``<project>/.hookline/generated-images/``), ``global`` (into
``$HOOKLINE_HOME/generated-images/``) or ``custom`` (``save_dir`` or
``PI_IMAGE_SAVE_DIR``): pi's places, in hookline's folders.

Run it: ``hookline --hook examples/pi/antigravity_image_gen.py``, then ask for "an
image of a sunset over mountains". ``ANTIGRAVITY_ENDPOINT`` points it at another
server (the tests' loopback one).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import string
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from hookline import HookAPI, HookContext, Tool, ToolResult, ToolUpdate

PROVIDER = "google-antigravity"
DEFAULT_MODEL = "gemini-3-pro-image"
DEFAULT_ENDPOINT = "https://daily-cloudcode-pa.sandbox.googleapis.com"
DEFAULT_VERSION = "1.18.3"
SAVE_MODES = ("none", "project", "global", "custom")
CONFIG_NAME = "antigravity-image-gen.json"

IMAGE_SYSTEM_INSTRUCTION = (
    "You are an AI image generator. Generate images based on user descriptions. Focus on "
    "creating high-quality, visually appealing images that match the user's request."
)
AspectRatio = Literal["1:1", "2:3", "3:2", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9"]
SaveMode = Literal["none", "project", "global", "custom"]


def hookline_home() -> Path:
    """hookline's folder, where pi's agent folder would be."""
    return Path(os.environ.get("HOOKLINE_HOME") or Path.home() / ".hookline")


class Params(BaseModel):
    prompt: str = Field(description="Image description.")
    model: str | None = Field(
        None, description="Image model id (e.g., gemini-3-pro-image, imagen-3)."
    )
    aspect_ratio: AspectRatio | None = None
    save: SaveMode | None = None
    save_dir: str | None = Field(
        None, description="Directory to save the image when save=custom (or PI_IMAGE_SAVE_DIR)."
    )


@dataclass(frozen=True, slots=True)
class Image:
    data: str
    mime_type: str


def _headers() -> dict[str, str]:
    version = os.environ.get("PI_AI_ANTIGRAVITY_VERSION") or DEFAULT_VERSION
    metadata = {"ideType": "IDE_UNSPECIFIED", "platform": "PLATFORM_UNSPECIFIED"}
    return {
        "User-Agent": f"antigravity/{version} darwin/arm64",
        "X-Goog-Api-Client": "google-cloud-sdk vscode_cloudshelleditor/0.1",
        "Client-Metadata": json.dumps({**metadata, "pluginType": "GEMINI"}),
    }


def credentials(ctx: HookContext) -> tuple[str, str]:
    """The stored login's access token and project id."""
    raw = ctx.model_registry.get_api_key_for_provider(PROVIDER)
    if not raw:
        raise RuntimeError(f"Missing Google Antigravity OAuth credentials. Log in to {PROVIDER}.")
    try:
        parsed = json.loads(raw)
    except ValueError:
        raise RuntimeError("Invalid Google OAuth credentials. Log in again.") from None
    if not parsed.get("token") or not parsed.get("projectId"):
        raise RuntimeError("Missing token or projectId in Google OAuth credentials. Log in.")
    return str(parsed["token"]), str(parsed["projectId"])


def build_request(prompt: str, model: str, project: str, aspect_ratio: str) -> dict[str, Any]:
    """The Cloud Code Assist request for one image."""
    categories = ("HARASSMENT", "HATE_SPEECH", "SEXUALLY_EXPLICIT", "DANGEROUS_CONTENT")
    safety = [
        {"category": f"HARM_CATEGORY_{c}", "threshold": "BLOCK_ONLY_HIGH"}
        for c in (*categories, "CIVIC_INTEGRITY")
    ]
    suffix = "".join(random.choices(string.ascii_lowercase + string.digits, k=9))
    return {
        "project": project,
        "model": model,
        "request": {
            "contents": [{"role": "user", "parts": [{"text": prompt}]}],
            "systemInstruction": {"parts": [{"text": IMAGE_SYSTEM_INSTRUCTION}]},
            "generationConfig": {"imageConfig": {"aspectRatio": aspect_ratio}, "candidateCount": 1},
            "safetySettings": safety,
        },
        "requestType": "agent",
        "requestId": f"agent-{int(time.time() * 1000)}-{suffix}",
        "userAgent": "antigravity",
    }


def first_image(lines: Iterable[bytes]) -> tuple[Image, list[str]]:
    """The first inline image of the event stream, and the text that came before it."""
    notes: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data:"):
            continue
        try:
            chunk = json.loads(line[5:].strip())
        except ValueError:
            continue
        for candidate in (chunk.get("response") or {}).get("candidates") or []:
            for part in (candidate.get("content") or {}).get("parts") or []:
                if part.get("text"):
                    notes.append(part["text"])
                inline = part.get("inlineData") or {}
                if inline.get("data"):
                    return Image(inline["data"], inline.get("mimeType") or "image/png"), notes
    raise RuntimeError("No image data returned by the model")


def request_image(
    url: str, body: dict[str, Any], headers: dict[str, str]
) -> tuple[Image, list[str]]:
    """POST the request and read its answer's events up to the image (in a thread: the
    answer streams for as long as the model draws)."""
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return first_image(response)
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace")
        raise RuntimeError(f"Image request failed ({exc.code}): {text}") from None


def _config(cwd: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in (
        hookline_home() / "extensions" / CONFIG_NAME,
        Path(cwd, ".hookline", "extensions", CONFIG_NAME),
    ):
        with contextlib.suppress(OSError, ValueError):
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def save_folder(params: Params, cwd: str) -> tuple[str, Path | None]:
    """The save mode and the folder it saves into (None: not saved)."""
    config = _config(cwd)
    mode = params.save or os.environ.get("PI_IMAGE_SAVE_MODE", "").lower() or config.get("save")
    if mode not in SAVE_MODES:
        return "none", None
    if mode == "project":
        return mode, Path(cwd, ".hookline", "generated-images")
    if mode == "global":
        return mode, hookline_home() / "generated-images"
    if mode == "custom":
        folder = params.save_dir or os.environ.get("PI_IMAGE_SAVE_DIR") or config.get("save_dir")
        if not folder or not str(folder).strip():
            raise RuntimeError("save=custom requires save_dir or PI_IMAGE_SAVE_DIR.")
        return mode, Path(folder)
    return "none", None


def save_image(image: Image, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).isoformat().replace(":", "-").replace(".", "-")
    lower = image.mime_type.lower()
    ext = next(
        (e for key, e in (("jp", "jpg"), ("gif", "gif"), ("webp", "webp")) if key in lower), "png"
    )
    path = folder / f"image-{stamp}-{uuid.uuid4().hex[:8]}.{ext}"
    path.write_bytes(base64.b64decode(image.data))
    return path


async def generate_image(
    tool_call_id: str,
    params: dict[str, Any],
    signal: Any,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    args = Params.model_validate(params)
    token, project = credentials(ctx)
    model = args.model or DEFAULT_MODEL
    aspect_ratio = args.aspect_ratio or "1:1"
    details: dict[str, Any] = {"provider": PROVIDER, "model": model, "aspect_ratio": aspect_ratio}
    if on_update is not None:
        text = f"Requesting image from {PROVIDER}/{model}..."
        on_update(ToolResult([{"type": "text", "text": text}], details))
    endpoint = os.environ.get("ANTIGRAVITY_ENDPOINT") or DEFAULT_ENDPOINT
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        **_headers(),
    }
    body = build_request(args.prompt, model, project, aspect_ratio)
    url = f"{endpoint}/v1internal:streamGenerateContent?alt=sse"
    image, notes = await asyncio.to_thread(request_image, url, body, headers)
    mode, folder = save_folder(args, ctx.cwd)
    summary = [f"Generated image via {PROVIDER}/{model}.", f"Aspect ratio: {aspect_ratio}."]
    saved: Path | None = None
    if folder is not None:
        try:
            saved = save_image(image, folder)
            summary.append(f"Saved image to: {saved}")
        except OSError as exc:
            summary.append(f"Failed to save image: {exc}")
    if notes:
        summary.append(f"Model notes: {' '.join(notes)}")
    details.update(saved_path=str(saved) if saved else None, save_mode=mode)
    return ToolResult(
        [
            {"type": "text", "text": " ".join(summary)},
            {"type": "image", "data": image.data, "mime_type": image.mime_type},
        ],
        details,
    )


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            name="generate_image",
            label="Generate image",
            description=(
                "Generate an image via Google Antigravity image models. Returns the image as "
                "a tool result attachment. Optional saving via save=project|global|custom|"
                "none, or PI_IMAGE_SAVE_MODE/PI_IMAGE_SAVE_DIR."
            ),
            parameters=Params,
            execute=generate_image,
        )
    )
