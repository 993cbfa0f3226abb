"""hookline's logging set-up in-process: levels, what each line looks like, where it goes.

The command-line behaviour (real ``hookline`` processes, a terminal through a
pty) is in ``test_logging_cli.py``.
"""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hookline._logging import LEVELS, LogConfigError, choose_level, configure_logging, source
from hookline.agent.setup import AgentOptions, build_agent
from hookline.discovery import loader

Configure = Callable[..., None]


@pytest.fixture
def configure() -> Iterator[Configure]:
    """``configure_logging`` undone after the test, whatever it asserted."""
    undo: list[Callable[[], None]] = []

    def run(level: int, **kwargs: object) -> None:
        undo.append(configure_logging(level, **kwargs))  # type: ignore[arg-type]

    yield run
    for step in reversed(undo):
        step()


# -- the level ---------------------------------------------------------------


def test_the_default_is_warning() -> None:
    assert choose_level({}) == logging.WARNING
    assert choose_level({"HOOKLINE_LOG": "  "}) == logging.WARNING


@pytest.mark.parametrize("name", ["debug", "info", "warning", "error", "DEBUG", " Info "])
def test_hookline_log_names_a_level(name: str) -> None:
    assert choose_level({"HOOKLINE_LOG": name}) == LEVELS[name.strip().lower()]


def test_flags_override_the_variable() -> None:
    assert choose_level({"HOOKLINE_LOG": "debug"}, quiet=True) == logging.ERROR
    assert choose_level({"HOOKLINE_LOG": "error"}, verbose=True) == logging.DEBUG


@pytest.mark.parametrize("value", ["bogus", "warn", "10", "critical"])
def test_a_bad_level_names_the_variable_and_the_valid_values(value: str) -> None:
    with pytest.raises(LogConfigError) as caught:
        choose_level({"HOOKLINE_LOG": value})
    assert str(caught.value) == (
        f"HOOKLINE_LOG={value!r} is not a log level; use one of: debug, info, warning, error"
    )


def test_a_bad_level_is_an_error_even_under_a_flag() -> None:
    """A typo must not wait until the flag is dropped to be noticed."""
    with pytest.raises(LogConfigError):
        choose_level({"HOOKLINE_LOG": "bogus"}, quiet=True)


# -- what is shown, and how --------------------------------------------------


def test_hooklines_notices_keep_their_known_form(
    configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(logging.DEBUG, rich=False)
    log = logging.getLogger("hookline.agent")
    log.warning("project /p is not trusted")
    log.info("hook /h.py (cli) loaded: tool_call")
    log.debug("model scripted:x")
    log.error("hook /h.py failed on agent_start: boom")
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "hookline: project /p is not trusted",
        "hookline: hook /h.py (cli) loaded: tool_call",
        "hookline: debug: model scripted:x",
        "hookline: error: hook /h.py failed on agent_start: boom",
    ]


def test_the_level_hides_what_is_below_it(
    configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(logging.ERROR, rich=False)
    log = logging.getLogger("hookline.mcp")
    log.warning("server x: not started")
    log.error("it broke")
    assert capsys.readouterr().err == "hookline: error: it broke\n"


def test_other_libraries_stay_at_warning_under_debug(
    configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    """HOOKLINE_LOG=debug is hookline's and the hooks' debug, not every library's chatter."""
    configure(logging.DEBUG, rich=False)
    lib = logging.getLogger("somelib.wire")
    lib.debug("bytes sent")
    lib.info("connected")
    lib.warning("retrying")
    assert capsys.readouterr().err == "hookline: somelib.wire: warning: retrying\n"


def test_a_lookalike_name_is_not_hooklines(
    configure: Configure, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(logging.DEBUG, rich=False)
    logging.getLogger("hooklinex").info("not ours")
    logging.getLogger("hooklinex").warning("shown as theirs")
    assert capsys.readouterr().err == "hookline: hooklinex: warning: shown as theirs\n"


def test_records_go_to_the_stderr_of_the_moment(configure: Configure) -> None:
    """The terminal app swaps ``sys.stderr`` while it runs; lines follow it."""
    configure(logging.WARNING, rich=True)
    first, second = io.StringIO(), io.StringIO()
    saved = sys.stderr
    try:
        sys.stderr = first
        logging.getLogger("hookline.x").warning("one")
        sys.stderr = second
        logging.getLogger("hookline.x").warning("two")
    finally:
        sys.stderr = saved
    # A stand-in for stderr is never a terminal: plain lines, no rich.
    assert (first.getvalue(), second.getvalue()) == ("hookline: one\n", "hookline: two\n")


def test_undo_removes_the_handler_and_restores_the_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    undo = configure_logging(logging.DEBUG, rich=False)
    assert root.level == logging.DEBUG and len(root.handlers) == len(handlers) + 1
    undo()
    assert (root.handlers, root.level) == (handlers, level)
    logging.getLogger("hookline.x").error("after undo")
    assert "hookline: error: after undo" not in capsys.readouterr().err


# -- hook modules' own loggers -----------------------------------------------

HOOK = """\
import logging

log = logging.getLogger(__name__)
child = logging.getLogger(__name__ + ".detail")


def register(pi):
    log.warning("guard ready")
    log.info("guard info")
    log.debug("guard debug")
    child.warning("from a child logger")
"""


def _load_hook(tmp_path: Path) -> Path:
    hook = tmp_path / "guard.py"
    hook.write_text(HOOK)
    loaded = loader.load_hook_file(str(hook))
    assert not isinstance(loaded, loader.LoadError), loaded
    return hook


def test_a_hook_modules_records_name_its_file(
    configure: Configure, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    configure(logging.WARNING, rich=False)
    hook = _load_hook(tmp_path)
    assert capsys.readouterr().err.splitlines() == [
        f"hookline: hook {hook}: warning: guard ready",
        f"hookline: hook {hook}: warning: from a child logger",
    ]


def test_a_hook_module_follows_the_chosen_level(
    configure: Configure, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    configure(logging.DEBUG, rich=False)
    hook = _load_hook(tmp_path)
    err = capsys.readouterr().err
    assert f"hookline: hook {hook}: info: guard info" in err
    assert f"hookline: hook {hook}: debug: guard debug" in err


def test_source_names_who_logged() -> None:
    assert source("hookline") is None and source("hookline.claude") is None
    assert source("httpx") == "httpx"
    # A hook module's name without its module (unloaded since) still says it was a hook.
    name = loader.MODULE_PREFIX + "ghost_0123456789ab"
    assert name not in sys.modules
    assert source(name) == f"hook {name}"


def test_the_log_file_keeps_time_level_and_who(configure: Configure, tmp_path: Path) -> None:
    path = tmp_path / "hookline.log"
    configure(logging.INFO, rich=False, log_file=str(path))
    logging.getLogger("hookline.agent").info("settings read")
    hook = _load_hook(tmp_path)
    lines = path.read_text().splitlines()
    assert lines[0].endswith(" INFO hookline.agent: settings read")
    assert lines[0][:4].isdigit()  # starts with the date
    assert any(line.endswith(f" WARNING hook {hook}: guard ready") for line in lines)
    assert not any("guard debug" in line for line in lines)


def test_an_unusable_log_file_is_a_clear_error(tmp_path: Path) -> None:
    root = logging.getLogger()
    handlers = list(root.handlers)
    target = tmp_path / "missing" / "x.log"
    with pytest.raises(LogConfigError) as caught:
        configure_logging(logging.INFO, log_file=str(target))
    assert f"HOOKLINE_LOG_FILE={target}: cannot open it" in str(caught.value)
    assert root.handlers == handlers  # nothing half-installed


def test_rich_is_not_imported_to_write_plain_lines() -> None:
    """A warning to a pipe costs no rich import (start-up time is a product goal)."""
    code = (
        "import logging, sys\n"
        "from hookline._logging import configure_logging\n"
        "configure_logging(logging.WARNING)\n"
        "logging.getLogger('hookline.x').warning('piped')\n"
        "print('rich' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert (done.stdout, done.stderr) == ("False\n", "hookline: piped\n")


# -- the agent's notices -----------------------------------------------------


def _untrusted_project_with_hooks(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".hookline" / "hooks").mkdir(parents=True)
    return project


async def test_build_agent_without_a_stream_logs_its_notices(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    project = _untrusted_project_with_hooks(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="hookline"):
        bundle = await build_agent(AgentOptions(cwd=str(project), no_session=True))
    bundle.agent.session.close()
    notices = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert (
        "hookline.agent",
        logging.WARNING,
        f"project {project} is not trusted: its hooks and settings hooks are skipped "
        f"(run `hookline trust {project}` or pass --trust-project)",
    ) in notices
    assert ("hookline.agent", logging.DEBUG, f"project {project}: not trusted") in notices


async def test_build_agent_with_a_stream_writes_there_and_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An embedder that passes ``stderr=`` keeps the notices on its stream."""
    project = _untrusted_project_with_hooks(tmp_path)
    err = io.StringIO()
    with caplog.at_level(logging.INFO, logger="hookline"):
        bundle = await build_agent(AgentOptions(cwd=str(project), no_session=True), stderr=err)
    bundle.agent.session.close()
    assert f"hookline: project {project} is not trusted" in err.getvalue()
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []
