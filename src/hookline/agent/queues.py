"""Messages that arrive while the agent is busy, and where each one lands.

A prompt or a hook message sent while a run streams waits here until the end
of the turn, so it never lands between a tool call and its result. A hook's
``deliver_as`` picks the queue: ``steer`` (after the current tool call),
``follow_up`` (when the agent would stop), ``next_turn`` (with the next user
prompt). How many steering messages and follow-ups land at once is pi's
``set_steering_mode`` / ``set_follow_up_mode``.
"""

from __future__ import annotations

from typing import Literal

from hookline.core.messages import Message

#: How queued steering / follow-up messages are delivered: all at the next point, or one
#: per point.
QueueMode = Literal["all", "one-at-a-time"]
QUEUE_MODES: tuple[QueueMode, ...] = ("all", "one-at-a-time")


class MessageQueues:
    """The agent's waiting messages: held, steering, follow-up and next-turn."""

    def __init__(self) -> None:
        #: Messages that arrived while streaming, with whether each asks for a turn.
        self._held: list[tuple[Message, bool]] = []
        self._steer: list[Message] = []
        self._follow_up: list[Message] = []
        self._next_turn: list[Message] = []
        #: How many steering messages land at a turn's end.
        self.steering_mode: QueueMode = "all"
        #: How many follow-ups land when the agent would stop.
        self.follow_up_mode: QueueMode = "all"

    # -- in ------------------------------------------------------------------

    def hold(self, message: Message, trigger_turn: bool) -> None:
        """Keep a message sent while streaming for the turn's end; ``trigger_turn``: it
        steers (asks for another turn), else it is only appended."""
        self._held.append((message, trigger_turn))

    def steer(self, message: Message) -> None:
        self._steer.append(message)

    def follow_up(self, message: Message) -> None:
        self._follow_up.append(message)

    def next_turn(self, message: Message) -> None:
        self._next_turn.append(message)

    def set_modes(self, steering: str | None = None, follow_up: str | None = None) -> None:
        """``all`` or ``one-at-a-time`` for steering and/or follow-up delivery; an unknown
        mode raises ``ValueError`` and changes neither."""
        steering_mode = _mode(steering, self.steering_mode)
        follow_up_mode = _mode(follow_up, self.follow_up_mode)
        self.steering_mode, self.follow_up_mode = steering_mode, follow_up_mode

    # -- out -----------------------------------------------------------------

    @property
    def steered(self) -> bool:
        """A ``steer`` message waits: the turn's remaining tool calls are skipped."""
        return bool(self._steer)

    @property
    def has_follow_ups(self) -> bool:
        return bool(self._follow_up)

    def pending_count(self) -> int:
        """Messages waiting for delivery (steering, follow-ups, hook messages); those for
        the next turn wait for a prompt and are not counted."""
        return len(self._held) + len(self._steer) + len(self._follow_up)

    def take_next_turn(self) -> list[Message]:
        """The messages that go with the next user prompt, ahead of it."""
        taken, self._next_turn = self._next_turn, []
        return taken

    def take_steering(self) -> tuple[list[Message], bool]:
        """What lands at a turn's end, and whether it asks for another turn.

        Hook messages that ask for no turn all land; of the steering messages
        (``steer``, a prompt sent while streaming) all or one (``steering_mode``).
        """
        notes = [m for m, trigger in self._held if not trigger]
        steering = [m for m, trigger in self._held if trigger] + self._steer
        if self.steering_mode == "one-at-a-time" and steering:
            first = steering[0]
            self._held = [(m, True) for m, trigger in self._held if trigger and m is not first]
            self._steer = [m for m in self._steer if m is not first]
            return [*notes, first], True
        self._held, self._steer = [], []
        return [*notes, *steering], bool(steering)

    def take_follow_up(self) -> list[Message]:
        """The follow-ups that land when the agent would stop: all, or the first."""
        if self.follow_up_mode == "one-at-a-time":
            taken, self._follow_up = self._follow_up[:1], self._follow_up[1:]
        else:
            taken, self._follow_up = self._follow_up, []
        return taken


def _mode(value: str | None, current: QueueMode) -> QueueMode:
    if value is None:
        return current
    if value not in QUEUE_MODES:
        raise ValueError(f"queue mode {value!r}: use one of {', '.join(QUEUE_MODES)}")
    return value
