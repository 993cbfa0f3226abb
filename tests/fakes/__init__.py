"""Fakes shared by test folders: ``from fakes import FakeAnthropicServer, FakeOpenAIServer``.

``tests/`` is on ``sys.path`` (pytest's default rootdir-conftest insertion), so
this package imports as ``fakes`` from any test module.
"""

from .llm_servers import (
    FakeAnthropicServer,
    FakeOpenAIServer,
    FakeReply,
    FakeToolCall,
    RecordedRequest,
)

__all__ = [
    "FakeAnthropicServer",
    "FakeOpenAIServer",
    "FakeReply",
    "FakeToolCall",
    "RecordedRequest",
]
