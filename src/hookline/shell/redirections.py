"""Redirections read from the syntax tree, and the heredocs and herestrings that feed stdin.

A heredoc or herestring is kept by the identity of its :class:`Redirection`, so that
a shell reading its script from stdin (``bash <<'EOF'``) is given that text.
"""

from __future__ import annotations

from tree_sitter import Node

from hookline.shell.model import Redirection
from hookline.shell.words import EXPANSION_TYPES, Script, Word, WordReader, unescape_heredoc

#: Node types that are redirections.
REDIRECT_TYPES = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})

#: what a heredoc or herestring feeds to stdin, by ``id`` of its Redirection
StdinTexts = dict[int, tuple[Redirection, Script]]


def feeds_stdin(redirs: list[Redirection]) -> bool:
    """Whether a redirection feeds a command's stdin (``< f``, ``<<<``, ``<<``, ``<&3``)."""
    return any(r.fd in (None, 0) and r.op.startswith("<") and r.op != "<>" for r in redirs)


def read_redirections(
    node: Node, reader: WordReader, stdin: StdinTexts, extra: list[Word]
) -> list[Redirection]:
    """The redirections of one redirect node; words tree-sitter hung on it after the
    target (``> f x``) are command words, added to ``extra``; what a heredoc or a
    herestring feeds to stdin is kept in ``stdin``."""
    fd: int | None = None
    op = ""
    target_nodes: list[Node] = []
    nested: list[Redirection] = []
    for child in node.children:
        kind = child.type
        if kind == "file_descriptor":
            text = reader.text(child)
            fd = int(text) if text.isdigit() and len(text) < 6 else None
        elif not child.is_named and not op and kind not in ('"',):
            op = kind
        elif node.type == "file_redirect" and child.is_named and op:
            target_nodes.append(child)
        elif kind in REDIRECT_TYPES:
            nested.extend(read_redirections(child, reader, stdin, extra))
    if node.type == "heredoc_redirect":
        redirection = Redirection(op, None, fd)
        _keep_stdin(stdin, redirection, _heredoc_script(node, reader))
        return [redirection, *nested]
    if node.type == "herestring_redirect":
        redirection = Redirection(op, None, fd)
        content = [c for c in node.children if c.is_named]
        if content:
            word = reader.words(content)[0] if reader.words(content) else None
            if word is not None:
                _keep_stdin(stdin, redirection, Script(word.value + "\n", [word]))
        return [redirection, *nested]
    if node.type != "file_redirect" or not target_nodes:
        return [Redirection(op, None, fd), *nested]
    words = reader.words(target_nodes)
    target = words[0] if words else None
    extra.extend(words[1:])
    if target is None:
        return [Redirection(op, None, fd), *nested]
    # bash expands a glob in a redirect target (``> out.tx?`` writes ``out.txt``)
    return [Redirection(op, target.value, fd, target.expands or target.glob), *nested]


def _keep_stdin(stdin: StdinTexts, redirection: Redirection, script: Script | None) -> None:
    if script is not None:
        stdin[id(redirection)] = (redirection, script)


def _heredoc_script(node: Node, reader: WordReader) -> Script | None:
    """A heredoc body as the text stdin receives (``bash <<EOF`` runs it)."""
    start = body = None
    dash = False
    for child in node.children:
        kind = child.type
        if kind == "heredoc_start":
            start = child
        elif kind == "heredoc_body":
            body = child
        elif kind == "<<-":
            dash = True
    if start is None or body is None:
        return None
    raw = reader.text(body)
    quoted = any(c in reader.text(start) for c in "'\"\\")
    expands = not quoted and any(c.type in EXPANSION_TYPES for c in body.children)
    text = raw if quoted else unescape_heredoc(raw)
    if dash:
        text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
    return Script(text, [Word(text, expands, False, body.start_byte, body.end_byte)])


def stdin_script(redirs: list[Redirection], stdin: StdinTexts) -> Script | None:
    """The heredoc or herestring that is a command's stdin, if the last input redirect."""
    found: Script | None = None
    for redirection in redirs:
        if redirection.fd not in (None, 0) or not redirection.op.startswith("<"):
            continue
        entry = stdin.get(id(redirection))
        found = entry[1] if entry is not None and entry[0] is redirection else None
    return found
