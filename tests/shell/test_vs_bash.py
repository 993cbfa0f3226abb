"""``parse_command`` against the real bash: what bash runs is what the parser reports.

A ``probe`` program on ``PATH`` logs each argv it is started with. Each line is
run with ``bash -c`` in a temp folder, and the probe's log must equal the
``probe`` commands ``parse_command`` reports (program name and arguments,
quoting and escapes removed the way bash removes them). Lines are chosen so
that every ``probe`` the parser lists really runs.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from hookline.shell import parse_command

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

PROBE = """#!/bin/sh
# one record, written at once: probes in a pipeline run at the same time
record=$(printf '%s\\037' "$(basename "$0")" "$@"; printf '\\036')
printf '%s' "$record" >> "$PROBE_LOG"
"""

LINES = [
    "probe a 'b c' \"d e\" f\\ g",
    "pro\\be x",
    "'probe' x",
    '"pro"be x',
    'p""robe x',
    "$'\\x70robe' x",
    "probe $'a\\tb' $'\\101\\x42\\u0043'",
    'probe "a\\"b" "c\\$d" "e\\f"',
    "probe 'it'\\''s'",
    "pro\\\nbe x",
    "probe -r\\\nf /",
    "probe {} '*' \\*",
    'probe $"hi"',
    "echo hi; probe x",
    "true && probe x",
    "false || probe x",
    "echo x | probe y",
    "echo $(probe x)",
    "echo `probe x`",
    'echo "$(probe x)"',
    "cat <(probe x)",
    "{ probe x; }",
    "(probe x)",
    "if true; then probe x; fi",
    "while ! probe x; do :; done",
    "case a in a) probe x;; esac",
    "f() { probe x; }; f",
    "echo ${unset_var:-$(probe y)}",
    "cat <<EOF\n$(probe x)\nEOF",
    "[[ $(probe x) ]]",
    "A=1 B='x y' probe x",
    "env -u FOO A=1 probe x",
    "env -S 'probe a b' c",
    "timeout 5 probe x",
    "timeout -s KILL 5 probe x",
    "nice -n 5 probe x",
    "nohup probe x",
    "command probe x",
    "exec probe x",
    "stdbuf -oL probe x",
    "setsid -w probe x",
    "flock lockfile probe x",
    "flock lockfile -c 'probe x'",
    "bash -c 'probe x'",
    "sh -c \"probe 'a b'\"",
    "bash -ec 'probe x; probe y'",
    "bash -o pipefail -c 'probe x | probe y'",
    "dash -c 'probe x'",
    "bash -c \"bash -c 'probe x'\"",
    'eval "probe x"',
    "eval probe 'a b'",
    "eval 'probe x;' 'probe y'",
    "timeout 5 nice -n 1 env A=1 bash -c 'probe x'",
    "echo x > out.txt; probe y 2>&1 >/dev/null",
    "bash <<'EOF'\nprobe a 'b c'\nEOF",
    "bash <<EOF\nprobe \\\\x 'y z'\nEOF",
    "bash <<-EOF\n\t\tprobe x\n\tEOF",
    'sh <<< "probe x; probe y"',
    "bash -s arg <<< 'probe x'",
    "probe x >/dev/null y z",
    "probe 2>/dev/null x",
    "> out.txt probe x y",
    "probe <<EOF > out.txt a b\nhello\nEOF",
    "true && probe > out.txt c",
    "probe 0<&0 x",
]


@pytest.fixture
def probe_env(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    probe = bin_dir / "probe"
    probe.write_text(PROBE)
    probe.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "PROBE_LOG": str(tmp_path / "probe.log"),
        "HOME": str(tmp_path),
        "LC_ALL": "C.UTF-8",
    }
    return env


def _bash_runs(line: str, env: dict[str, str], cwd: Path) -> list[list[str]]:
    log = Path(env["PROBE_LOG"])
    log.unlink(missing_ok=True)
    subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", line],
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=20,
        check=False,
    )
    if not log.exists():
        return []
    records = log.read_text(encoding="utf-8").split("\x1e")
    return [record.split("\x1f")[:-1] for record in records if record]


@pytest.mark.parametrize("line", LINES)
def test_the_parser_reports_what_bash_runs(
    line: str, probe_env: dict[str, str], tmp_path: Path
) -> None:
    ran = _bash_runs(line, probe_env, tmp_path)
    assert ran, f"bash did not run the probe for {line!r}"
    result = parse_command(line)
    assert not result.unparsable, result.problems
    reported = [[c.name, *c.args] for c in result.commands if c.name == "probe" and not c.dynamic]
    assert sorted(reported) == sorted(ran), line


#: Arithmetic on a command's output: bash evaluates that output, so the line is unparsable.
IN_ARITHMETIC = ["echo $(( $(probe 1) + 1 ))", "(( $(probe 1) ))"]


@pytest.mark.parametrize("line", IN_ARITHMETIC)
def test_commands_in_arithmetic_are_reported_and_the_line_is_unparsable(
    line: str, probe_env: dict[str, str], tmp_path: Path
) -> None:
    ran = _bash_runs(line, probe_env, tmp_path)
    assert ran, f"bash did not run the probe for {line!r}"
    result = parse_command(line)
    assert result.problems and all("arithmetic" in p for p in result.problems), result.problems
    reported = [[c.name, *c.args] for c in result.commands if c.name == "probe" and not c.dynamic]
    assert sorted(reported) == sorted(ran), line


def test_the_log_format_survives_odd_arguments(probe_env: dict[str, str], tmp_path: Path) -> None:
    """The probe itself is sound: newlines and empty arguments arrive intact."""
    assert _bash_runs("probe '' 'a\nb'", probe_env, tmp_path) == [["probe", "", "a\nb"]]


# --- random lines: every probe bash runs must be reported (or the line is unparsable)

NAMES = [
    "probe",
    "'probe'",
    '"probe"',
    "p\\robe",
    'pr""obe',
    "$'\\x70robe'",
    '"pr"obe',
    "pro\\\nbe",
    "\\probe",
    "$'pro'be",
]
ARGS = ["a", "'b c'", '"d e"', "f\\ g", "$'h\\ti'", '"j\\"k"', "-rf", "/", "--", "'$x'", "{}"]
WRAPPERS = [
    "timeout 5",
    "nice -n 1",
    "env A=1",
    "env -u X",
    "command",
    "nohup",
    "stdbuf -oL",
    "setsid -w",
    "B=2",
]


def _command(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        args = " ".join(rng.choice(ARGS) for _ in range(rng.randint(0, 3)))
        return f"{rng.choice(NAMES)} {args}".rstrip()
    inner = _command(rng, depth - 1)
    shape = rng.randrange(21)
    if shape == 0:
        return f"{rng.choice(WRAPPERS)} {inner}"
    if shape == 1:
        return f"bash -c {shlex.quote(inner)}"
    if shape == 2 and "$'" not in inner:  # sh is dash here: no $'…' (see the module doc)
        return f"sh -c {shlex.quote(inner)}"
    if shape == 3:
        return f"eval {shlex.quote(inner)}"
    if shape == 4:
        return f"echo $({inner})"
    if shape == 5 and "`" not in inner:
        return f"echo `{inner}`"
    if shape == 6:
        return f"{{ {inner}; }}"
    if shape == 7:
        return f"({inner})"
    if shape == 8:
        return f"if true; then {inner}; fi"
    if shape == 9:
        return f"{inner} && {_command(rng, depth - 1)}"
    if shape == 10:
        return f"{inner} | cat"
    if shape == 11:
        return f"for i in 1; do {inner}; done"
    if shape == 12:
        return f"case a in a) {inner};; esac"
    if shape == 13:
        return f"cat <<EOF\n$({inner})\nEOF"
    if shape == 14:
        return f"cat <({inner})"
    if shape == 15:
        return f"A=$({inner}) true"
    if shape == 16:
        return f"f() {{ {inner}; }}; f"
    if shape == 17:
        return f"xargs -0 {inner} < /dev/null"
    if shape == 18:
        return f"find . -maxdepth 0 -exec {inner} ';'"
    if shape == 19:
        return f"echo ${{unset:-$({inner})}}"
    return f"echo x; {inner}"


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_hide_nothing_bash_runs(
    seed: int, probe_env: dict[str, str], tmp_path: Path
) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        line = _command(rng, 4)
        ran = _bash_runs(line, probe_env, tmp_path)
        result = parse_command(line)
        if result.unparsable:
            continue
        reported = [[c.name, *c.args] for c in result.commands if not c.dynamic]
        run_time_args = {c.name for c in result.commands if c.dynamic and not c.program_dynamic}
        for argv in ran:
            assert argv in reported or argv[0] in run_time_args, (
                f"{line!r}: bash ran {argv}, parser saw {reported}"
            )
