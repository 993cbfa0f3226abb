"""With ``prefetch`` (the terminal app), the provider's HTTP library (``openai``'s SDK, the
Anthropic provider's ``httpx2``) is imported in a thread from when the provider is built and
waited for at the first request; without, it is imported at the build. Each case runs in a
fresh interpreter, where it is not imported yet."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fakes import FakeAnthropicServer, FakeOpenAIServer

#: Builds the provider ``argv[1]`` names against ``argv[2]`` (``argv[3]`` times, prefetching
#: if ``argv[4]`` is 1), notes what is
#: loaded right after, then (built once) imports the SDK in the main thread too (what start-up
#: may do meanwhile) and makes the first request at once.
_RUN = """
import asyncio, json, sys, threading
from hookline.agent.provider import ModelRequest
from hookline.core.messages import user_message

kind, base_url, builds, prefetch = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
module = {"anthropic": "httpx2", "openai": "openai"}[kind]  # what the provider imports
assert module not in sys.modules
if kind == "anthropic":
    from hookline.agent.providers.anthropic_provider import AnthropicProvider as Provider
else:
    from hookline.agent.providers.openai_provider import OpenAIProvider as Provider
for n in range(builds):  # the last one is asked; the others' imports may still be running
    provider = Provider("model-test", api_key="k", base_url=base_url, prefetch=prefetch)
    while n < builds - 1 and module not in sys.modules:  # its body has begun running
        pass
seen = {
    "threads": [t.name for t in threading.enumerate()],
    "loaded": module in sys.modules,
}
if builds == 1:
    __import__(module)
reply = asyncio.run(provider.complete(ModelRequest("s", [user_message("q")])))
seen["reply"] = [b["text"] for b in reply["content"] if b["type"] == "text"]
seen["anthropic SDK"] = "anthropic" in sys.modules
print(json.dumps(seen))
"""


def _run(
    kind: str, base_url: str, builds: int = 1, prefetch: bool = True, **env: str
) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, kind, base_url, str(builds), str(int(prefetch))],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,  # a deadlock between the two importing threads ends here
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_building_the_provider_starts_the_sdk_import_in_a_thread(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    seen = _run("anthropic", anthropic_server.base_url)
    assert "import httpx2" in seen["threads"]  # the Messages API is spoken over httpx2
    assert seen["reply"] == ["ok"]
    assert seen["anthropic SDK"] is False
    assert len(anthropic_server.recorded) == 1


def test_the_openai_sdk_is_prefetched_too(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_text("ok")
    seen = _run("openai", openai_server.base_url)
    assert "import openai" in seen["threads"]
    assert seen["reply"] == ["ok"]


@pytest.mark.parametrize("attempt", range(3))
def test_a_first_request_racing_the_import_neither_deadlocks_nor_fails(
    anthropic_server: FakeAnthropicServer, attempt: int
) -> None:
    """The main thread imports httpx2 and requests while the thread is still importing."""
    anthropic_server.add_text(f"ok {attempt}")
    assert _run("anthropic", anthropic_server.base_url)["reply"] == [f"ok {attempt}"]


def test_a_provider_built_while_another_imports_waits_for_the_whole_sdk(
    anthropic_server: FakeAnthropicServer,
) -> None:
    """httpx2 is in ``sys.modules`` half imported: the second provider must not take it."""
    anthropic_server.add_text("ok")
    assert _run("anthropic", anthropic_server.base_url, builds=2)["reply"] == ["ok"]


def test_the_switch_imports_where_the_provider_is_built(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    seen = _run("anthropic", anthropic_server.base_url, HOOKLINE_SDK_PREFETCH="0")
    assert seen["loaded"] is True
    assert "import httpx2" not in seen["threads"]
    assert seen["reply"] == ["ok"]


def test_without_prefetch_the_sdk_is_imported_where_the_provider_is_built(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    seen = _run("anthropic", anthropic_server.base_url, prefetch=False)
    assert seen["loaded"] is True
    assert "import httpx2" not in seen["threads"]
    assert seen["reply"] == ["ok"]
