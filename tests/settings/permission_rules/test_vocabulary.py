"""One list of Claude tool names and one list of permission modes for the whole code base."""

from __future__ import annotations

from typing import get_args

from hookline.agent import permissions
from hookline.claude import names
from hookline.cli import _main_parser
from hookline.core import vocabulary
from hookline.settings.models import PermissionsConfig


def test_claude_names_come_from_the_vocabulary() -> None:
    assert names.CLAUDE_TOOL_NAMES is vocabulary.CLAUDE_TOOL_NAMES
    assert names.HOOKLINE_TOOL_NAMES is vocabulary.HOOKLINE_TOOL_NAMES
    assert permissions.CLAUDE_TOOL_NAMES is vocabulary.CLAUDE_TOOL_NAMES


def test_modes_come_from_the_vocabulary() -> None:
    assert permissions.PERMISSION_MODES is vocabulary.PERMISSION_MODES
    assert get_args(vocabulary.PermissionMode) == vocabulary.PERMISSION_MODES
    field = PermissionsConfig.model_fields["default_mode"].annotation
    assert set(get_args(get_args(field)[0])) == set(vocabulary.PERMISSION_MODES)
    mode_flag = next(a for a in _main_parser()._actions if a.dest == "permission_mode")
    assert tuple(mode_flag.choices or ()) == vocabulary.PERMISSION_MODES
