"""An untrusted project's ``.hookline/{prompts,skills,themes}``: what it may not reach.

A template, skill or theme file of the project is prompt text or colours; it must
not read a file outside the project (a symlink, ``..``) into the prompt, nor carry
an escape sequence in a name or description the app draws.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.core.resources import Resources

SECRET = "TOP-SECRET-TOKEN-4242"

ESCAPES = [
    "\x1b]52;c;aGVsbG8=\x07",  # OSC 52: clipboard write
    "\x1b]0;owned\x07",  # window title
    "\x1b]0;owned\x1b\\",
    "\x1b[2J",  # clear screen
    "\x1b[10;10H",  # cursor move
    "\x1bc",  # reset
    "\x9b2J",  # 8-bit CSI
    "\x1bP+q544e\x1b\\",  # DCS
    "\x07",
    "\r",
    "\x08\x08",
    "\x1b_apc\x1b\\",
    "\x1b]8;;http://evil\x07link\x1b]8;;\x07",
]


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project, a user home for resources, and a secret outside both."""
    project = tmp_path / "project"
    home = tmp_path / "resource_home"
    outside = tmp_path / "outside"
    for d in (project / ".hookline", home, outside):
        d.mkdir(parents=True)
    (outside / "secret.md").write_text(f"---\ndescription: {SECRET}\n---\n{SECRET}\n")
    (outside / "skill").mkdir()
    (outside / "skill" / "SKILL.md").write_text(f"---\ndescription: {SECRET}\n---\n{SECRET}\n")
    (outside / "theme.json").write_text('{"name": "x", "colors": {}}')
    return project, home, outside


def _everything(found: Resources) -> str:
    text = "\n".join(t.content + t.description + t.name for t in found.templates)
    text += "\n".join(
        s.description + s.name + found.expand(f"/skill:{s.name}") for s in found.skills
    )
    return text


LINK_SHAPES = [
    ("prompts/leak.md", "secret.md"),
    ("prompts/a/../leak.md", "secret.md"),
    ("skills/leak/SKILL.md", "skill/SKILL.md"),
    ("skills/leak.md", "secret.md"),
]


@pytest.mark.parametrize(("where", "target"), LINK_SHAPES)
def test_a_file_symlink_out_of_the_project_is_not_read(tree, where, target):
    project, home, outside = tree
    link = project / ".hookline" / where.replace("a/../", "")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside / target)
    found = Resources.load(str(project), home)
    assert SECRET not in _everything(found)


@pytest.mark.parametrize("kind", ["prompts", "skills", "themes"])
def test_a_folder_symlink_out_of_the_project_is_not_read(tree, kind):
    project, home, outside = tree
    (project / ".hookline" / kind).symlink_to(outside)
    found = Resources.load(str(project), home)
    assert SECRET not in _everything(found)
    assert all(outside not in Path(os.path.realpath(t)).parents for t in found.themes)


def test_a_skill_folder_symlink_out_of_the_project_is_not_read(tree):
    project, home, outside = tree
    (project / ".hookline" / "skills").mkdir()
    (project / ".hookline" / "skills" / "leak").symlink_to(outside / "skill")
    found = Resources.load(str(project), home)
    assert SECRET not in _everything(found)


def test_a_theme_symlink_out_of_the_project_is_not_listed(tree):
    project, home, outside = tree
    (project / ".hookline" / "themes").mkdir()
    (project / ".hookline" / "themes" / "evil.json").symlink_to(outside / "theme.json")
    found = Resources.load(str(project), home)
    assert found.themes == []


def test_a_symlink_inside_the_project_still_works(tree):
    project, home, _ = tree
    (project / "docs").mkdir()
    (project / "docs" / "review.md").write_text("Review $1 carefully\n")
    (project / ".hookline" / "prompts").mkdir()
    (project / ".hookline" / "prompts" / "review.md").symlink_to(project / "docs" / "review.md")
    found = Resources.load(str(project), home)
    assert found.expand("/review x.py") == "Review x.py carefully\n"


def test_the_users_own_resources_may_link_anywhere(tree):
    project, home, outside = tree
    (home / "prompts").mkdir()
    (home / "prompts" / "mine.md").symlink_to(outside / "secret.md")
    found = Resources.load(str(project), home)
    assert [t.name for t in found.templates] == ["mine"]


@pytest.mark.parametrize("escape", ESCAPES)
def test_an_escape_in_a_template_file_name_is_not_a_command(tree, escape):
    project, home, _ = tree
    prompts = project / ".hookline" / "prompts"
    prompts.mkdir()
    (prompts / f"x{escape.replace('/', '_')}y.md").write_text("body\n")
    found = Resources.load(str(project), home)
    assert all(c.name.isprintable() for c in found.commands())


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("field", ["name", "description"])
def test_an_escape_in_a_skill_front_matter_is_not_kept(tree, escape, field):
    project, home, _ = tree
    skill = project / ".hookline" / "skills" / "s"
    skill.mkdir(parents=True)
    values = {"name": "s", "description": "helps"}
    values[field] = f"a{escape}b"
    skill.joinpath("SKILL.md").write_text(
        f"---\nname: {values['name']}\ndescription: {values['description']}\n---\nbody\n"
    )
    found = Resources.load(str(project), home)
    for command in found.commands():
        assert command.name.isprintable()
        assert command.description.isprintable()
    assert "\x1b" not in found.add_to_prompt("base")


@pytest.mark.parametrize("escape", ESCAPES)
def test_an_escape_in_a_template_description_is_not_kept(tree, escape):
    project, home, _ = tree
    prompts = project / ".hookline" / "prompts"
    prompts.mkdir()
    (prompts / "a.md").write_text(f"---\ndescription: d{escape}e\n---\nbody\n")
    (prompts / "b.md").write_text(f"first{escape}line\n")
    found = Resources.load(str(project), home)
    assert [c.name for c in found.commands()] == ["a", "b"]
    assert all(c.description.isprintable() for c in found.commands())


@pytest.mark.parametrize("escape", ESCAPES)
def test_an_escape_in_a_theme_file_name_is_not_listed(tree, escape):
    project, home, _ = tree
    themes = project / ".hookline" / "themes"
    themes.mkdir()
    (themes / f"t{escape.replace('/', '_')}.json").write_text("{}")
    found = Resources.load(str(project), home)
    assert all(t.stem.isprintable() for t in found.themes)


TRAVERSALS = [
    "/skill:../../outside/skill",
    "/skill:/etc/passwd",
    "/skill:..",
    "/../outside/secret",
    "/../../etc/passwd",
    "/skill:",
    "/skill:skill",
    "/outside/secret",
]


@pytest.mark.parametrize("text", TRAVERSALS)
def test_a_path_for_a_name_reads_nothing(tree, text):
    project, home, _ = tree
    found = Resources.load(str(project), home)
    assert found.expand(text) == text


@pytest.mark.parametrize(
    "name", ["../../outside/skill", "/etc/passwd", "..", "a/b", "a b", "-", "x" * 300]
)
def test_a_skill_named_like_a_path_reads_only_its_own_file(tree, name):
    project, home, _ = tree
    skill = project / ".hookline" / "skills" / "s"
    skill.mkdir(parents=True)
    skill.joinpath("SKILL.md").write_text(f"---\nname: {name}\ndescription: d\n---\nOWN\n")
    found = Resources.load(str(project), home)
    for s in found.skills:
        expanded = found.expand(f"/skill:{s.name}")
        assert SECRET not in expanded


def test_a_project_template_runs_nothing(tree, tmp_path):
    """A template's body with shell-looking text is only text: no program runs."""
    project, home, _ = tree
    marker = tmp_path / "ran"
    prompts = project / ".hookline" / "prompts"
    prompts.mkdir()
    (prompts / "x.md").write_text(f"!touch {marker}\n$(touch {marker})\n`touch {marker}`\n")
    found = Resources.load(str(project), home)
    found.expand("/x $(touch " + str(marker) + ")")
    assert not marker.exists()


def test_a_fifo_in_prompts_does_not_hang_the_load(tree):
    project, home, _ = tree
    prompts = project / ".hookline" / "prompts"
    prompts.mkdir()
    os.mkfifo(prompts / "pipe.md")
    found = Resources.load(str(project), home)
    assert found.templates == []


@pytest.mark.parametrize("how", ["file", "folder"])
def test_a_skill_swapped_for_a_link_after_loading_is_not_read(tree, how):
    """The project (or a tool call) swaps SKILL.md for a link once the skill is listed:
    ``/skill:name`` must not read the link's target."""
    project, home, outside = tree
    folder = project / ".hookline" / "skills" / "s"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\nOWN\n")
    found = Resources.load(str(project), home)
    assert "OWN" in found.expand("/skill:s")
    if how == "file":
        (folder / "SKILL.md").unlink()
        (folder / "SKILL.md").symlink_to(outside / "skill" / "SKILL.md")
    else:
        (folder / "SKILL.md").unlink()
        folder.rmdir()
        folder.symlink_to(outside / "skill")
    assert SECRET not in found.expand("/skill:s")


@pytest.mark.parametrize("kind", ["prompts/big.md", "skills/big/SKILL.md", "skills/big.md"])
def test_a_huge_project_file_is_skipped_not_read(tree, kind):
    """A sparse 4 GiB file in an untrusted project must not be read whole at start-up."""
    project, home, _ = tree
    path = project / ".hookline" / kind
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"---\nname: big\ndescription: d\n---\n")
        f.truncate(4 * 1024**3)
    found = Resources.load(str(project), home)
    assert found.templates == [] and found.skills == []


@pytest.mark.parametrize("kind", ["prompts/bad.md", "skills/bad/SKILL.md"])
@pytest.mark.parametrize("data", [b"\xff\xfe\x00bad", b"---\ndescription: \xc3\n---\n"])
def test_a_file_that_is_not_utf8_is_skipped(tree, kind, data):
    project, home, _ = tree
    path = project / ".hookline" / kind
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    (project / ".hookline" / "prompts").mkdir(exist_ok=True)
    (project / ".hookline" / "prompts" / "good.md").write_text("fine\n")
    found = Resources.load(str(project), home)
    assert [t.name for t in found.templates] == ["good"]
