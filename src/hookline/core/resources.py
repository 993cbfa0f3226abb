"""Prompt templates, skills and themes: Markdown and JSON files the agent finds, as pi's.

A prompt template (``prompts/review.md``) is the command ``/review ARGS``: the
file's body with ``$1``, ``$@``, ``$ARGUMENTS`` and ``${@:2}`` filled in. A
skill (``skills/<name>/SKILL.md``, ``name`` and ``description`` in its front
matter) is listed in the system prompt for the model to read when a task needs
it, and ``/skill:name ARGS`` puts it in the prompt. Themes are pi's theme JSON.

They are found in ``.hookline/{prompts,skills,themes}`` of the project and of
``~/.hookline``, and at the paths ``resources_discover`` handlers return
(at start-up and on ``/reload``). ``get_commands()`` lists the commands they
make, after the hooks' own.

A project's files are read before it is trusted (they are prompt text and
colours, as its ``CLAUDE.md`` is), so they must stay inside it: a file whose
real path leaves the project (a symlink to ``~/.ssh``) is skipped, and names
and descriptions the app draws keep no escape sequence or control character.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hookline.core.ui import strip_terminal_controls

#: Largest template or skill file read (256 KiB); a bigger one is skipped.
MAX_BYTES = 256 * 1024

CommandSource = Literal["extension", "prompt", "skill"]
#: Where a template or skill was found: the user's folder, the project's, or a given path.
ResourceLocation = Literal["user", "project", "path"]


@dataclass(frozen=True, slots=True)
class SlashCommandInfo:
    """One command ``prompt`` can run (pi's ``SlashCommandInfo``)."""

    name: str
    description: str = ""
    source: CommandSource = "extension"
    location: ResourceLocation | None = None
    #: the file behind it: the hook module, the template or the SKILL.md
    path: str | None = None


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    name: str
    description: str
    content: str
    path: str
    location: ResourceLocation


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    description: str
    path: str
    location: ResourceLocation
    #: The folder the file must still be in when ``/skill:name`` reads it (the project).
    root: str | None = None

    @property
    def base_dir(self) -> str:
        return str(Path(self.path).parent)


@dataclass(frozen=True, slots=True)
class ResourcePaths:
    """Files or folders to load besides the ones found on disk."""

    skills: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()


_FRONT = re.compile(r"\A---\r?\n(.*?)\r?\n---\r?\n?", re.DOTALL)


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """The ``key: value`` lines between the leading ``---`` fences, and the body after them."""
    match = _FRONT.match(text)
    if match is None:
        return {}, text
    fields: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t", "#")):
            fields[key.strip()] = value.strip().strip("\"'")
    return fields, text[match.end() :]


def load_prompt_template(path: Path, location: ResourceLocation) -> PromptTemplate:
    """A template named after its file; its description from the front matter, else its
    first non-empty line."""
    fields, body = split_front_matter(read_resource(path))
    description = fields.get("description") or next(
        (line.strip()[:60] for line in body.splitlines() if line.strip()), ""
    )
    return PromptTemplate(path.stem, _printable(description), body, str(path), location)


def load_skill(path: Path, location: ResourceLocation, root: Path | None = None) -> Skill | None:
    """The skill in ``path``; None without a description (the model could not choose it).
    ``root``: the folder its file must stay in (a project's)."""
    fields, _ = split_front_matter(read_resource(path))
    description = _printable(fields.get("description", ""))
    if not description:
        return None
    default = path.parent.name if path.name == "SKILL.md" else path.stem
    where = None if root is None else str(root)
    return Skill(fields.get("name") or default, description, str(path), location, where)


def read_resource(path: Path) -> str:
    """A template's or skill's text: a regular UTF-8 file of at most ``MAX_BYTES``; else
    ``ValueError`` (or ``OSError``) saying why, so a huge, sparse or binary file in a
    project cannot stall or stop the start."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path}: not a regular file")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"{path}: {info.st_size} bytes; the limit is {MAX_BYTES}")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path}: over the limit of {MAX_BYTES} bytes")
    return data.decode("utf-8")


def _printable(text: str) -> str:
    """``text`` as the app may draw it: no escape sequence, no control character."""
    return "".join(c for c in strip_terminal_controls(text) if c.isprintable()).strip()


def _drawable(name: str) -> bool:
    """A name the app may draw and ``/name`` may type: printable, no spaces."""
    return bool(name) and name.isprintable() and not any(c.isspace() for c in name)


def _inside(path: Path, root: Path | None) -> bool:
    """Whether ``path``'s real path stays in ``root`` (always, without a root)."""
    if root is None:
        return True
    real = Path(os.path.realpath(path))
    return real == root or root in real.parents


def _markdown(path: Path, *, skills: bool) -> list[Path]:
    """The Markdown files a path holds: itself, or a folder's ``*.md`` (and for skills each
    subfolder's ``SKILL.md``)."""
    if path.is_file():
        return [path] if path.suffix == ".md" else []
    if not path.is_dir():
        return []
    found = sorted(p for p in path.glob("*.md") if p.is_file())
    if skills:
        found += sorted(p for p in path.glob("*/SKILL.md") if p.is_file())
    return found


def parse_command_args(text: str) -> list[str]:
    """Arguments split on spaces, with single or double quotes grouping (as pi splits them)."""
    args: list[str] = []
    current, quote, started = "", "", False
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                current += ch
        elif ch in "\"'":
            quote, started = ch, True
        elif ch in " \t":
            if current or started:
                args.append(current)
            current, started = "", False
        else:
            current += ch
    if current or started:
        args.append(current)
    return args


def substitute_args(content: str, args: list[str]) -> str:
    """``$1``..``$9``, ``${@:N}``/``${@:N:L}``, then ``$ARGUMENTS`` and ``$@``."""
    content = re.sub(
        r"\$(\d+)",
        lambda m: args[int(m.group(1)) - 1] if 0 < int(m.group(1)) <= len(args) else "",
        content,
    )

    def sliced(m: re.Match[str]) -> str:
        start = max(int(m.group(1)) - 1, 0)
        end = None if m.group(2) is None else start + int(m.group(2))
        return " ".join(args[start:end])

    content = re.sub(r"\$\{@:(\d+)(?::(\d+))?\}", sliced, content)
    joined = " ".join(args)
    return content.replace("$ARGUMENTS", joined).replace("$@", joined)


@dataclass(slots=True)
class Resources:
    """The templates, skills and theme files of one agent, reloaded with its hooks."""

    templates: list[PromptTemplate] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    themes: list[Path] = field(default_factory=list)

    @classmethod
    def load(cls, cwd: str, home: Path, extra: ResourcePaths = ResourcePaths()) -> Resources:
        """What the project's and the user's ``.hookline`` folders hold, then ``extra``;
        the first of a name wins (project before user before extra)."""
        found = cls()
        project = Path(os.path.realpath(cwd))
        roots: list[tuple[Path, ResourceLocation, Path | None]] = [
            (Path(cwd) / ".hookline", "project", project),
            (home, "user", None),
        ]
        for root, location, confine in roots:
            found._add([root / "prompts"], [root / "skills"], [root / "themes"], location, confine)
        found._add(
            [Path(p) for p in extra.prompts],
            [Path(p) for p in extra.skills],
            [Path(p) for p in extra.themes],
            "path",
        )
        return found

    def _add(
        self,
        prompts: list[Path],
        skills: list[Path],
        themes: list[Path],
        location: ResourceLocation,
        confine: Path | None = None,
    ) -> None:
        """Add what the folders hold; with ``confine`` (the project), only files whose
        real path stays in it."""
        names = {t.name for t in self.templates}
        for path in (f for p in prompts for f in _markdown(p, skills=False)):
            if not _inside(path, confine) or not _drawable(path.stem):
                continue
            try:
                template = load_prompt_template(path, location)
            except (OSError, ValueError):  # too big, not text: not a template
                continue
            if template.name not in names:
                names.add(template.name)
                self.templates.append(template)
        names = {s.name for s in self.skills}
        for path in (f for p in skills for f in _markdown(p, skills=True)):
            if not _inside(path, confine):
                continue
            try:
                skill = load_skill(path, location, confine)
            except (OSError, ValueError):  # too big, not text: not a skill
                continue
            if skill is not None and _drawable(skill.name) and skill.name not in names:
                names.add(skill.name)
                self.skills.append(skill)
        for theme in themes:
            files = sorted(theme.glob("*.json")) if theme.is_dir() else [theme]
            self.themes += [
                f
                for f in files
                if f.is_file()
                and _inside(f, confine)
                and _drawable(f.stem)
                and f not in self.themes
            ]

    def commands(self) -> list[SlashCommandInfo]:
        """The templates' commands, then the skills' (``skill:name``)."""
        return [
            SlashCommandInfo(t.name, t.description, "prompt", t.location, t.path)
            for t in self.templates
        ] + [
            SlashCommandInfo(f"skill:{s.name}", s.description, "skill", s.location, s.path)
            for s in self.skills
        ]

    def expand(self, text: str) -> str:
        """``/skill:name args`` and ``/template args`` as the text the model gets; any other
        text as it is."""
        if not text.startswith("/"):
            return text
        name, _, args = text[1:].partition(" ")
        if name.startswith("skill:"):
            skill = next((s for s in self.skills if s.name == name[6:]), None)
            return text if skill is None else _skill_block(skill, args.strip())
        template = next((t for t in self.templates if t.name == name), None)
        return (
            text
            if template is None
            else substitute_args(template.content, parse_command_args(args))
        )

    def add_to_prompt(self, system_prompt: str) -> str:
        """``system_prompt`` with the skills listed after it (unchanged without skills)."""
        if not self.skills:
            return system_prompt
        lines = [
            "The following skills provide specialized instructions for specific tasks.",
            "Use the read tool to load a skill's file when the task matches its description.",
            "When a skill file references a relative path, resolve it against the skill "
            "directory (parent of SKILL.md / dirname of the path) and use that absolute path "
            "in tool commands.",
            "",
            "<available_skills>",
        ]
        for s in self.skills:
            lines += [
                "  <skill>",
                f"    <name>{escape(s.name)}</name>",
                f"    <description>{escape(s.description)}</description>",
                f"    <location>{escape(s.path)}</location>",
                "  </skill>",
            ]
        lines.append("</available_skills>")
        return system_prompt + "\n\n" + "\n".join(lines)


def escape(text: str) -> str:
    """``text`` safe inside XML (``xml.sax.saxutils`` would load ``urllib.request``)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _skill_block(skill: Skill, args: str) -> str:
    """The skill's file as the model gets it, read now; a project's file swapped for a link
    out of the project since it was listed is not read."""
    root = None if skill.root is None else Path(skill.root)
    why = None
    if not _inside(Path(skill.path), root):
        why = f"{skill.path} now leads outside the project"
    else:
        try:
            _, body = split_front_matter(read_resource(Path(skill.path)))
        except (OSError, ValueError) as exc:
            why = str(exc)
    if why is not None:
        block = f'<skill name="{skill.name}">\nNot read: {why}.\n</skill>'
        return f"{block}\n\n{args}" if args else block
    block = (
        f'<skill name="{skill.name}" location="{skill.path}">\n'
        f"References are relative to {skill.base_dir}.\n\n{body.strip()}\n</skill>"
    )
    return f"{block}\n\n{args}" if args else block
