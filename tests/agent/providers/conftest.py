"""Fixtures: the fake API servers, started per test on a random loopback port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes import FakeAnthropicServer, FakeOpenAIServer


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server
