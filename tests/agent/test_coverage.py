"""Every event name in ``EVENT_NAMES`` has an agent test that checks its payload.

Payload tests are marked ``@covers("event", ...)``; this test reads the marks
from the test modules, so a new event without an end-to-end test fails here.
"""

from __future__ import annotations

from pathlib import Path

from hookline import EVENT_NAMES

from .helpers import covered_names


def test_every_event_name_has_a_payload_test_through_the_agent() -> None:
    covered = covered_names(Path(__file__).parent)
    assert sorted(EVENT_NAMES - covered) == []
    assert sorted(covered - EVENT_NAMES) == []
