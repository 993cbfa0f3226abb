"""Memory files (CLAUDE.md, CLAUDE.local.md, AGENTS.md, ~/.claude/CLAUDE.md) in the system prompt.

Real files under a temporary HOME and project; the scripted model records the
system prompt it was sent. InstructionsLoaded reaches module hooks and real
command hooks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hookline import InstructionsLoadedEvent
from hookline.agent.memory import imports, load_memory

from .conftest import MakeAgent
from .helpers import Harness, covers


def _w(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def system_prompt(h: Harness) -> str:
    return h.agent.provider.requests[0].system_prompt  # type: ignore[attr-defined, no-any-return]


async def test_every_memory_file_in_order(
    make_agent: MakeAgent, project: Path, isolated_home: Path
) -> None:
    _w(isolated_home / ".claude" / "CLAUDE.md", "USER-RULE")
    _w(project.parent / "CLAUDE.md", "PARENT-RULE")
    _w(project / "CLAUDE.md", "PROJECT-RULE")
    _w(project / ".claude" / "CLAUDE.md", "DOT-CLAUDE-RULE")
    _w(project / "AGENTS.md", "AGENTS-RULE")
    _w(project / "CLAUDE.local.md", "LOCAL-RULE")
    _w(project / "sub" / "CLAUDE.md", "NESTED-NOT-AT-START")
    h = await make_agent(["ok"])
    await h.agent.prompt("hi")
    prompt = system_prompt(h)
    order = [
        "USER-RULE",
        "PARENT-RULE",
        "PROJECT-RULE",
        "DOT-CLAUDE-RULE",
        "AGENTS-RULE",
        "LOCAL-RULE",
    ]
    positions = [prompt.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert "NESTED-NOT-AT-START" not in prompt
    assert f"Contents of {project / 'CLAUDE.local.md'} (user's private project" in prompt


async def test_imports_relative_home_nested_and_cycles(
    make_agent: MakeAgent, project: Path, isolated_home: Path
) -> None:
    _w(isolated_home / "personal.md", "HOME-IMPORT")
    _w(project / "docs" / "style.md", "STYLE @../docs/more.md @./style.md")
    _w(project / "docs" / "more.md", "MORE @../CLAUDE.md")  # back to the start: a cycle
    _w(
        project / "CLAUDE.md",
        "See @docs/style.md and @~/personal.md.\n"
        "Not imports: `@docs/code.md`, mail@docs/x.md\n"
        "```\n@docs/fenced.md\n```\n",
    )
    _w(project / "docs" / "code.md", "CODE-SPAN")
    _w(project / "docs" / "fenced.md", "FENCED")
    h = await make_agent(["ok"])
    await h.agent.prompt("hi")
    prompt = system_prompt(h)
    assert "STYLE" in prompt and "MORE" in prompt and "HOME-IMPORT" in prompt
    assert "CODE-SPAN" not in prompt and "FENCED" not in prompt
    assert prompt.count(f"Contents of {project / 'CLAUDE.md'} ") == 1  # the cycle loads once


def test_import_depth_is_five_hops(tmp_path: Path) -> None:
    project = tmp_path / "p"
    for i in range(8):
        _w(project / f"f{i}.md", f"LEVEL{i} @f{i + 1}.md")
    _w(project / "CLAUDE.md", "ROOT @f0.md")
    memory = load_memory(project, project_trusted=True, home=tmp_path / "home")
    texts = " ".join(f.text for f in memory.files)
    assert "LEVEL4" in texts  # CLAUDE.md -> f0 -> f1 -> f2 -> f3 -> f4: five hops
    assert "LEVEL5" not in texts
    assert [f.parent for f in memory.files][1] == project / "CLAUDE.md"


def test_import_syntax() -> None:
    assert imports("@a.md then @b/c.md\n`@skip.md` x@y.md") == ["a.md", "b/c.md"]
    assert imports("~~~\n@in.md\n~~~\n@out.md") == ["out.md"]
    assert imports(r"@with\ space.md") == ["with space.md"]


async def test_untrusted_project_memory_is_read_but_cannot_import_outside(
    make_agent: MakeAgent, project: Path, isolated_home: Path
) -> None:
    _w(isolated_home / ".ssh" / "id_rsa", "SECRET-KEY")
    _w(project / "inside.md", "INSIDE-IMPORT")
    link = project / "sneaky.md"
    os.symlink(isolated_home / ".ssh" / "id_rsa", link)
    _w(
        project / "CLAUDE.md",
        "PROJECT-RULE @inside.md @~/.ssh/id_rsa @sneaky.md @../home/.ssh/id_rsa",
    )
    h = await make_agent(["ok"], trust_project=False)
    await h.agent.prompt("hi")
    prompt = system_prompt(h)
    assert "PROJECT-RULE" in prompt and "INSIDE-IMPORT" in prompt
    assert "SECRET-KEY" not in prompt
    err = h.stderr.getvalue()
    assert "import @~/.ssh/id_rsa leaves the untrusted project" in err
    assert "import @sneaky.md leaves the untrusted project" in err
    assert "import @../home/.ssh/id_rsa leaves the untrusted project" in err

    trusted = await make_agent(["ok"], trust_project=True)
    await trusted.agent.prompt("hi")
    assert "SECRET-KEY" in system_prompt(trusted)  # the user's own choice once trusted


async def test_memory_file_that_is_a_fifo_is_skipped(make_agent: MakeAgent, project: Path) -> None:
    os.mkfifo(project / "CLAUDE.md")
    _w(project / "AGENTS.md", "AGENTS-RULE")
    h = await make_agent(["ok"], trust_project=False)
    await h.agent.prompt("hi")
    assert "AGENTS-RULE" in system_prompt(h)
    assert "not a regular file" in h.stderr.getvalue()


@covers("instructions_loaded")
async def test_instructions_loaded_module_and_settings_hooks(
    make_agent: MakeAgent, project: Path, isolated_home: Path, tmp_path: Path
) -> None:
    user = _w(isolated_home / ".claude" / "CLAUDE.md", "USER")
    main = _w(project / "CLAUDE.md", "PROJECT @extra.md")
    extra = _w(project / "extra.md", "EXTRA")
    record = tmp_path / "instructions.jsonl"
    script = _w(tmp_path / "rec.sh", f"#!/bin/sh\ncat >> {record}\necho >> {record}\n")
    script.chmod(0o755)
    hooks = {
        "InstructionsLoaded": [
            {"matcher": "include", "hooks": [{"type": "command", "command": str(script)}]}
        ]
    }
    h = await make_agent([], claude_settings={"hooks": hooks})
    events = h.events(InstructionsLoadedEvent)
    assert [(e.file_path, e.memory_type, e.load_reason, e.parent_file_path) for e in events] == [
        (str(user), "User", "session_start", None),
        (str(main), "Project", "session_start", None),
        (str(extra), "Project", "include", str(main)),
    ]
    [seen] = [json.loads(line) for line in record.read_text().splitlines() if line.strip()]
    assert seen["hook_event_name"] == "InstructionsLoaded"
    assert seen["file_path"] == str(extra)
    assert seen["memory_type"] == "Project"
    assert seen["load_reason"] == "include"
    assert seen["parent_file_path"] == str(main)

    await h.agent.start("compact")
    reasons = [e.load_reason for e in h.events(InstructionsLoadedEvent)[3:]]
    assert reasons == ["compact", "compact", "include"]
