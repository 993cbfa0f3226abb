"""Hook flags on the command line: ``--name`` words parsed once hooks are loaded.

The CLI parses its own options first and leaves the rest; after loading,
each leftover word must be a flag some hook registered (``register_flag``),
else start-up stops with a message naming the hook flags there are.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from hookline.core.api import RegisteredFlag

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def parse_hook_flags(
    words: list[str], flags: Mapping[str, RegisteredFlag], known: Collection[str] = ()
) -> dict[str, bool | str]:
    """The values given for ``flags``; raises ``ValueError`` on an unknown or bad word.

    ``--name`` sets a boolean flag, ``--name=false`` clears it; a string flag
    takes ``--name VALUE`` or ``--name=VALUE``. ``known``: the caller's own options
    (``--model``…), offered with the hook flags when a name is mistyped.
    """
    values: dict[str, bool | str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("--") or len(word) < 3:
            hint = "" if word.startswith("-") else ": a prompt goes before hook flags, or after --"
            raise ValueError(f"unexpected argument {word!r}{hint}{_known(flags)}")
        name, eq, given = word[2:].partition("=")
        flag = flags.get(name)
        if flag is None:
            from hookline._typos import did_you_mean

            guess = did_you_mean(f"--{name}", [*known, *(f"--{n}" for n in flags)])
            raise ValueError(
                f"unknown option --{name}: no loaded hook registers it{guess}{_known(flags)}"
            )
        if flag.type == "boolean":
            if not eq:
                values[name] = True
            elif given.lower() in _TRUE or given.lower() in _FALSE:
                values[name] = given.lower() in _TRUE
            else:
                raise ValueError(f"--{name} is a boolean flag ({flag.hook_path}): got {given!r}")
            continue
        if not eq:
            if i >= len(words):
                raise ValueError(f"--{name} needs a value ({flag.hook_path})")
            given = words[i]
            i += 1
        values[name] = given
    return values


def _known(flags: Mapping[str, RegisteredFlag]) -> str:
    if not flags:
        return " (no hook registers flags)"
    listed = ", ".join(f"--{name} ({flag.hook_path})" for name, flag in sorted(flags.items()))
    return f" (hook flags: {listed})"


def describe_hook_flags(flags: Mapping[str, RegisteredFlag]) -> list[str]:
    """``--help`` lines for hook flags: the flag, its description and its hook."""
    lines = []
    for name, flag in sorted(flags.items()):
        value = "" if flag.type == "boolean" else " VALUE"
        default = "" if flag.default in (None, False) else f" (default: {flag.default})"
        lines.append(f"  --{name}{value}  {flag.description}{default} [hook {flag.hook_path}]")
    return lines
