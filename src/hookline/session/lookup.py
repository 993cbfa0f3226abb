"""Finding the session file ``--resume ID`` names: a path, a full id or an id's prefix."""

from __future__ import annotations

import glob
import os
from pathlib import Path

from hookline.core.paths import hookline_home
from hookline.session.errors import SessionError
from hookline.session.listing import SessionInfo, list_session_infos
from hookline.session.storage import project_slug, sessions_dir

_SHOWN = 10  # candidates listed in an ambiguity error


class SessionNotFoundError(SessionError):
    """No session, or more than one, answers to what ``--resume`` was given."""


def find_session(cwd: str | os.PathLike[str], ref: str) -> str:
    """The path of the session ``ref`` names: a session file, or an id or its prefix.

    The project's sessions are searched first, then every other project's: an id
    is unique across projects, a prefix found here beats one found elsewhere.
    """
    if os.sep in ref or ref.endswith(".jsonl") or ref.startswith("~"):
        path = Path(cwd, os.path.expanduser(ref))
        if not path.is_file():
            raise SessionNotFoundError(f"no session file {path}")
        return str(path)
    project = str(Path(cwd).resolve())
    here = [i for i in list_session_infos(sessions_dir(cwd, None)) if i.cwd == project]
    for infos in (here, _other_projects(cwd, ref)):
        exact = [i for i in infos if i.id == ref]
        matches = exact or [i for i in infos if i.id.startswith(ref)]
        if len(matches) == 1:
            return matches[0].path
        if matches:
            raise SessionNotFoundError(_ambiguous(ref, matches))
    raise SessionNotFoundError(
        f"no session id starts with {ref!r}; /resume in the app lists this project's "
        f"sessions, their files are in {sessions_dir(cwd, None)}"
    )


def _other_projects(cwd: str | os.PathLike[str], ref: str) -> list[SessionInfo]:
    """Other projects' sessions whose file name carries an id starting with ``ref``."""
    root = hookline_home() / "sessions"
    own = project_slug(cwd)
    pattern = str(root / "*" / f"*_{glob.escape(ref)}*.jsonl")
    folders = {Path(p).parent for p in glob.glob(pattern) if Path(p).parent.name != own}
    return [i for folder in sorted(folders) for i in list_session_infos(folder)]


def _ambiguous(ref: str, matches: list[SessionInfo]) -> str:
    lines = [f"{ref!r} is the start of {len(matches)} session ids; give more of it:"]
    for info in matches[:_SHOWN]:
        label = info.name or info.first_message or "(no messages)"
        lines.append(f"  {info.id}  {label[:60]}")
    if len(matches) > _SHOWN:
        lines.append(f"  … and {len(matches) - _SHOWN} more")
    return "\n".join(lines)
