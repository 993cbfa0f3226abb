import hookline


def test_every_event_has_a_class() -> None:
    assert "tool_call" in hookline.EVENT_NAMES
    assert hookline.EVENT_TYPES["session.compacting"] is hookline.SessionCompactingEvent
