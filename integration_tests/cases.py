"""The compatibility cases: one settings file, hook scripts and scripted model turns each.

Each case runs under the real Claude Code and under hookline (see
``test_differential.py``), and these are compared:

- ``effect``: what the tools did to the project (a function of the folder);
- ``results``: per tool call, whether the model got an error, and texts both
  results must contain;
- ``model_sees``: texts the model must be sent (hook context) by both, and how
  many model calls there were;
- ``hook_fields``: the stdin fields each recorded hook read (paths shown
  relative to the project), compared field by field.

``differs`` marks a compared item as a deliberate difference: key → reason.
``pending`` names a feature other work is bringing to hookline: the case is
an expected failure (not strict) until it lands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import Call, Turn, hook_command


@dataclass
class Case:
    id: str
    settings: dict[str, Any]
    turns: list[Turn]
    prompt: str = "go"
    files: dict[str, str] = field(default_factory=dict)
    effect: Callable[[Path], Any] | None = None
    result_contains: list[list[str]] = field(default_factory=list)
    model_sees: list[str] = field(default_factory=list)
    #: hook record name → the stdin fields to compare ("a.b" for nested keys, "@keys" for
    #: the names of the top-level fields).
    hook_fields: dict[str, list[str]] = field(default_factory=dict)
    differs: dict[str, str] = field(default_factory=dict)
    pending: str | None = None


def _hook(name: str, **kw: Any) -> dict[str, Any]:
    return {"type": "command", "command": hook_command(name, **kw)}


def _on(event: str, *hooks: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": list(hooks)}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def _settings(*events: dict[str, Any], **extra: Any) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    for e in events:
        for name, groups in e.items():
            hooks.setdefault(name, []).extend(groups)
    return {"hooks": hooks, **extra}


def _bash(command: str) -> Turn:
    return Turn(calls=[Call("Bash", {"command": command, "description": "step"})])


def _exists(*names: str) -> Callable[[Path], Any]:
    return lambda project: {n: (project / n).exists() for n in names}


def _text_of(name: str) -> Callable[[Path], Any]:
    return lambda project: (project / name).read_text() if (project / name).exists() else None


def _replacing(output: Any) -> dict[str, Any]:
    """A PostToolUse answer replacing the tool's output with ``output``."""
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": output}}


PRE_FIELDS = [
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_use_id",
    "cwd",
    "permission_mode",
    "_env.cwd",
    "_env.CLAUDE_PROJECT_DIR",
]

CASES: list[Case] = [
    Case(
        "pre_tool_use_exit_2_blocks",
        _settings(_on("PreToolUse", _hook("pre", exit=2, stderr="EXIT2-NO"), matcher="Bash")),
        [_bash("touch ran.txt"), Turn("done")],
        effect=_exists("ran.txt"),
        result_contains=[["EXIT2-NO"]],
        hook_fields={"pre": PRE_FIELDS},
    ),
    Case(
        "hook_input_field_names",
        _settings(
            _on("PreToolUse", _hook("pre"), matcher="Bash"),
            _on("PostToolUse", _hook("post"), matcher="Bash"),
            _on("UserPromptSubmit", _hook("prompt")),
            _on("Stop", _hook("stop")),
            _on("SessionStart", _hook("start")),
        ),
        [_bash("echo hi"), Turn("done")],
        hook_fields={n: ["@keys"] for n in ("pre", "post", "prompt", "stop", "start")},
        pending="Claude Code 2.1.330 also sends `prompt_id` and `effort` (tool events, Stop), "
        "`duration_ms` (PostToolUse), `last_assistant_message`, `background_tasks`, "
        "`session_crons` (Stop); it sends no `permission_mode` on SessionStart (issue 10)",
    ),
    Case(
        "pre_tool_use_json_deny",
        _settings(
            _on(
                "PreToolUse",
                _hook(
                    "pre",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "deny",
                            "permissionDecisionReason": "JSON-DENY",
                        }
                    },
                ),
                matcher="Bash",
            )
        ),
        [_bash("touch ran.txt"), Turn("done")],
        effect=_exists("ran.txt"),
        result_contains=[["JSON-DENY"]],
        hook_fields={"pre": PRE_FIELDS},
    ),
    Case(
        "pre_tool_use_updated_input",
        _settings(
            _on(
                "PreToolUse",
                _hook(
                    "pre",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "allow",
                            "updatedInput": {"command": "echo rewritten > out.txt"},
                        }
                    },
                ),
                matcher="Bash",
            ),
            _on("PostToolUse", _hook("post"), matcher="Bash"),
        ),
        [_bash("echo original > out.txt"), Turn("done")],
        effect=_text_of("out.txt"),
        hook_fields={"pre": ["tool_input"], "post": ["tool_input"]},
    ),
    Case(
        "pre_tool_use_allow",
        _settings(
            _on(
                "PreToolUse",
                _hook(
                    "pre",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "allow",
                        }
                    },
                ),
                matcher="Bash",
            )
        ),
        [_bash("echo ran > ran.txt"), Turn("done")],
        effect=_text_of("ran.txt"),
        hook_fields={"pre": PRE_FIELDS},
    ),
    Case(
        "post_tool_use_additional_context",
        _settings(
            _on(
                "PostToolUse",
                _hook(
                    "post",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "PostToolUse",
                            "additionalContext": "CTX-POST",
                        }
                    },
                ),
                matcher="Bash",
            )
        ),
        [_bash("echo out"), Turn("done")],
        model_sees=["CTX-POST"],
        hook_fields={"post": ["hook_event_name", "tool_name", "tool_input", "tool_use_id"]},
    ),
    Case(
        "post_tool_use_tool_response_shape",
        _settings(_on("PostToolUse", _hook("post"), matcher="Bash")),
        [_bash("echo out; echo err >&2"), Turn("done")],
        hook_fields={
            "post": [
                "tool_response.stdout",
                "tool_response.stderr",
                "tool_response.interrupted",
            ]
        },
        pending="`tool_response` in the shape of Claude's tool results: Bash stdout without "
        "the trailing newline, stderr apart (issue 10)",
    ),
    Case(
        "post_tool_use_plain_string_output_is_ignored_for_bash",
        _settings(
            _on(
                "PostToolUse",
                _hook("post", stdout=_replacing("REPLACED-TEXT")),
                matcher="Bash",
            )
        ),
        [_bash("echo ORIGINAL-OUT"), Turn("done")],
        result_contains=[["ORIGINAL-OUT"]],
        model_sees=["ORIGINAL-OUT"],
    ),
    Case(
        "post_tool_use_bash_shaped_output_replaces",
        _settings(
            _on(
                "PostToolUse",
                _hook(
                    "post",
                    stdout=_replacing(
                        {"stdout": "REPLACED-OUT", "stderr": "REPLACED-ERR", "interrupted": False}
                    ),
                ),
                matcher="Bash",
            )
        ),
        [_bash("echo ORIGINAL-OUT"), Turn("done")],
        result_contains=[["REPLACED-OUT", "REPLACED-ERR"]],
    ),
    Case(
        "post_tool_use_decision_block",
        _settings(
            _on(
                "PostToolUse",
                _hook("post", stdout={"decision": "block", "reason": "POST-BLOCK"}),
                matcher="Bash",
            )
        ),
        [_bash("echo ran > ran.txt"), Turn("done")],
        effect=_text_of("ran.txt"),
        model_sees=["POST-BLOCK"],
    ),
    Case(
        "user_prompt_submit_block",
        _settings(_on("UserPromptSubmit", _hook("prompt", exit=2, stderr="PROMPT-NO"))),
        [Turn("never asked")],
        prompt="the secret prompt",
        hook_fields={"prompt": ["hook_event_name", "prompt", "cwd"]},
    ),
    Case(
        "user_prompt_submit_context",
        _settings(
            _on(
                "UserPromptSubmit",
                _hook(
                    "prompt",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "UserPromptSubmit",
                            "additionalContext": "CTX-PROMPT",
                        }
                    },
                ),
            )
        ),
        [Turn("fine")],
        prompt="hello there",
        model_sees=["CTX-PROMPT", "hello there"],
        hook_fields={"prompt": ["hook_event_name", "prompt"]},
    ),
    Case(
        "stop_block_continues",
        _settings(
            _on(
                "Stop",
                _hook(
                    "stop",
                    stdout={"decision": "block", "reason": "STOP-CONTINUE"},
                    when_inactive=True,
                ),
            )
        ),
        [Turn("first answer"), Turn("second answer")],
        model_sees=["STOP-CONTINUE"],
        hook_fields={"stop": ["hook_event_name", "stop_hook_active"]},
    ),
    Case(
        "session_start_additional_context",
        _settings(
            _on(
                "SessionStart",
                _hook(
                    "start",
                    stdout={
                        "hookSpecificOutput": {
                            "hookEventName": "SessionStart",
                            "additionalContext": "CTX-START",
                        }
                    },
                ),
            )
        ),
        [Turn("hi")],
        model_sees=["CTX-START"],
        hook_fields={"start": ["hook_event_name", "source", "cwd"]},
    ),
    Case(
        "env_file_exports_reach_bash_not_later_hooks",
        _settings(
            _on(
                "SessionStart",
                {
                    "type": "command",
                    "command": "echo 'export FROM_ENV_FILE=yes' >> \"$CLAUDE_ENV_FILE\"",
                },
            ),
            _on("UserPromptSubmit", _hook("prompt", env=["FROM_ENV_FILE"])),
            _on("PreToolUse", _hook("pre", env=["FROM_ENV_FILE"]), matcher="Bash"),
            _on("PostToolUse", _hook("post", env=["FROM_ENV_FILE"]), matcher="Bash"),
            _on("Stop", _hook("stop", env=["FROM_ENV_FILE"])),
        ),
        [_bash('echo "v=$FROM_ENV_FILE" > env.txt'), Turn("done")],
        effect=_text_of("env.txt"),
        hook_fields={n: ["_env.FROM_ENV_FILE"] for n in ("prompt", "pre", "post", "stop")},
    ),
    Case(
        "no_notification_under_print",
        _settings(_on("Notification", _hook("note")), _on("Stop", _hook("stop"))),
        [_bash("echo hi"), Turn("done")],
        hook_fields={"note": ["notification_type"], "stop": ["hook_event_name"]},
    ),
    Case(
        "matchers_regex_star_empty_and_not_matching",
        _settings(
            _on("PreToolUse", _hook("regex"), matcher="Ba.*"),
            _on("PreToolUse", _hook("star"), matcher="*"),
            _on("PreToolUse", _hook("empty"), matcher=""),
            _on("PreToolUse", _hook("absent")),
            _on("PreToolUse", _hook("other"), matcher="Write|Edit"),
            _on("PreToolUse", _hook("anchored"), matcher="^Bas$"),
        ),
        [_bash("touch ran.txt"), Turn("done")],
        effect=_exists("ran.txt"),
        hook_fields={
            n: ["tool_name"] for n in ("regex", "star", "empty", "absent", "other", "anchored")
        },
    ),
    Case(
        "matcher_comma_list",
        _settings(_on("PreToolUse", _hook("pre", exit=2, stderr="COMMA"), matcher="Write,Bash")),
        [_bash("touch ran.txt"), Turn("done")],
        effect=_exists("ran.txt"),
        result_contains=[["COMMA"]],
    ),
    Case(
        "if_condition",
        _settings(
            _on(
                "PreToolUse",
                {**_hook("pre", exit=2, stderr="IF-RM"), "if": "Bash(rm *)"},
                matcher="Bash",
            )
        ),
        [
            Turn(calls=[Call("Bash", {"command": "rm keep.txt", "description": "rm"})]),
            _bash("touch ran.txt"),
            Turn("done"),
        ],
        files={"keep.txt": "keep"},
        effect=_exists("keep.txt", "ran.txt"),
        result_contains=[["IF-RM"], []],
        hook_fields={"pre": ["tool_input.command"]},
    ),
    Case(
        "if_condition_names_its_own_tool",
        _settings(
            _on(
                "PreToolUse",
                {**_hook("guard", exit=2, stderr="IF-EDIT"), "if": "Edit(src/**)"},
                _hook("all"),
                matcher="Write|Edit|Bash",
            )
        ),
        [
            Turn(calls=[Call("Write", {"file_path": "src/a.txt", "content": "new\n"})]),
            _bash("echo x > src/c.txt"),
            Turn(calls=[Call("Read", {"file_path": "src/b.txt"})]),
            Turn(
                calls=[
                    Call(
                        "Edit",
                        {"file_path": "src/b.txt", "old_string": "old", "new_string": "changed"},
                    )
                ]
            ),
            Turn("done"),
        ],
        files={"src/b.txt": "old\n"},
        effect=lambda p: [_text_of(f"src/{n}.txt")(p) for n in "abc"],
        result_contains=[[], [], [], ["IF-EDIT"]],
        hook_fields={"guard": ["tool_name"], "all": ["tool_name"]},
    ),
    Case(
        "project_dir_and_relative_command",
        _settings(
            _on(
                "PreToolUse",
                {
                    "type": "command",
                    "command": "python3 .claude/hooks/rel.py",
                },
                matcher="Bash",
            )
        ),
        [_bash("echo hi"), Turn("done")],
        files={
            ".claude/hooks/rel.py": (
                "import json, os, sys\n"
                "data = json.load(sys.stdin)\n"
                "data['_env'] = {'cwd': os.getcwd(),\n"
                "                'CLAUDE_PROJECT_DIR': os.environ.get('CLAUDE_PROJECT_DIR')}\n"
                "with open(os.path.join(os.environ['CLAUDE_PROJECT_DIR'], '.rec', 'rel.jsonl'),\n"
                "          'a') as f:\n"
                "    f.write(json.dumps(data) + '\\n')\n"
            )
        },
        hook_fields={"rel": ["_env.cwd", "_env.CLAUDE_PROJECT_DIR", "cwd"]},
    ),
    Case(
        "relative_file_path_is_absolute_for_hooks",
        _settings(_on("PreToolUse", _hook("pre"), matcher="Read")),
        [Turn(calls=[Call("Read", {"file_path": "data.txt"})]), Turn("done")],
        files={"data.txt": "DATA-LINE\n"},
        hook_fields={"pre": ["tool_input.file_path"]},
    ),
    Case(
        "permission_rule_denies_rm",
        _settings(permissions={"deny": ["Bash(rm *)"]}),
        [
            Turn(calls=[Call("Bash", {"command": "rm keep.txt", "description": "rm"})]),
            _bash("touch ran.txt"),
            Turn("done"),
        ],
        files={"keep.txt": "keep"},
        effect=_exists("keep.txt", "ran.txt"),
    ),
    Case(
        "permission_rule_denies_rm_inside_bash_c",
        _settings(permissions={"deny": ["Bash(rm *)"]}),
        [
            _bash("bash -c 'rm keep.txt'"),
            _bash("touch ran.txt"),
            Turn("done"),
        ],
        files={"keep.txt": "keep"},
        effect=_exists("keep.txt", "ran.txt"),
    ),
    Case(
        "pre_tool_use_continue_false_stops",
        _settings(
            _on(
                "PreToolUse",
                _hook("pre", stdout={"continue": False, "stopReason": "STOP-NOW"}),
                matcher="Bash",
            )
        ),
        [_bash("touch ran.txt"), Turn("never asked")],
        effect=_exists("ran.txt"),
        hook_fields={"pre": ["tool_name"]},
        differs={
            "effect": "stricter on purpose: hookline does not run the call a PreToolUse "
            "`continue: false` answered (Claude Code runs it, then stops)"
        },
    ),
]
