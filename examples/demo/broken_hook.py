"""A deliberately broken hook: `make demo` shows its load error with this path."""

from hookline import HookAPI


def register(pi: HookAPI) -> None:
    pi.on("tool_cal", lambda event, ctx: None)  # typo: not an event name
