"""``hookline.shell.parse_command``: what each simple command reports, construct by construct."""

from __future__ import annotations

import ast
import doctest
import sys
import threading
from pathlib import Path
from types import ModuleType

import pytest

import hookline
import hookline.shell
import hookline.shell.model
import hookline.shell.parse
from hookline.shell import (
    MAX_LENGTH,
    MAX_SCRIPT_DEPTH,
    ParsedCommandLine,
    Redirection,
    ShellParseError,
    SimpleCommand,
    parse_command,
)


def only(line: str) -> SimpleCommand:
    result = parse_command(line)
    assert not result.unparsable, result.problems
    assert len(result.commands) == 1, result.commands
    return result.commands[0]


def argvs(line: str) -> list[list[str]]:
    return [c.argv for c in parse_command(line).commands]


# --- the public surface


def test_public_names_are_reexported() -> None:
    assert hookline.parse_command is parse_command
    for name in ("ParsedCommandLine", "SimpleCommand", "Redirection", "ShellParseError"):
        assert name in hookline.__all__


def test_design_example() -> None:
    result = parse_command("FOO=1 sudo rm -rf -- '/x' && echo $(rm -rf /y)")
    assert isinstance(result, ParsedCommandLine)
    assert not result.unparsable and result.problems == ()
    assert [c.argv for c in result.commands] == [
        ["rm", "-rf", "--", "/x"],
        ["echo", "$(rm -rf /y)"],
        ["rm", "-rf", "/y"],
    ]
    first = result.commands[0]
    assert first.program == "rm" and first.name == "rm"
    assert first.args == ["-rf", "--", "/x"]
    assert first.assignments == {"FOO": "1"}
    assert first.wrappers == ["sudo"]
    assert first.dynamic is False
    echo = result.commands[1]
    assert echo.dynamic and echo.dynamic_words == [False, True] and not echo.program_dynamic


def test_empty_whitespace_and_comments_have_no_commands() -> None:
    for line in ("", "   ", "\n\t\n", "# just a comment", "  # x\n# y\n"):
        result = parse_command(line)
        assert result.commands == () and not result.unparsable, line


def test_non_str_input_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expects str"):
        parse_command(b"ls")  # type: ignore[arg-type]


def test_strict_raises_with_the_reasons() -> None:
    with pytest.raises(ShellParseError) as caught:
        parse_command("echo 'abc", strict=True)
    assert caught.value.problems and "syntax error" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert parse_command("echo ok", strict=True).commands[0].argv == ["echo", "ok"]


def test_unparsable_still_lists_what_parsed() -> None:
    """Callers fail closed on ``unparsable``; deny checks may still use the partial list."""
    result = parse_command("rm -rf / ; echo 'unterminated")
    assert result.unparsable
    assert ["rm", "-rf", "/"] in [c.argv for c in result.commands]


# --- names, words and quoting


def test_program_keeps_its_path_and_name_is_the_basename() -> None:
    command = only("/usr/bin/rm -f x")
    assert command.program == "/usr/bin/rm" and command.name == "rm"
    assert command.argv[0] == command.program


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("r\\m x", ["rm", "x"]),
        ("'rm' 'a b'", ["rm", "a b"]),
        ('"rm" "a \\"b\\" \\$c \\d"', ["rm", 'a "b" $c \\d']),
        ('r""m x', ["rm", "x"]),
        ("$'rm' $'a\\tb' $'\\x41\\102\\u00e9'", ["rm", "a\tb", "ABé"]),
        ("$'a\\0b'", ["a"]),
        ("echo a\\ b", ["echo", "a b"]),
        ("echo 'it'\\''s'", ["echo", "it's"]),
        ("echo ~/x *.py", ["echo", "~/x", "*.py"]),
        ('echo "line\\\nnext"', ["echo", "linenext"]),
        ('echo $"hi"', ["echo", "hi"]),
    ],
)
def test_words_are_unquoted(line: str, argv: list[str]) -> None:
    assert only(line).argv == argv


def test_dynamic_words_keep_their_text() -> None:
    result = parse_command('rm -rf "$HOME" ${DIR}/x $(pwd) `pwd` $((1+2)) plain')
    command = result.commands[0]
    assert [c.argv for c in result.commands[1:]] == [["pwd"], ["pwd"]]
    assert command.argv == [
        "rm",
        "-rf",
        "$HOME",
        "${DIR}/x",
        "$(pwd)",
        "`pwd`",
        "$((1+2))",
        "plain",
    ]
    assert command.dynamic_words == [False, False, True, True, True, True, True, False]
    assert command.dynamic and not command.program_dynamic


def test_globs_are_static_arguments_but_a_dynamic_program() -> None:
    assert only("ls *.py [ab].txt").dynamic_words == [False, False, False]
    command = only("/bin/r? x")
    assert command.program_dynamic and command.dynamic
    assert only("'/bin/r?' x").program_dynamic is False  # quoted: no glob


def test_brace_expansion_is_dynamic_but_a_lone_pair_is_not() -> None:
    assert only("echo {a,b} {1..3} {}").dynamic_words == [False, True, True, False]


def test_assignments_are_recorded_and_skipped() -> None:
    command, date = parse_command("A=1 B='two words' C= D=$(date) make all").commands
    assert date.argv == ["date"]
    assert command.program == "make"
    assert command.assignments == {"A": "1", "B": "two words", "C": "", "D": "$(date)"}


def test_declarations_are_commands() -> None:
    command = parse_command("export A=$(id) B").commands[0]
    assert command.argv == ["export", "A=$(id)", "B"]
    assert command.dynamic_words == [False, True, False]
    assert argvs("unset -f x") == [["unset", "-f", "x"]]


# --- redirections and writes


def test_redirections_with_ops_fds_and_targets() -> None:
    command = only("cmd < in > out 2>> err &> both >| clobber 2>&1 >&-")
    assert command.redirections == [
        Redirection("<", "in", None),
        Redirection(">", "out", None),
        Redirection(">>", "err", 2),
        Redirection("&>", "both", None),
        Redirection(">|", "clobber", None),
        Redirection(">&", "1", 2),
        Redirection(">&-", None, None),
    ]
    assert command.writes == ("out", "err", "both", "clobber")
    assert only('cat <<< "s"').redirections == [Redirection("<<<", None, None)]


def test_writes_exclude_dev_null_and_fd_dups() -> None:
    assert only("echo hi 2>&1 >/dev/null").writes == ()
    assert only("echo hi > out.txt").writes == ("out.txt",)
    assert only('echo > "a b.txt"').writes == ("a b.txt",)
    assert only("echo >&log.txt").writes == ("log.txt",)  # >&word is &>word in bash


def test_dynamic_redirect_target_is_marked() -> None:
    (redirection,) = only("echo hi > $OUT").redirections
    assert redirection.dynamic and redirection.target == "$OUT"
    assert only("echo hi > $OUT").writes == ("$OUT",)


def test_heredoc_has_no_target_and_keeps_its_other_redirections() -> None:
    command = parse_command("cat <<EOF > out.txt\nhello\nEOF").commands[0]
    assert command.redirections == [Redirection("<<", None, None), Redirection(">", "out.txt")]
    assert command.writes == ("out.txt",)


def test_a_redirect_after_a_list_belongs_to_its_last_command() -> None:
    """``a && b > f`` and ``a | b > f``: tree-sitter hangs the redirect on the list."""
    for line in ("a && b > f", "a | b > f", "a; b > f"):
        first, second = parse_command(line).commands
        assert first.writes == () and second.writes == ("f",), line


def test_a_group_redirect_reaches_every_command_inside() -> None:
    result = parse_command("{ echo a; echo b; } > out; (ls) 2> err")
    assert [c.writes for c in result.commands] == [("out",), ("out",), ("err",)]


def test_a_redirect_with_no_command_is_still_reported() -> None:
    (bare,) = parse_command("> truncated.txt").commands
    assert bare.program == "" and bare.argv == [] and bare.writes == ("truncated.txt",)
    result = parse_command("[[ -f x ]] > made.txt")
    assert "made.txt" in result.writes


def test_redirections_of_a_wrapper_reach_its_script() -> None:
    result = parse_command("bash -c 'echo hi' > out.txt")
    assert [c.argv for c in result.commands] == [["echo", "hi"]]
    assert result.commands[0].writes == ("out.txt",)
    assert parse_command("bash -c '' > out.txt").writes == ("out.txt",)


def test_a_process_substitution_target_is_not_a_file_write() -> None:
    result = parse_command("echo hi > >(tee log)")
    assert result.writes == ()
    assert ["tee", "log"] in [c.argv for c in result.commands]
    assert parse_command("echo hi > '>(x)'").writes == (">(x)",)  # quoted: a real file


def test_reading_a_file_in_a_substitution_is_reported() -> None:
    result = parse_command("echo $(<secret.txt)")
    assert [c.redirections for c in result.commands if not c.argv] == [
        [Redirection("<", "secret.txt")]
    ]


def test_a_comment_hides_nothing_it_should_not() -> None:
    assert argvs("echo hi # ; rm x") == [["echo", "hi"]]
    assert argvs("echo hi #; rm x\nrm y") == [["echo", "hi"], ["rm", "y"]]


def test_words_after_a_redirect_target_are_arguments() -> None:
    """tree-sitter hangs ``> f x y`` all on the redirect; bash passes ``x y`` to the command."""
    command = only("rm >/dev/null -rf /")
    assert command.argv == ["rm", "-rf", "/"] and command.writes == ()
    assert only("rm 2> 'a b' c").argv == ["rm", "c"]
    assert only("> f x y").argv == ["x", "y"]
    assert argvs("a && b > f c") == [["a"], ["b", "c"]]
    result = parse_command("{ a; } > f c")  # a syntax error in bash
    assert result.unparsable and "compound" in result.problems[0]


def test_fd_words_glued_to_a_redirect_are_not_arguments() -> None:
    assert only("cat 0<&3").argv == ["cat"]


# --- spans


def test_spans_are_character_offsets_into_the_text() -> None:
    line = "echo héllo > ü.txt && rm 'ö'"
    result = parse_command(line)
    assert [line[slice(*c.span)] for c in result.commands] == ["echo héllo > ü.txt", "rm 'ö'"]


def test_span_of_a_wrapped_command_starts_at_its_program() -> None:
    line = "FOO=1 sudo -u root rm -rf x"
    (command,) = parse_command(line).commands
    assert line[slice(*command.span)] == "rm -rf x"


def test_span_of_a_script_command_is_the_script_word() -> None:
    line = "echo ä; bash -c 'cd / && rm x'"
    result = parse_command(line)
    inner = [c for c in result.commands if c.wrappers == ["bash -c"]]
    assert [c.argv for c in inner] == [["cd", "/"], ["rm", "x"]]
    assert {line[slice(*c.span)] for c in inner} == {"'cd / && rm x'"}


# --- wrappers


@pytest.mark.parametrize(
    ("line", "wrappers"),
    [
        ("sudo rm x", ["sudo"]),
        ("sudo bash -c 'rm x'", ["sudo", "bash -c"]),
        ("timeout 5 nice -n 2 rm x", ["timeout", "nice"]),
        ("env A=1 rm x", ["env"]),
        ("eval rm x", ["eval"]),
        ("xargs rm", ["xargs"]),
        ("env -S 'rm x'", ["env -S"]),
        ("bash -c \"sh -c 'rm x'\"", ["bash -c", "sh -c"]),
    ],
)
def test_wrappers_are_listed_outermost_first(line: str, wrappers: list[str]) -> None:
    rm = [c for c in parse_command(line).commands if c.name == "rm"]
    assert rm and rm[0].wrappers == wrappers


def test_wrapper_argvs_give_each_wrapper_as_written() -> None:
    (rm,) = parse_command("sudo -u root timeout 5 bash -c 'nice rm x'").commands
    assert rm.wrappers == ["sudo", "timeout", "bash -c", "nice"]
    assert rm.wrapper_argvs == [
        ["sudo", "-u", "root", "timeout", "5", "bash", "-c", "nice rm x"],
        ["timeout", "5", "bash", "-c", "nice rm x"],
        ["bash", "-c", "nice rm x"],
        ["nice", "rm", "x"],
    ]
    assert only("rm x").wrapper_argvs == []


def test_env_assignments_and_options() -> None:
    result = parse_command("env -i -u PATH A=1 B='x y' rm x")
    (rm,) = result.commands
    assert rm.argv == ["rm", "x"] and rm.assignments == {"A": "1", "B": "x y"}
    assert argvs("env -C /tmp --unset=HOME ls") == [["ls"]]


def test_a_wrapper_that_runs_nothing_is_the_command() -> None:
    for line in ("sudo -l", "env", "command -v rm", "sudo -e /etc/hosts", "xargs", "nohup", "bash"):
        result = parse_command(line)
        assert [c.argv for c in result.commands] == [line.split()], line


def test_find_is_a_command_and_runs_each_exec() -> None:
    result = parse_command("find . -name '*.o' -exec rm {} \\; -execdir chmod +x {} +")
    assert [c.argv for c in result.commands] == [
        [
            "find",
            ".",
            "-name",
            "*.o",
            "-exec",
            "rm",
            "{}",
            ";",
            "-execdir",
            "chmod",
            "+x",
            "{}",
            "+",
        ],
        ["rm", "{}"],
        ["chmod", "+x", "{}"],
    ]
    assert all(c.dynamic for c in result.commands[1:])  # {} is filled in at run time


def test_xargs_command_gets_arguments_at_run_time() -> None:
    (rm,) = parse_command("xargs -0 -n1 rm -f").commands
    assert rm.argv == ["rm", "-f"] and rm.dynamic and not rm.program_dynamic


def test_shell_scripts_are_parsed_and_other_shell_uses_are_not() -> None:
    assert argvs("bash -lc 'ls; pwd'") == [["ls"], ["pwd"]]
    assert argvs("bash -x -c 'ls' name arg") == [["ls"]]
    assert argvs("bash script.sh arg") == [["bash", "script.sh", "arg"]]
    assert argvs("sh -s < script.sh") == [["sh", "-s"]]
    assert argvs("bash -o pipefail -c ls") == [["ls"]]


def test_a_shell_reading_a_heredoc_or_herestring_runs_it() -> None:
    assert argvs("bash <<'EOF'\nls -l\nEOF") == [["ls", "-l"]]
    assert argvs('sh <<< "ls; pwd"') == [["ls"], ["pwd"]]
    (ls,) = parse_command("bash <<EOF\nls\nEOF").commands
    assert ls.wrappers == ["bash stdin"]
    # stdin from a file, or a later redirect replacing the herestring: not analysable text
    assert argvs("bash < script.sh") == [["bash"]]
    assert argvs("bash <<< 'ls' < script.sh") == [["bash"]]
    assert argvs("cat <<< 'rm x'") == [["cat"]]
    result = parse_command("bash <<EOF\n$CMD\nEOF")
    assert result.unparsable and "not static" in result.problems[0]


def test_an_empty_script_reports_the_shell_itself() -> None:
    assert argvs("bash -c ''") == [["bash", "-c", ""]]


def test_a_script_that_is_not_static_is_unparsable_and_keeps_the_shell() -> None:
    result = parse_command('bash -c "$SCRIPT"')
    assert result.unparsable and "not static" in result.problems[0]
    assert [c.argv for c in result.commands] == [["bash", "-c", "$SCRIPT"]]


def test_eval_joins_its_arguments() -> None:
    assert argvs("eval 'ls -l' '&&' pwd") == [["ls", "-l"], ["pwd"]]


def test_coproc_group_finds_the_command_and_is_unparsable() -> None:
    result = parse_command("coproc NAME { rm x; }")
    assert ["rm", "x"] in [c.argv for c in result.commands]
    assert result.unparsable and "group" in result.problems[0]


def test_trap_is_a_command_and_its_action_is_parsed() -> None:
    assert argvs("trap 'rm -f lock' EXIT") == [["trap", "rm -f lock", "EXIT"], ["rm", "-f", "lock"]]
    assert argvs("trap - EXIT") == [["trap", "-", "EXIT"]]


# --- limits


def test_scripts_nested_too_deep_are_unparsable() -> None:
    line = "eval " * (MAX_SCRIPT_DEPTH + 2) + "rm x"
    result = parse_command(line)
    assert result.unparsable and "deeper" in result.problems[0]
    shallow = parse_command("eval " * (MAX_SCRIPT_DEPTH - 1) + "rm x")
    assert not shallow.unparsable and ["rm", "x"] in [c.argv for c in shallow.commands]


def test_syntax_nested_too_deep_is_unparsable() -> None:
    result = parse_command("echo " + "$(" * 400 + "rm x" + ")" * 400)
    assert result.unparsable and "nested deeper" in result.problems[0]


def test_text_over_the_length_cap_is_unparsable() -> None:
    result = parse_command("echo " + "a" * MAX_LENGTH)
    assert result.unparsable and result.commands == ()
    assert "longer than" in result.problems[0]


def test_many_commands_are_all_found() -> None:
    line = "; ".join(f"echo {i}" for i in range(2000))
    result = parse_command(line)
    assert len(result.commands) == 2000 and not result.unparsable


def test_each_thread_gets_its_own_parser() -> None:
    errors: list[BaseException] = []
    seen: list[list[list[str]]] = []

    def work(n: int) -> None:
        try:
            for i in range(200):
                seen.append([c.argv for c in parse_command(f"echo {n} {i} && rm x{n}").commands])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(seen) == 800 and all(len(argv) == 2 for argv in seen)


def test_the_package_imports_only_the_standard_library_and_tree_sitter() -> None:
    """``hookline.shell`` is the bottom layer: hooks can use it without the agent."""
    imported = set()
    for path in Path(hookline.shell.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    outside = {
        name.split(".")[0]
        for name in imported
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
        and not name.startswith("hookline.shell.")
    }
    assert outside == {"tree_sitter", "tree_sitter_bash"}


def test_the_module_documentation_examples_hold() -> None:
    failed, tried = doctest.testmod(hookline.shell)
    assert tried >= 3 and failed == 0


@pytest.mark.parametrize("module", [hookline.shell.model, hookline.shell.parse])
def test_the_api_reference_examples_hold(module: ModuleType) -> None:
    """The examples the API reference shows are run: they cannot drift from the code."""
    failed, tried = doctest.testmod(module)
    assert tried >= 1 and failed == 0


def test_a_program_is_registered_once() -> None:
    """Two functions for one program would hide one of them: the registry refuses."""
    from hookline.shell.wrappers import PROGRAMS, program

    assert "sudo" in PROGRAMS
    with pytest.raises(ValueError, match="'sudo' is registered twice"):
        program("sudo")(lambda words: None)
