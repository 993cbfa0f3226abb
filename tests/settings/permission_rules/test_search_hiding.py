"""A Read-denied file never shows in grep, find or ls, also when a parent folder is searched."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.core.messages import content_text
from hookline.settings.permission_rules import PermissionRules
from hookline.tools import builtin_tools

from .helpers import run_agent

DENY = ["Read(./.env)", "Read(./secrets/**)", "Read(*.pem)"]


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / "app").mkdir(parents=True)
    (root / "secrets").mkdir()
    (root / ".env").write_text("TOKEN=hunter2\n")
    (root / "secrets" / "prod.txt").write_text("TOKEN=prod-hunter2\n")
    (root / "app" / "key.pem").write_text("TOKEN=pem-hunter2\n")
    (root / "app" / "main.py").write_text("TOKEN = getenv('TOKEN')\n")
    (root / "alias").symlink_to(".env")


async def _run(project: Path, name: str, args: dict[str, object], deny: list[str]) -> str:
    rules = PermissionRules.from_lists(deny=deny)
    tools = {
        t.name: t for t in builtin_tools(str(project), hide=rules.hide_predicate(str(project)))
    }
    result = await tools[name].execute("c1", args, None, None)
    return content_text(result.content)


@pytest.mark.parametrize("path", [".", "app", "app/../."])
async def test_grep_never_shows_a_denied_file(project: Path, path: str) -> None:
    shown = await _run(project, "grep", {"pattern": "TOKEN", "path": path}, DENY)
    assert "hunter2" not in shown
    assert ".env" not in shown and "alias" not in shown and "prod.txt" not in shown
    if path != "app":
        assert "app/main.py" in shown  # the search itself still works


async def test_grep_without_rules_sees_everything(project: Path) -> None:
    """The fixture is honest: with no rule the secrets are found."""
    shown = await _run(project, "grep", {"pattern": "hunter2", "path": "."}, [])
    assert ".env" in shown and "prod.txt" in shown and "key.pem" in shown and "alias" in shown


async def test_find_never_lists_a_denied_file(project: Path) -> None:
    shown = await _run(project, "find", {"pattern": "**/*"}, DENY)
    assert "prod.txt" not in shown and "key.pem" not in shown
    assert ".env" not in shown.split() and "alias" not in shown.split()
    assert "app/main.py" in shown


async def test_ls_never_lists_a_denied_file(project: Path) -> None:
    top = (await _run(project, "ls", {"path": "."}, DENY)).split()
    assert ".env" not in top and "alias" not in top
    assert "app/" in top
    app = (await _run(project, "ls", {"path": "app"}, DENY)).split()
    assert app == ["main.py"]


async def test_ask_rules_hide_too(project: Path) -> None:
    rules = PermissionRules.from_lists(ask=["Read(./.env)"])
    assert rules.hides(str(project / ".env"), str(project))
    assert rules.hides(str(project / "alias"), str(project))
    assert not rules.hides(str(project / "app" / "main.py"), str(project))


def test_no_predicate_without_path_rules(project: Path) -> None:
    assert PermissionRules.from_lists(deny=["Bash(curl:*)", "Read"]).hide_predicate("/") is None


async def test_the_agent_hides_denied_files_from_searches_of_the_parent(project: Path) -> None:
    results = await run_agent(
        project,
        [
            ("grep", {"pattern": "TOKEN"}),
            ("find", {"pattern": "*"}),
            ("ls", {}),
            ("grep", {"pattern": "TOKEN", "path": ".env"}),
            ("grep", {"pattern": "TOKEN", "path": "secrets"}),
        ],
        settings={"permissions": {"deny": DENY}},
        mode="bypassPermissions",
    )
    for result in results:
        assert "hunter2" not in result.text
        assert "prod.txt" not in result.text and "key.pem" not in result.text
    assert "app/main.py" in results[0].text
    assert ".env" not in results[2].text.split()
    assert results[3].is_error and "Read(./.env)" in results[3].text
    assert not results[4].is_error and "No matches" in results[4].text


@pytest.mark.parametrize("rule", ["Read(secrets/)", "Read(./secrets/)", "Read(/secrets/)"])
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("grep", {"pattern": "TOKEN", "path": "."}),
        ("find", {"pattern": "**/*"}),
        ("find", {"pattern": "secrets"}),
        ("ls", {"path": "."}),
    ],
)
async def test_a_folder_only_rule_hides_the_folder_and_its_files(
    project: Path, rule: str, name: str, args: dict[str, object]
) -> None:
    """``secrets/`` (trailing slash: folders only) covers the folder itself, not only what
    is inside, so a listing does not show it either."""
    shown = await _run(project, name, args, [rule])
    assert "prod-hunter2" not in shown and "prod.txt" not in shown
    assert "secrets" not in shown


async def test_a_folder_only_rule_does_not_hide_a_file_of_that_name(tmp_path: Path) -> None:
    """The same rule leaves a plain file named ``secrets`` alone, as gitignore does."""
    (tmp_path / "secrets").write_text("TOKEN=public\n")
    shown = await _run(tmp_path, "grep", {"pattern": "TOKEN", "path": "."}, ["Read(secrets/)"])
    assert "secrets:1: TOKEN=public" in shown
