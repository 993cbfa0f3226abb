"""The settings-hooks page: one section per Claude Code event hookline fires."""

from __future__ import annotations

import ast
import inspect
import json
from typing import Any

from hookline.claude import outcome, payloads
from hookline.claude.adapter import UNBOUND_EVENTS
from hookline.claude.names import NEVER_FIRES
from hookline.claude.outcome import PLAIN_CONTEXT_EVENTS
from tools.reference.claude_events import (
    behaviour,
    bus_events_of,
    firing,
    input_fields,
    settings_example,
)
from tools.reference.facts import FAMILIES, ROOT
from tools.reference.render import GENERATED, _table, anchor, markdown


def output_keys() -> dict[str, list[str]]:
    """The keys ``outcome.apply_output`` reads, by the object they are read from: the
    hook's JSON (``obj``), its ``hookSpecificOutput`` (``spec``), ``spec.decision``."""
    tree = ast.parse(inspect.getsource(outcome.apply_output))
    found: dict[str, list[str]] = {"obj": [], "spec": [], "decision": []}

    def note(receiver: str, key: str) -> None:
        if receiver in found and key not in found[receiver]:
            found[receiver].append(key)

    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            note(node.func.value.id, str(node.args[0].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if isinstance(node.slice, ast.Constant):
                note(node.value.id, str(node.slice.value))
        elif isinstance(node, ast.For) and isinstance(node.iter, ast.Tuple):
            receivers = {
                n.value.id
                for n in ast.walk(node)
                if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
            }
            for receiver in receivers:
                for item in node.iter.elts:
                    if isinstance(item, ast.Constant):
                        note(receiver, str(item.value))
    found["obj"] = [k for k in found["obj"] if k != "hookSpecificOutput"]
    return found


def _after_summary(doc: str | None) -> str:
    """A module docstring without its one-line summary."""
    return inspect.cleandoc(doc or "").split("\n\n", 1)[-1]


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _fired_at(event: str) -> str:
    links = []
    for bus in bus_events_of(event):
        from hookline.core.events import EVENT_TYPES

        page, _ = FAMILIES[EVENT_TYPES[bus].__module__]
        links.append(f"[`{bus}`]({page}.md#{anchor(bus)})")
    return ", ".join(links) or "called by the agent itself (no module event carries it)"


def section(event: str, sample: dict[str, Any], common: set[str]) -> list[str]:
    out = [f"## `{event}`", "", f"Fires at the moment of: {_fired_at(event)}.", ""]
    out += [f"**What hookline does with the answer**: {markdown(behaviour(event))}", ""]
    if event in PLAIN_CONTEXT_EVENTS:
        out += ["Plain (non-JSON) stdout on exit 0 is added as context.", ""]
    own = [(k, v) for k, v in sample.items() if k not in common]
    rows = [[f"`{k}`", _json_type(v)] for k, v in own]
    out += ["**Input** (besides the common fields)", "", *_table(["Field", "JSON type"], rows)]
    example = settings_example(event)
    text = example.read_text(encoding="utf-8").rstrip("\n")
    out += ["", f"**Example** (`{example.relative_to(ROOT)}`)", "", "```json", text, "```"]
    return out


def _keys_table(keys: dict[str, list[str]]) -> list[str]:
    rows = [[f"`{k}`", "top level"] for k in keys["obj"]]
    rows += [[f"`{k}`", "`hookSpecificOutput`"] for k in keys["spec"]]
    rows += [[f"`{k}`", "`hookSpecificOutput.decision`"] for k in keys["decision"]]
    return _table(["Key", "Read from"], rows)


def settings_page() -> str:
    events = firing()
    samples = {e: input_fields(e) for e in events}
    common = set.intersection(*(set(s) for s in samples.values()))
    out = [GENERATED, "", "# Settings hooks by Claude Code event", ""]
    out += [
        "Hooks in `.claude/settings.json` (see [Claude Code settings hooks]"
        "(../settings-hooks.md)) get the event's input as JSON on stdin and answer with "
        "their exit code and stdout. Each event below says when hookline fires it, the "
        "input it sends (what the engine really sent, recorded while running the "
        "example), what it does with the answer, and an example settings file (each one "
        "is run by the test suite).",
        "",
        "## Exit codes and output",
        "",
        markdown(_after_summary(outcome.__doc__)),
        "",
        "The JSON keys hookline reads (on any event; what each event does with them is "
        "in its section):",
        "",
        *_keys_table(output_keys()),
        "",
        "## Common input fields",
        "",
        markdown(_after_summary(payloads.__doc__)),
        "",
        "Every event's input has: " + ", ".join(f"`{k}`" for k in sorted(common)) + ".",
        "",
    ]
    for event in events:
        out += [*section(event, samples[event], common), ""]
    out += ["## Events that never fire in hookline", ""]
    out += ["Accepted in settings (a file shared with Claude Code loses nothing), never run:", ""]
    rows = [[f"`{e}`", markdown(why)] for e, why in NEVER_FIRES.items()]
    rows += [
        [f"`{e}`", "no moment in hookline's agent: an embedder runs it"] for e in UNBOUND_EVENTS
    ]
    out += _table(["Event", "Why"], rows)
    return "\n".join(out) + "\n"


def example_json(event: str) -> Any:
    return json.loads(settings_example(event).read_text(encoding="utf-8"))
