"""Running one ``http`` hook: POST the input JSON, read the response body like stdout.

The URL must match the settings ``allowedHttpHookUrls`` patterns when they are
set (``*`` matches any text; an empty list allows none). It is checked in its
normalised form, and a URL carrying credentials (``user@host``) is refused,
so ``http://localhost:*`` cannot be walked around with
``http://localhost:80@elsewhere/``. Redirects are not followed, and the
proxy variables are not used (the request goes where the URL says).

Header values may use ``$VAR`` / ``${VAR}`` for variables listed in the hook's
``allowedEnvVars`` (cut to the settings ``httpHookAllowedEnvVars`` when set);
any other reference becomes the empty string.

A 2xx response's body is read as a command hook's stdout on exit 0 (a JSON
object → decision fields). A non-2xx status, a failed connection or a timeout
is a non-blocking error (``onFailure: "block"`` turns it into a block, as for
command hooks). The body is read up to ``max_output`` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hookline.claude.config import HookDefinition
from hookline.claude.outcome import Outcome, new_outcome, read_stdout
from hookline.settings.models import HttpHookConfig

if TYPE_CHECKING:
    import httpx2 as httpx

_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


@dataclass(frozen=True, slots=True)
class HttpHookPolicy:
    """The settings limits on http hooks (``None``: no limit)."""

    allowed_urls: tuple[str, ...] | None = None
    allowed_env_vars: frozenset[str] | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> HttpHookPolicy:
        """From merged settings (``allowedHttpHookUrls``, ``httpHookAllowedEnvVars``)."""
        urls = getattr(settings, "allowed_http_hook_urls", None)
        names = getattr(settings, "http_hook_allowed_env_vars", None)
        return cls(
            None if urls is None else tuple(urls),
            None if names is None else frozenset(names),
        )

    def env_vars(self, spec: HttpHookConfig) -> frozenset[str]:
        """The variables this hook's headers may read."""
        wanted = frozenset(spec.allowed_env_vars)
        return wanted if self.allowed_env_vars is None else wanted & self.allowed_env_vars


def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in text.split("*")), re.DOTALL)


def check_url(url: str, allowed: Sequence[str] | None) -> tuple[httpx.URL | None, str | None]:
    """The URL to post to, or ``None`` and why it may not be used."""
    import httpx2 as httpx  # here, not at import: only an http hook's run needs it

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        return None, f"invalid url {url!r}: {exc}"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return None, f"invalid url {url!r}: must be http(s)://host/..."
    if parsed.userinfo:
        return None, f"url {url!r} carries credentials (user@host); refused"
    if allowed is not None:
        text = str(parsed)
        if not any(_pattern(p).fullmatch(text) for p in allowed):
            return None, f"url {text!r} is not in allowedHttpHookUrls"
    return parsed, None


def interpolate(value: str, allowed: frozenset[str], env: Mapping[str, str]) -> str:
    """``$VAR``/``${VAR}`` → the variable when allowed, else ``""``."""
    return _VAR.sub(
        lambda m: env.get(name, "") if (name := m.group(1) or m.group(2)) in allowed else "",
        value,
    )


async def _post(
    url: httpx.URL, headers: dict[str, str], body: bytes, timeout: float, max_output: int
) -> tuple[int, bytes, int]:
    """Status, the body (at most ``max_output`` bytes) and its full size."""
    import httpx2 as httpx

    async with (
        httpx.AsyncClient(trust_env=False, follow_redirects=False, timeout=timeout) as client,
        client.stream("POST", url, headers=headers, content=body) as response,
    ):
        kept = bytearray()
        total = 0
        async for chunk in response.aiter_bytes():
            total += len(chunk)
            room = max_output - len(kept)
            if room > 0:
                kept += chunk[:room]
        return response.status_code, bytes(kept), total


async def run_http_hook(
    hook: HookDefinition,
    payload: dict[str, Any],
    *,
    timeout: float,
    env: Mapping[str, str],
    policy: HttpHookPolicy | None = None,
    signal: asyncio.Event | None = None,
    max_output: int = 1024 * 1024,
) -> Outcome:
    """POST ``payload`` to the hook's URL; always returns an Outcome."""
    spec = hook.spec
    assert isinstance(spec, HttpHookConfig)
    policy = policy or HttpHookPolicy()
    started = time.monotonic()

    def failed(why: str) -> Outcome:
        out = new_outcome(hook, "non_blocking_error", why)
        out.duration = time.monotonic() - started
        return out

    url, problem = check_url(spec.url, policy.allowed_urls)
    if url is None:
        return failed(problem or "url refused")
    names = policy.env_vars(spec)
    headers = {k: interpolate(v, names, env) for k, v in spec.headers.items()}
    headers["Content-Type"] = "application/json"
    post = asyncio.ensure_future(
        _post(url, headers, json.dumps(payload).encode(), timeout, max_output)
    )
    outside = asyncio.ensure_future(signal.wait()) if signal is not None else None
    try:
        waiters: set[asyncio.Future[Any]] = {post} if outside is None else {post, outside}
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when="FIRST_COMPLETED")
    except asyncio.CancelledError:
        post.cancel()
        raise
    finally:
        if outside is not None:
            outside.cancel()
    if post not in done:
        post.cancel()
        with contextlib.suppress(BaseException):
            await post
        aborted = outside is not None and outside in done
        out = new_outcome(hook, "cancelled", "hook aborted") if aborted else None
        return out or failed(f"http hook timed out after {timeout:g}s")
    import httpx2 as httpx  # loaded by check_url above

    try:
        status, body, total = post.result()
    except httpx.TimeoutException:
        return failed(f"http hook timed out after {timeout:g}s")
    except (httpx.HTTPError, OSError, ValueError) as exc:
        return failed(f"http hook request to {url} failed: {type(exc).__name__}: {exc}")
    text = body.decode("utf-8", errors="replace")
    if not 200 <= status < 300:
        snippet = text.strip()[:200]
        return failed(
            f"http hook got status {status} from {url}" + (f": {snippet}" if snippet else "")
        )
    out = new_outcome(hook, "success", None)
    out.duration = time.monotonic() - started
    out.exit_code = 0
    out.stdout, out.stdout_bytes = text, total
    if total > len(body):
        out.stdout_truncated = True
        out.notes.append(f"response body cut: {total - len(body)} of {total} bytes dropped")
    return read_stdout(out, text)
