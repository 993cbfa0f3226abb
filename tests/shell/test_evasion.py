"""An evasion corpus: each line hides a command somewhere; ``parse_command`` must find it.

Each row is a command line and the argv lists that must appear among its
commands (more may appear). The lines try the ways a shell runs a command
that a prefix test on the whole line would miss: separators, substitutions,
control flow, wrappers, ``-c`` scripts and ``eval``, and quoting tricks.
"""

from __future__ import annotations

import pytest

from hookline.shell import parse_command

CORPUS: list[tuple[str, list[list[str]]]] = [
    # separators and pipes
    ("echo hi; rm -rf x", [["echo", "hi"], ["rm", "-rf", "x"]]),
    ("echo hi && rm x", [["echo", "hi"], ["rm", "x"]]),
    ("echo hi || rm x", [["rm", "x"]]),
    ("echo hi & rm x", [["rm", "x"]]),
    ("echo x |& rm y", [["rm", "y"]]),
    ("echo hi\nrm x", [["rm", "x"]]),
    ("echo hi\r\nrm x", [["rm", "x"]]),
    ("! rm x", [["rm", "x"]]),
    # substitutions
    ("echo $(rm x)", [["rm", "x"]]),
    ("echo `rm x`", [["rm", "x"]]),
    ('echo "$(rm x)"', [["rm", "x"]]),
    ('echo "a `rm x` b"', [["rm", "x"]]),
    ("cat <(rm x)", [["cat", "<(rm x)"], ["rm", "x"]]),
    ("tee >(rm x)", [["rm", "x"]]),
    ("echo ${x:-$(rm y)}", [["rm", "y"]]),
    ("cat <<EOF\n$(rm x)\nEOF", [["cat"], ["rm", "x"]]),
    ("cat <<-EOF\n$(rm x)\n\tEOF", [["rm", "x"]]),
    ("cat <<<$(rm x)", [["rm", "x"]]),
    ("[[ $(rm x) ]]", [["rm", "x"]]),
    ('[ -f "$(rm x)" ]', [["rm", "x"]]),
    ("x=$(rm y)", [["rm", "y"]]),
    ("a=(1 $(rm y))", [["rm", "y"]]),
    ("export A=$(rm y)", [["rm", "y"]]),
    ("echo > $(rm x)", [["rm", "x"]]),
    ("echo $(echo $(echo $(rm deep)))", [["rm", "deep"]]),
    # control flow and functions
    ("{ rm x; }", [["rm", "x"]]),
    ("(rm x)", [["rm", "x"]]),
    ("if true; then rm x; fi", [["true"], ["rm", "x"]]),
    ("if rm x; then :; fi", [["rm", "x"]]),
    ("if false; then :; elif rm x; then :; else rm y; fi", [["rm", "x"], ["rm", "y"]]),
    ("for f in a; do rm $f; done", [["rm", "$f"]]),
    ("for f in $(rm x); do :; done", [["rm", "x"]]),
    ("while true; do rm x; done", [["rm", "x"]]),
    ("until rm x; do :; done", [["rm", "x"]]),
    ("case a in a) rm x;; esac", [["rm", "x"]]),
    ("case $(rm x) in *) :;; esac", [["rm", "x"]]),
    ("f() { rm x; }; f", [["rm", "x"], ["f"]]),
    ("function g { rm x; }", [["rm", "x"]]),
    ("select x in a; do rm x; done", [["rm", "x"]]),
    ("while read l; do rm $l; done < list", [["rm", "$l"]]),
    # wrappers
    ("env -i FOO=1 rm x", [["rm", "x"]]),
    ("env -u HOME -C /tmp rm x", [["rm", "x"]]),
    ("env - rm x", [["rm", "x"]]),
    ("env -S 'rm -rf /'", [["rm", "-rf", "/"]]),
    ("timeout 5 rm x", [["rm", "x"]]),
    ("timeout -s KILL 5 rm x", [["rm", "x"]]),
    ("timeout --kill-after=1 --preserve-status 5s rm x", [["rm", "x"]]),
    ("sudo rm x", [["rm", "x"]]),
    ("sudo -u root rm x", [["rm", "x"]]),
    ("sudo -uroot -E FOO=1 rm x", [["rm", "x"]]),
    ("sudo --user=root -- rm x", [["rm", "x"]]),
    ("doas -u root rm x", [["rm", "x"]]),
    ("nice -n 5 rm x", [["rm", "x"]]),
    ("nice -5 rm x", [["rm", "x"]]),
    ("nohup rm x &", [["rm", "x"]]),
    ("time rm x", [["rm", "x"]]),
    ("time -p rm x", [["rm", "x"]]),
    ("stdbuf -oL rm x", [["rm", "x"]]),
    ("stdbuf -o L -e 0 rm x", [["rm", "x"]]),
    ("command rm x", [["rm", "x"]]),
    ("command -p rm x", [["rm", "x"]]),
    ("builtin cd x", [["cd", "x"]]),
    ("exec rm x", [["rm", "x"]]),
    ("exec -a name rm x", [["rm", "x"]]),
    ("xargs rm", [["rm"]]),
    ("xargs -0 rm", [["rm"]]),
    ("xargs -n 1 -I{} rm {}", [["rm", "{}"]]),
    ("find . -name '*.o' -exec rm {} \\;", [["rm", "{}"]]),
    ("find . -exec rm {} +", [["rm", "{}"]]),
    ("find . -execdir rm {} ';'", [["rm", "{}"]]),
    ("find . -ok rm {} \\; -okdir shred {} \\;", [["rm", "{}"], ["shred", "{}"]]),
    ("ionice -c3 rm x", [["rm", "x"]]),
    ("chrt -f 10 rm x", [["rm", "x"]]),
    ("setsid -f rm x", [["rm", "x"]]),
    ("flock /tmp/lock rm x", [["rm", "x"]]),
    ("flock -w 5 /tmp/lock -c 'rm x'", [["rm", "x"]]),
    ("watch -n 1 rm x", [["rm", "x"]]),
    ("busybox rm x", [["rm", "x"]]),
    ("coproc rm x", [["rm", "x"]]),
    ("trap 'rm x' EXIT", [["rm", "x"]]),
    ("chroot /mnt rm x", [["rm", "x"]]),
    ("taskset -c 1 rm x", [["rm", "x"]]),
    ("unbuffer rm x", [["rm", "x"]]),
    ("fakeroot -- rm x", [["rm", "x"]]),
    ("strace -f -o log rm x", [["rm", "x"]]),
    ("su - root -c 'rm x'", [["rm", "x"]]),
    ("su -lc 'rm x'", [["rm", "x"]]),
    ("echo > >(rm x)", [["rm", "x"]]),
    ("echo a#b; rm x", [["rm", "x"]]),
    ("sudo nice -n 1 timeout 5 env A=1 nohup rm x", [["rm", "x"]]),
    ("/usr/bin/sudo /usr/bin/env rm x", [["rm", "x"]]),
    # scripts
    ("bash -c 'rm -rf /'", [["rm", "-rf", "/"]]),
    ('sh -lc "rm x"', [["rm", "x"]]),
    ("bash -ec 'rm x'", [["rm", "x"]]),
    ("bash -e -o pipefail -c 'rm x'", [["rm", "x"]]),
    ("bash --norc -c 'rm x'", [["rm", "x"]]),
    ("zsh -c 'rm x'", [["rm", "x"]]),
    ("dash -c 'rm x'", [["rm", "x"]]),
    ("ksh -c 'rm x'", [["rm", "x"]]),
    ("/bin/sh -c 'echo a; rm x'", [["echo", "a"], ["rm", "x"]]),
    ("bash -c \"bash -c 'rm x'\"", [["rm", "x"]]),
    ("sudo bash -c 'rm x'", [["rm", "x"]]),
    ("su -c 'rm x' root", [["rm", "x"]]),
    ('eval "rm x"', [["rm", "x"]]),
    ("eval rm x", [["rm", "x"]]),
    ("eval 'echo a;' 'rm x'", [["rm", "x"]]),
    ("eval 'eval \"rm x\"'", [["rm", "x"]]),
    ("bash -c 'echo $(rm x)'", [["rm", "x"]]),
    ("xargs sh -c 'rm $1'", [["rm", "$1"]]),
    ("find . -exec bash -c 'rm x' \\;", [["rm", "x"]]),
    ("bash <<'EOF'\nrm x\nEOF", [["rm", "x"]]),
    ("bash <<EOF\nrm x\nEOF", [["rm", "x"]]),
    ('sh <<< "rm x"', [["rm", "x"]]),
    ("sudo bash -s <<< 'rm x'", [["rm", "x"]]),
    # quoting and escapes
    ("r\\m x", [["rm", "x"]]),
    ("'rm' x", [["rm", "x"]]),
    ('"rm" x', [["rm", "x"]]),
    ('"r"m x', [["rm", "x"]]),
    ('r""m x', [["rm", "x"]]),
    ("r''m x", [["rm", "x"]]),
    ("$'rm' x", [["rm", "x"]]),
    ("$'\\x72m' x", [["rm", "x"]]),
    ("$'\\162m' x", [["rm", "x"]]),
    ("$'\\u0072m' x", [["rm", "x"]]),
    ('$"rm" x', [["rm", "x"]]),
    ("\\r\\m x", [["rm", "x"]]),
    ("r\\\nm x", [["rm", "x"]]),
    ("rm -r\\\nf /", [["rm", "-rf", "/"]]),
    ("rm x\\\ny", [["rm", "xy"]]),
    ('"/bin/rm" x', [["/bin/rm", "x"]]),
    ("FOO=bar rm x", [["rm", "x"]]),
    ("FOO='a b' BAR=$(id) rm x", [["rm", "x"], ["id"]]),
    ("/bin/rm x", [["/bin/rm", "x"]]),
    ("echo héllo; rm ü", [["rm", "ü"]]),
]


@pytest.mark.parametrize(("line", "expected"), CORPUS, ids=[repr(c[0])[:50] for c in CORPUS])
def test_every_hidden_command_is_found(line: str, expected: list[list[str]]) -> None:
    result = parse_command(line)
    found = [command.argv for command in result.commands]
    for argv in expected:
        assert argv in found, f"{line!r}: {argv} not in {found}"
    assert not result.unparsable, result.problems


#: Commands hidden in arithmetic on a run-time value: still found, and the line is unparsable,
#: because bash evaluates that value as arithmetic and a subscript in it runs ``$(…)``.
ARITHMETIC_CORPUS: list[tuple[str, list[list[str]]]] = [
    ("echo $(( $(rm x) ))", [["rm", "x"]]),
    ("(( $(rm x) ))", [["rm", "x"]]),
    ("for ((i=0; i<1; i++)); do rm x; done", [["rm", "x"]]),
    ("a[$(rm x)]=1", [["rm", "x"]]),
    ("echo ${a[$(rm x)]}", [["rm", "x"]]),
]


@pytest.mark.parametrize(("line", "expected"), ARITHMETIC_CORPUS)
def test_commands_in_arithmetic_are_found_and_the_line_is_unparsable(
    line: str, expected: list[list[str]]
) -> None:
    result = parse_command(line)
    found = [command.argv for command in result.commands]
    for argv in expected:
        assert argv in found, f"{line!r}: {argv} not in {found}"
    assert result.problems and all("arithmetic" in p for p in result.problems), result.problems


def test_the_corpus_is_large() -> None:
    assert len(CORPUS) + len(ARITHMETIC_CORPUS) >= 60


DYNAMIC_PROGRAMS = [
    "$CMD -rf /",
    "${CMD} x",
    '"$CMD" x',
    "$(echo rm) x",
    "`echo rm` x",
    "sudo $CMD x",
    "env A=1 $CMD x",
    "r{m,} x",
    "/bin/r? x",
    "/???/rm x",
    "/bin/[r]m x",
    "$'\\x72'$m x",
]


@pytest.mark.parametrize("line", DYNAMIC_PROGRAMS)
def test_a_program_decided_at_run_time_is_dynamic(line: str) -> None:
    """``$CMD -rf /`` must never look like a known program a rule could allow."""
    result = parse_command(line)
    first = result.commands[0]  # the outer command comes before its substitutions
    assert first.program_dynamic and first.dynamic, first


@pytest.mark.parametrize(
    "line",
    [
        "echo ${x:=`rm y`}",
        'echo "${x:-`rm y`}"',
        "cat <<EOF\n`rm y`\nEOF",
        "cat <<-EOF\n\t$(ls) `rm y`\n\tEOF",
        "cat <<-EOF\n\t$(rm y)\n\tEOF",
    ],
)
def test_a_substitution_the_grammar_misreads_is_found_and_unparsable(line: str) -> None:
    """tree-sitter reads a backtick inside ``${…}`` as a plain word; bash runs it."""
    result = parse_command(line)
    assert ["rm", "y"] in [c.argv for c in result.commands]
    assert result.unparsable
    assert "substitution" in result.problems[0]


UNPARSABLE = [
    "echo 'abc",
    'echo "abc',
    "echo $(rm x",
    "if true; then rm x",
    "rm x )",
    "case x in",
    'bash -c "$SCRIPT"',
    "sh -c $X",
    "eval $X",
    'eval "rm $(cat f)"',
    "bash <<EOF\n$CMD\nEOF",
    "bash -c 'echo \"x'",
    "cat <<EOF\nno end",
    "{rm,-rf,/}",
    "coproc { rm x; }",
    "coproc NAME { rm x; }",
]


@pytest.mark.parametrize("line", UNPARSABLE)
def test_what_cannot_be_analysed_is_unparsable(line: str) -> None:
    result = parse_command(line)
    assert result.unparsable and result.problems, result
