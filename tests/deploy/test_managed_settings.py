"""deploy/claude/managed-settings.json: loaded by hookline's own Claude settings loader,
and its http hook run by hookline's http hook code against the service."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

from hookline.claude.config import HookDefinition
from hookline.claude.http_hook import HttpHookPolicy, check_url, interpolate, run_http_hook
from hookline.claude.outcome import Outcome
from hookline.settings.loader import SettingsFile, read_settings_file
from hookline.settings.models import HttpHookConfig
from tests.deploy.helpers import DEPLOY, TOKEN, denied, pre_tool_use, serving_policy

MANAGED = DEPLOY / "claude" / "managed-settings.json"


def _loaded() -> SettingsFile:
    file = read_settings_file(MANAGED, "managed")
    assert file.error is None and file.warnings == [] and file.problems == []
    assert file.settings is not None
    return file


def _http_hooks() -> dict[str, list[HttpHookConfig]]:
    settings = _loaded().settings
    assert settings is not None and settings.hooks
    out: dict[str, list[HttpHookConfig]] = {}
    for event, groups in settings.hooks.items():
        for group in groups:
            for hook in group.hooks:
                assert isinstance(hook, HttpHookConfig), (event, hook)
                out.setdefault(event, []).append(hook)
    return out


def test_loads_with_no_warning_and_hooks_the_events_that_decide() -> None:
    hooks = _http_hooks()
    assert {"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit"} <= set(hooks)
    for event in ("PreToolUse", "PermissionRequest"):  # the service down is a block
        assert all(hook.on_failure == "block" for hook in hooks[event])


def test_every_hook_posts_to_the_service_root_with_the_token_header() -> None:
    settings = _loaded().settings
    policy = HttpHookPolicy.from_settings(settings)
    assert policy.allowed_urls, "allowedHttpHookUrls pins where hooks may post"
    for hooks in _http_hooks().values():
        for hook in hooks:
            url, problem = check_url(hook.url, policy.allowed_urls)
            assert url is not None, problem
            assert urlsplit(hook.url).scheme == "https" and urlsplit(hook.url).path == "/"
            names = policy.env_vars(hook)
            header = interpolate(
                hook.headers["Authorization"], names, {"HOOKLINE_SERVE_TOKEN": "t0k"}
            )
            assert header == "Bearer t0k"
            assert hook.timeout is not None and hook.timeout > 30  # above serve's --timeout


def _run(hook: HttpHookConfig, port: int, payload: dict[str, object], token: str) -> Outcome:
    local = hook.model_copy(update={"url": f"http://127.0.0.1:{port}/"})
    definition = HookDefinition("PreToolUse", "*", local, "managed", str(MANAGED), 0, 0)
    policy = HttpHookPolicy((f"http://127.0.0.1:{port}/*",), frozenset(local.allowed_env_vars))
    return asyncio.run(
        run_http_hook(
            definition, payload, timeout=30, env={"HOOKLINE_SERVE_TOKEN": token}, policy=policy
        )
    )


def test_the_pre_tool_use_hook_gets_the_services_decisions(tmp_path: Path) -> None:
    (hook,) = _http_hooks()["PreToolUse"]
    with serving_policy(tmp_path) as port:
        blocked = _run(hook, port, pre_tool_use("rm -rf /", tmp_path), TOKEN)
        allowed = _run(hook, port, pre_tool_use("ls -la", tmp_path), TOKEN)
        stranger = _run(hook, port, pre_tool_use("ls -la", tmp_path), "not-the-token")
    assert blocked.kind == "blocking" and denied(blocked.output or {})
    assert allowed.kind == "success" and not denied(allowed.output or {})
    assert stranger.kind == "non_blocking_error" and "401" in (stranger.reason or "")
