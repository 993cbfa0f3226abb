"""Typed handler results, and the coercion of what a handler returned into them.

A handler may return ``None`` (no opinion), a result object, or a plain dict
with the same keys (snake_case, or pi's camelCase). Dicts are validated
strictly: an unknown key or a wrong type is an error naming the key, which the
runner reports with the hook's path and the event.
"""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from pydantic.alias_generators import to_camel

from hookline.core.messages import Attribution, Content, Message
from hookline.core.plain_errors import PlainError


class HookResult(BaseModel):
    """Base of results: strict keys, snake_case or camelCase accepted.

    A handler returns its event's result class, or a dict with the same keys; an
    unknown key or a wrong type is reported with the hook and the event.

    Example:

        from hookline import ToolCallResult

        @pi.on("tool_call")
        def guard(event, ctx):
            if event.tool_name == "write" and not event.input["path"].startswith("src/"):
                return ToolCallResult(block=True, reason="writes stay in src/")
                # the same: {"block": True, "reason": "writes stay in src/"}
    """

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        arbitrary_types_allowed=True,
        # Validators are built on first use: most runs never see most result types.
        defer_build=True,
    )

    #: The hook whose result this is; set by the runner's combination rule, never by a
    #: handler (not a field: a dict cannot carry it, a handler's own value is replaced).
    _hook_path: str | None = PrivateAttr(default=None)

    @property
    def hook_path(self) -> str | None:
        """The path of the hook that decided (a blocking ``tool_call``, a ``permission_request``
        decision), so whoever shows the decision can say which hook made it.

        Example:

            if result.block:
                print(f"blocked by {result.hook_path}: {result.reason}")
        """
        return self._hook_path

    def decided_by(self, hook_path: str) -> Self:
        """A copy of this result, attributed to the hook at ``hook_path`` (the runner's
        combination rules call it; a handler has no need to).

        Example:

            decided = ToolCallResult(block=True).decided_by("/p/.hookline/hooks/guard.py")
        """
        copy = self.model_copy()
        copy._hook_path = hook_path
        return copy


class ToolCallResult(HookResult):
    """``tool_call``: block with a reason, or rewrite the input (hookline extension).

    ``permission`` (hookline extension, Claude's PreToolUse decision):
    ``"allow"`` skips the permission prompt, ``"ask"`` forces it; deny rules
    and plan mode still apply either way, and ``"ask"`` beats ``"allow"``.

    Combination: the first ``block`` stops the chain; ``input`` rewrites chain;
    ``ask`` from any handler beats ``allow``.
    """

    block: bool = False
    reason: str | None = None
    input: dict[str, Any] | None = None
    permission: Literal["allow", "ask"] | None = None

    #: Set when the block is a handler's failure (reported as a hook error already),
    #: not its decision; set by the combination rule, never by a handler.
    _failed: bool = PrivateAttr(default=False)

    @property
    def hook_failed(self) -> bool:
        """Whether the block is the deciding hook's failure rather than its decision, so
        whoever shows the denial can point at the error instead of repeating it.

        Example:

            if result.block and result.hook_failed:
                print(f"blocked: hook {result.hook_path} failed (its error was reported)")
        """
        return self._failed

    def failure_of(self, hook_path: str) -> Self:
        """A copy of this result, the failure of the hook at ``hook_path`` (the runner's
        ``tool_call`` rule calls it; a handler has no need to).

        Example:

            failed = ToolCallResult(block=True, reason="...").failure_of("/p/guard.py")
        """
        copy = self.decided_by(hook_path)
        copy._failed = True
        return copy


class ToolResultResult(HookResult):
    """``tool_result``: replace what the model sees; ``is_error`` is applied (extension).

    ``append`` (hookline extension) adds blocks after the final content and
    accumulates across handlers, so feedback never replaces another hook's
    override (a redaction stays redacted); on a failed tool it is attached to
    the re-raised error as notes.

    Combination: chained like middleware (each handler sees the previous one's patch);
    ``append`` blocks accumulate.
    """

    content: list[Content] | None = None
    details: Any = None
    is_error: bool | None = None
    append: list[Content] | None = None


class ContextResult(HookResult):
    """``context``: ``messages`` replaces the list sent to the model (``None``: unchanged).

    Combination: chained; the next handler gets this list.
    """

    messages: list[Message] | None = None


class InjectedMessage(HookResult):
    """A message ``before_agent_start`` adds to the conversation."""

    custom_type: str
    content: str | list[Content]
    display: bool = True
    details: Any = None
    #: Who asked for it (``user`` or ``agent``): kept on the message and its session entry.
    attribution: Attribution | None = None


class BeforeAgentStartResult(HookResult):
    """``before_agent_start``: a ``message`` to add before the prompt and a ``system_prompt``
    for this run.

    Combination: every handler's message is kept, in order; ``system_prompt`` is chained
    (each handler sees the previous one's).
    """

    message: InjectedMessage | None = None
    system_prompt: str | None = None
    #: The combined result: every handler's message, in order.
    messages: list[InjectedMessage] | None = None


class InputResult(HookResult):
    """``input``: replace the text, or mark it handled (the model never sees it).

    pi's form is accepted too: ``{"action": "continue"}``, ``{"action":
    "transform", "text": ...}``, ``{"action": "handled"}``.

    Combination: chained transforms; ``handled`` stops the chain.
    """

    text: str | None = None
    images: list[Content] | None = None
    handled: bool = False
    action: Literal["continue", "transform", "handled"] | None = None


class BashOutput(HookResult):
    """A ``user_bash`` (or ``user_python``) handler's own result for the command: it ran
    it (or chose not to)."""

    output: str = ""
    exit_code: int | None = 0
    cancelled: bool = False
    truncated: bool = False


class UserBashResult(HookResult):
    """``user_bash``: run ``command`` in ``cwd`` with ``env`` added instead, or give the
    ``result`` in full (nothing runs then), or run it through ``operations`` (a
    ``hookline.tools.BashOperations``, e.g. on another host, as pi's ``{operations}``).

    Fields left ``None`` keep the previous value. Combination: chained.
    """

    command: str | None = None
    cwd: str | None = None
    env: dict[str, str] | None = None
    result: BashOutput | None = None
    operations: Any = None


class UserPythonResult(HookResult):
    """``user_python``: run ``code`` in ``cwd`` with ``env`` added instead, or give the
    ``result`` in full (nothing runs then).

    Fields left ``None`` keep the previous value. Combination: chained.
    """

    code: str | None = None
    cwd: str | None = None
    env: dict[str, str] | None = None
    #: The handler ran the code itself: its output, in ``user_bash``'s shape.
    result: BashOutput | None = None


class ResourcesDiscoverResult(HookResult):
    """``resources_discover``: files or folders of skills, prompt templates and themes to
    load besides the ones found on disk.

    Combination: all kept, every handler's, in load order.
    """

    skill_paths: list[str] = Field(default_factory=list)
    prompt_paths: list[str] = Field(default_factory=list)
    theme_paths: list[str] = Field(default_factory=list)


class MessageEndResult(HookResult):
    """``message_end``: the assistant message's final text."""

    text: str | None = None


class BeforeProviderRequestResult(HookResult):
    """``before_provider_request``: the payload to send instead."""

    payload: dict[str, Any] | None = None


class SessionBeforeSwitchResult(HookResult):
    """``session_before_switch``: ``cancel`` keeps the current session.

    Combination: the latest result is kept; ``cancel`` stops the chain.
    """

    cancel: bool = False


class SessionBeforeForkResult(HookResult):
    """``session_before_fork``: ``cancel`` stops the fork.

    Combination: the latest result is kept; ``cancel`` stops the chain.
    """

    cancel: bool = False


class SessionBeforeBranchResult(HookResult):
    """``session_before_branch``: ``cancel`` stops the branch;
    ``skip_conversation_restore`` branches the session without restoring the conversation.

    Combination: the latest result is kept; ``cancel`` stops the chain.
    """

    cancel: bool = False
    skip_conversation_restore: bool = False


class CompactionResult(HookResult):
    """A hook's own compaction: ``summary`` replaces the one hookline would write.

    ``first_kept_entry_id`` chooses where the kept messages start; ``tokens_before``
    and ``details`` are recorded with it.
    """

    summary: str
    first_kept_entry_id: str | None = None
    tokens_before: int | None = None
    details: Any = None


class SessionBeforeCompactResult(HookResult):
    """``session_before_compact``: ``cancel`` stops the compaction; ``compaction``
    supplies the summary.

    Combination: the latest result is kept; ``cancel`` stops the chain.
    """

    cancel: bool = False
    compaction: CompactionResult | None = None


class TreeSummary(HookResult):
    """The summary of the branch left behind when the leaf moves (``summary``, ``details``)."""

    summary: str
    details: Any = None


class SessionBeforeTreeResult(HookResult):
    """``session_before_tree``: ``cancel`` stops the move; ``summary`` records the branch left.

    Combination: the latest result is kept; ``cancel`` stops the chain.
    """

    cancel: bool = False
    summary: TreeSummary | None = None


class SessionCompactingResult(HookResult):
    """``session.compacting``: ``context`` lines the summary must keep, ``prompt`` to
    summarise with, ``preserve_data`` stored with the compaction.

    Combination: the latest result wins.
    """

    context: list[str] | None = None
    prompt: str | None = None
    preserve_data: dict[str, Any] | None = None


class StopResult(HookResult):
    """``stop``: ``block`` keeps the agent going, with ``reason`` as the next prompt.

    Also ``subagent_stop``'s result. Combination: the first ``block`` wins.
    """

    block: bool = False
    reason: str | None = None


class PermissionRequestResult(HookResult):
    """``permission_request``: ``decision`` (``allow``, ``deny`` or ``ask`` the user),
    ``reason`` shown with a denial, ``input`` a rewrite (checked against the rules again).

    Combination: the first handler with a ``decision`` wins.
    """

    decision: Literal["allow", "deny", "ask"] | None = None
    reason: str | None = None
    input: dict[str, Any] | None = None


#: The result class of each event that takes a result; other events' returns are ignored.
RESULT_TYPES: dict[str, type[HookResult]] = {
    "tool_call": ToolCallResult,
    "tool_result": ToolResultResult,
    "context": ContextResult,
    "before_agent_start": BeforeAgentStartResult,
    "input": InputResult,
    "user_bash": UserBashResult,
    "user_python": UserPythonResult,
    "resources_discover": ResourcesDiscoverResult,
    "message_end": MessageEndResult,
    "before_provider_request": BeforeProviderRequestResult,
    "session_before_switch": SessionBeforeSwitchResult,
    "session_before_fork": SessionBeforeForkResult,
    "session_before_branch": SessionBeforeBranchResult,
    "session_before_compact": SessionBeforeCompactResult,
    "session_before_tree": SessionBeforeTreeResult,
    "session.compacting": SessionCompactingResult,
    "stop": StopResult,
    "subagent_stop": StopResult,
    "permission_request": PermissionRequestResult,
}


class InvalidResultError(PlainError):
    """A handler returned something its event does not accept."""


def _describe(event_type: str, cls: type[HookResult], exc: ValidationError) -> str:
    """Each problem in plain words: an unknown key with its did-you-mean and the keys
    accepted (or Claude Code's name for it), a bad value with what was expected."""
    from hookline.core.plain_errors import plain_errors, without_union_branches

    keys = list(cls.model_fields)
    unknown, other = [], []
    for err in without_union_branches(exc.errors()):
        if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
            unknown.append(_unknown_result_key(event_type, str(err["loc"][0]), keys))
        else:
            other.append(err)
    if other:
        unknown.append(f"invalid {event_type} result: " + "; ".join(plain_errors(other)))
    return "; ".join(unknown)


def _unknown_result_key(event_type: str, key: str, keys: list[str]) -> str:
    """``unknown result key 'blok' for tool_call — did you mean 'block'? (accepted keys:
    ...)``; Claude Code's name for a key is answered with hookline's."""
    from hookline.core.vocabulary import claude_result_hint

    hint = claude_result_hint(key)
    if not hint:
        from hookline._typos import closest

        guess = closest(key, keys)
        hint = f" — did you mean {guess!r}?" if guess else ""
    return f"unknown result key {key!r} for {event_type}{hint} (accepted keys: {', '.join(keys)})"


def coerce_result(event_type: str, value: Any) -> HookResult | None:
    """Turn a handler's return value into its event's result type.

    Strings are accepted where pi allows them: ``input`` (the new text)
    and ``session_before_compact`` (a custom summary).
    """
    if value is None:
        return None
    cls = RESULT_TYPES.get(event_type)
    if cls is None:
        return None
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        if event_type == "input":
            return InputResult(text=value)
        if event_type == "session_before_compact":
            return SessionBeforeCompactResult(compaction=CompactionResult(summary=value))
    if event_type == "before_provider_request" and isinstance(value, dict):
        return BeforeProviderRequestResult.model_construct(payload=value)  # pi: the payload
    if event_type == "message_end" and isinstance(value, str):
        return MessageEndResult(text=value)
    if event_type == "context" and isinstance(value, dict) and value.keys() <= {"messages"}:
        return _context_result(value.get("messages"))
    if isinstance(value, dict):
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            raise InvalidResultError(_describe(event_type, cls, exc)) from None
    raise InvalidResultError(
        f"invalid {event_type} result: got {type(value).__name__}, "
        f"expected None, a dict or {cls.__name__}"
    )


_ROLE_KEYS: dict[str, tuple[str, ...]] = {
    "user": ("content",),
    "assistant": ("content",),
    "tool": ("content", "tool_call_id"),
    "custom": ("content", "custom_type"),
}


def _context_result(messages: Any) -> ContextResult:
    """A ``context`` result built without a pydantic pass (see ``check_new_messages``)."""
    if messages is None:
        return ContextResult()
    if not isinstance(messages, list):
        raise InvalidResultError(
            f"invalid context result: messages: expected a list, got {type(messages).__name__}"
        )
    return ContextResult.model_construct(messages=messages)


def check_new_messages(messages: list[Any], known: set[int]) -> None:
    """Check by shape the messages of a ``context`` result that the chain has not seen yet.

    A 10 000-message list returned by each of several handlers would cost a
    full validation (and a copy) per handler; messages passed through
    unchanged (the same objects, ids in ``known``) are not looked at again,
    and new ones only for what the model needs: a dict with a known ``role``
    and its required keys. Unknown keys (``cache_control``) are kept. Raises
    ``InvalidResultError`` naming the index; adds the checked ids to ``known``
    (the caller keeps the lists alive, so ids are not reused meanwhile).
    """
    new = set(map(id, messages)) - known
    if not new:
        return
    for i, message in enumerate(messages):
        if id(message) in new:
            problem = _message_problem(message)
            if problem is not None:
                raise InvalidResultError(f"invalid context result: messages[{i}]: {problem}")
    known |= new


def _message_problem(message: Any) -> str | None:
    if not isinstance(message, dict):
        return f"expected a message dict, got {type(message).__name__}"
    role = message.get("role")
    required = _ROLE_KEYS.get(role) if isinstance(role, str) else None
    if required is None:
        return f"role must be one of {', '.join(_ROLE_KEYS)}, got {role!r}"
    for key in required:
        if key not in message:
            return f"a {role} message needs {key!r}"
    content = message["content"]
    if isinstance(content, str):
        return None if role == "custom" else f"a {role} message's content must be a list"
    if not isinstance(content, list) or not all(
        isinstance(block, dict) and isinstance(block.get("type"), str) for block in content
    ):
        return "content must be a list of blocks, each a dict with a 'type'"
    return None
