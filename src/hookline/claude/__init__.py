"""Claude Code compatibility: ``.claude/settings.json`` hooks on hookline's event bus.

``ClaudeHooks`` is the entry point (see ``adapter.py``); the other modules are
its parts: names (Claude's tool vocabulary), config (sources → definitions),
matchers and selection, conditions (a hook's ``if``), facts (what every input
starts with), payloads (stdin JSON), kinds (how each hook type runs), command
(one process), http_hook (one POST), mcp_hook (one MCP tool call), outcome
(exit code and output → ``Outcome``), verdict, async_hooks, model_hooks,
callbacks, timeouts, env_file (``CLAUDE_ENV_FILE``), environment (settings
``env``, the credential scrub), engine (one event, hooks in parallel) and
plugins (Claude Code's installed plugins).
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
        load_plugin_hooks,
        plugin_sources,
        sources_from_settings,
    )
    from hookline.claude.engine import EventRun, HookEngine
    from hookline.claude.env_file import parse_env_exports, source_env_file
    from hookline.claude.environment import subprocess_env
    from hookline.claude.facts import SessionFacts
    from hookline.claude.http_hook import HttpHookPolicy
    from hookline.claude.matchers import Matcher, compile_matcher, match_query
    from hookline.claude.mcp_hook import McpToolCaller, McpToolReply, McpToolUnavailable
    from hookline.claude.model_hooks import ModelHookCancelled, ModelHookRequest, ModelRunner
    from hookline.claude.names import (
        CLAUDE_TOOL_NAMES,
        NEVER_FIRES,
        from_claude_input,
        from_claude_tool_name,
        never_fires,
        to_claude_input,
        to_claude_tool_name,
    )
    from hookline.claude.outcome import Outcome, OutcomeKind
    from hookline.claude.payloads import build_payload
    from hookline.claude.plugins import (
        Plugin,
        PluginSet,
        enabled_state,
        find_plugins,
        plugin_hook_sources,
    )
    from hookline.claude.selection import Deduped, MatcherCheck, Selection, Skipped, select_hooks
    from hookline.claude.verdict import Verdict, aggregate

__all__ = [
    "BUS_EVENTS",
    "CLAUDE_TOOL_NAMES",
    "NEVER_FIRES",
    "SETTINGS_HOOK_PATH",
    "UNBOUND_EVENTS",
    "AsyncHookRegistry",
    "AsyncHookTask",
    "CallbackContext",
    "CallbackHookConfig",
    "ClaudeHooks",
    "Deduped",
    "EventRun",
    "HookDefinition",
    "HookEngine",
    "HookSource",
    "HttpHookPolicy",
    "Matcher",
    "MatcherCheck",
    "McpToolCaller",
    "McpToolReply",
    "McpToolUnavailable",
    "ModelHookCancelled",
    "ModelHookRequest",
    "ModelRunner",
    "Outcome",
    "OutcomeKind",
    "Plugin",
    "PluginSet",
    "Selection",
    "SessionFacts",
    "Skipped",
    "Verdict",
    "aggregate",
    "build_payload",
    "compile_matcher",
    "enabled_state",
    "find_plugins",
    "from_claude_input",
    "from_claude_tool_name",
    "load_plugin_hooks",
    "match_query",
    "never_fires",
    "parse_env_exports",
    "plugin_hook_sources",
    "plugin_sources",
    "select_hooks",
    "source_env_file",
    "sources_from_settings",
    "subprocess_env",
    "to_claude_input",
    "to_claude_tool_name",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "BUS_EVENTS": "hookline.claude.adapter",
    "CLAUDE_TOOL_NAMES": "hookline.claude.names",
    "NEVER_FIRES": "hookline.claude.names",
    "never_fires": "hookline.claude.names",
    "SETTINGS_HOOK_PATH": "hookline.claude.adapter",
    "UNBOUND_EVENTS": "hookline.claude.adapter",
    "AsyncHookRegistry": "hookline.claude.async_hooks",
    "AsyncHookTask": "hookline.claude.async_hooks",
    "CallbackContext": "hookline.claude.callbacks",
    "CallbackHookConfig": "hookline.claude.config",
    "ClaudeHooks": "hookline.claude.adapter",
    "Deduped": "hookline.claude.selection",
    "EventRun": "hookline.claude.engine",
    "HookDefinition": "hookline.claude.config",
    "HookEngine": "hookline.claude.engine",
    "HookSource": "hookline.claude.config",
    "HttpHookPolicy": "hookline.claude.http_hook",
    "McpToolCaller": "hookline.claude.mcp_hook",
    "McpToolReply": "hookline.claude.mcp_hook",
    "McpToolUnavailable": "hookline.claude.mcp_hook",
    "Matcher": "hookline.claude.matchers",
    "MatcherCheck": "hookline.claude.selection",
    "ModelHookCancelled": "hookline.claude.model_hooks",
    "ModelHookRequest": "hookline.claude.model_hooks",
    "ModelRunner": "hookline.claude.model_hooks",
    "Outcome": "hookline.claude.outcome",
    "OutcomeKind": "hookline.claude.outcome",
    "Selection": "hookline.claude.selection",
    "SessionFacts": "hookline.claude.facts",
    "Skipped": "hookline.claude.selection",
    "Verdict": "hookline.claude.verdict",
    "aggregate": "hookline.claude.verdict",
    "build_payload": "hookline.claude.payloads",
    "compile_matcher": "hookline.claude.matchers",
    "from_claude_input": "hookline.claude.names",
    "from_claude_tool_name": "hookline.claude.names",
    "load_plugin_hooks": "hookline.claude.config",
    "match_query": "hookline.claude.matchers",
    "parse_env_exports": "hookline.claude.env_file",
    "plugin_sources": "hookline.claude.config",
    "Plugin": "hookline.claude.plugins",
    "PluginSet": "hookline.claude.plugins",
    "enabled_state": "hookline.claude.plugins",
    "find_plugins": "hookline.claude.plugins",
    "plugin_hook_sources": "hookline.claude.plugins",
    "select_hooks": "hookline.claude.selection",
    "source_env_file": "hookline.claude.env_file",
    "sources_from_settings": "hookline.claude.config",
    "subprocess_env": "hookline.claude.environment",
    "to_claude_input": "hookline.claude.names",
    "to_claude_tool_name": "hookline.claude.names",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
