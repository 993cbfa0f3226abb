"""The settings JSON Schema: generated from the models, shipped file kept fresh."""

from __future__ import annotations

import json
from pathlib import Path

from hookline.settings import SCHEMA_PATH, settings_json_schema
from hookline.settings.schema import schema_text, write_settings_schema


def test_shipped_schema_equals_generated() -> None:
    shipped = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert shipped == settings_json_schema(), (
        "settings.schema.json is stale: run "
        'python -c "from hookline.settings.schema import write_settings_schema as w; w()"'
    )
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_shipped_schema_sits_in_the_package() -> None:
    assert SCHEMA_PATH.parent == Path(__file__).parents[2] / "src" / "hookline" / "settings"
    assert SCHEMA_PATH.name == "settings.schema.json"


def test_schema_header_and_user_facing_keys() -> None:
    schema = settings_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "hookline settings"
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is True
    props = schema["properties"]
    for key in ("hooks", "hookTimeout", "disableAllHooks", "allowManagedHooksOnly", "env"):
        assert key in props
    assert "hook_timeout" not in props
    assert {"CommandHookConfig", "PromptHookConfig", "AgentHookConfig"} <= set(schema["$defs"])
    for key in ("allowedHttpHookUrls", "httpHookAllowedEnvVars"):
        assert props[key]["anyOf"][0] == {"items": {"type": "string"}, "type": "array"}
    http = schema["$defs"]["HttpHookConfig"]
    assert {"url", "headers", "allowedEnvVars", "if", "onFailure", "statusMessage"} <= set(
        http["properties"]
    )
    command = schema["$defs"]["CommandHookConfig"]["properties"]
    assert {"args", "shell", "if", "async", "asyncRewake", "onFailure", "once"} <= set(command)
    assert command["onFailure"]["anyOf"][0]["enum"] == ["continue", "block"]


def test_write_settings_schema(tmp_path: Path) -> None:
    out = write_settings_schema(tmp_path / "s.json")
    assert json.loads(out.read_text()) == settings_json_schema()


def test_schema_is_json_serialisable_and_stable() -> None:
    assert json.dumps(settings_json_schema(), sort_keys=True) == json.dumps(
        settings_json_schema(), sort_keys=True
    )
