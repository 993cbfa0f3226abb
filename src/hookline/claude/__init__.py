"""Claude Code compatibility: ``.claude/settings.json`` hooks on hookline's event bus.

``ClaudeHooks`` is the entry point (see ``adapter.py``); the other modules are
its parts: names (Claude's tool vocabulary), config (sources → definitions),
matchers and selection, payloads (stdin JSON), command (one process), outcome
(exit code and output → ``Outcome``), verdict, async_hooks, model_hooks,
callbacks, env_file and engine (one event, hooks in parallel).
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.claude.adapter import BUS_EVENTS, SETTINGS_HOOK_PATH, UNBOUND_EVENTS, ClaudeHooks
    from hookline.claude.async_hooks import AsyncHookRegistry, AsyncHookTask
    from hookline.claude.callbacks import CallbackContext
    from hookline.claude.config import (
        CallbackHookConfig,
        HookDefinition,
        HookSource,
        OpenPolicy,
        load_plugin_hooks,
        plugin_sources,
        sources_from_settings,
    )
    from hookline.claude.engine import EventRun, HookEngine
    from hookline.claude.env_file import parse_env_exports
    from hookline.claude.matchers import Matcher, compile_matcher, match_query
    from hookline.claude.model_hooks import ModelHookCancelled, ModelHookRequest, ModelRunner
    from hookline.claude.names import (
        CLAUDE_TOOL_NAMES,
        from_claude_input,
        from_claude_tool_name,
        to_claude_input,
        to_claude_tool_name,
    )
    from hookline.claude.outcome import Outcome, OutcomeKind
    from hookline.claude.payloads import BaseFields, build_payload
    from hookline.claude.selection import Deduped, MatcherCheck, Selection, Skipped, select_hooks
    from hookline.claude.verdict import Verdict, aggregate

__all__ = [
    "BUS_EVENTS",
    "CLAUDE_TOOL_NAMES",
    "SETTINGS_HOOK_PATH",
    "UNBOUND_EVENTS",
    "AsyncHookRegistry",
    "AsyncHookTask",
    "BaseFields",
    "CallbackContext",
    "CallbackHookConfig",
    "ClaudeHooks",
    "Deduped",
    "EventRun",
    "HookDefinition",
    "HookEngine",
    "HookSource",
    "Matcher",
    "MatcherCheck",
    "ModelHookCancelled",
    "ModelHookRequest",
    "ModelRunner",
    "OpenPolicy",
    "Outcome",
    "OutcomeKind",
    "Selection",
    "Skipped",
    "Verdict",
    "aggregate",
    "build_payload",
    "compile_matcher",
    "from_claude_input",
    "from_claude_tool_name",
    "load_plugin_hooks",
    "match_query",
    "parse_env_exports",
    "plugin_sources",
    "select_hooks",
    "sources_from_settings",
    "to_claude_input",
    "to_claude_tool_name",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "BUS_EVENTS": "hookline.claude.adapter",
    "ClaudeHooks": "hookline.claude.adapter",
    "SETTINGS_HOOK_PATH": "hookline.claude.adapter",
    "UNBOUND_EVENTS": "hookline.claude.adapter",
    "AsyncHookRegistry": "hookline.claude.async_hooks",
    "AsyncHookTask": "hookline.claude.async_hooks",
    "CallbackContext": "hookline.claude.callbacks",
    "CallbackHookConfig": "hookline.claude.config",
    "HookDefinition": "hookline.claude.config",
    "HookSource": "hookline.claude.config",
    "OpenPolicy": "hookline.claude.config",
    "load_plugin_hooks": "hookline.claude.config",
    "plugin_sources": "hookline.claude.config",
    "sources_from_settings": "hookline.claude.config",
    "EventRun": "hookline.claude.engine",
    "HookEngine": "hookline.claude.engine",
    "parse_env_exports": "hookline.claude.env_file",
    "Matcher": "hookline.claude.matchers",
    "compile_matcher": "hookline.claude.matchers",
    "match_query": "hookline.claude.matchers",
    "ModelHookCancelled": "hookline.claude.model_hooks",
    "ModelHookRequest": "hookline.claude.model_hooks",
    "ModelRunner": "hookline.claude.model_hooks",
    "CLAUDE_TOOL_NAMES": "hookline.claude.names",
    "from_claude_input": "hookline.claude.names",
    "from_claude_tool_name": "hookline.claude.names",
    "to_claude_input": "hookline.claude.names",
    "to_claude_tool_name": "hookline.claude.names",
    "Outcome": "hookline.claude.outcome",
    "OutcomeKind": "hookline.claude.outcome",
    "BaseFields": "hookline.claude.payloads",
    "build_payload": "hookline.claude.payloads",
    "Deduped": "hookline.claude.selection",
    "MatcherCheck": "hookline.claude.selection",
    "Selection": "hookline.claude.selection",
    "Skipped": "hookline.claude.selection",
    "select_hooks": "hookline.claude.selection",
    "Verdict": "hookline.claude.verdict",
    "aggregate": "hookline.claude.verdict",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
