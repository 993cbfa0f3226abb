"""Shell words as the program receives them: quotes removed, escapes and ``$'…'`` decoded.

A word whose value the shell decides at run time (``$VAR``, ``$(…)``, brace
expansion) keeps its text and is marked as expanding; a glob is kept as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

#: Node types whose text the shell replaces at run time.
EXPANSION_TYPES = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
    }
)
#: characters that make an unquoted word more than its text (escapes, globs, braces,
#: a substitution tree-sitter did not read as one)
_SPECIAL = re.compile(r"[\\*?\[{`$]")


@dataclass(slots=True)
class Word:
    """One shell word: its value, whether it expands at run time, whether it holds a glob."""

    value: str
    expands: bool
    glob: bool
    start: int
    end: int

    def dynamic_at(self, index: int) -> bool:
        return self.expands or (index == 0 and self.glob)


@dataclass(slots=True)
class Script:
    """Text a wrapper hands to a shell, and the words it came from (for span and staticness)."""

    text: str
    words: list[Word]


def snippet(text: str, limit: int = 60) -> str:
    """Text quoted in a problem: one line, cut short."""
    flat = text.replace("\n", "\\n")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


class WordReader:
    """Reads the words of one parsed script from its syntax tree."""

    __slots__ = ("ascii", "data", "problems")

    def __init__(self, text: str, data: bytes, problems: list[str]) -> None:
        self.data = data
        #: for ASCII text byte offsets are character offsets: slice the str, skip decoding
        self.ascii = text if len(text) == len(data) else None
        #: where a word tree-sitter cannot read is reported
        self.problems = problems

    def text(self, node: Node) -> str:
        if self.ascii is not None:
            return self.ascii[node.start_byte : node.end_byte]
        return decode(self.data[node.start_byte : node.end_byte])

    def between(self, start: int, end: int) -> str:
        """The text between two byte offsets."""
        return decode(self.data[start:end])

    def assignment(self, node: Node) -> tuple[str, Word]:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        name = self.text(name_node) if name_node is not None else ""
        if value_node is None:
            return name, Word("", False, False, node.end_byte, node.end_byte)
        return name, self.word(value_node)

    def words(self, nodes: list[Node]) -> list[Word]:
        """Shell words from argument nodes, joining what tree-sitter split but the shell does not
        (``r\\<newline>m`` is one word ``rm``; ``$"x"`` is ``x``), dropping ``0<&3``-style fds."""
        out: list[Word] = []
        data = self.data
        previous_end = -1
        for index, node in enumerate(nodes):
            if node.type == "$" and index + 1 < len(nodes) and nodes[index + 1].type == "string":
                continue
            word = self.word(node)
            if out and not data[previous_end : word.start].replace(b"\\\n", b""):
                last = out[-1]
                last.value += word.value
                last.expands = last.expands or word.expands
                last.glob = last.glob or word.glob
                last.end = word.end
            elif word.value.isdigit() and data[word.end : word.end + 1] in (b"<", b">"):
                pass  # ``cat 0<&3``: tree-sitter reads the ``0`` as an argument, bash as an fd
            else:
                out.append(word)
            previous_end = word.end
        return out

    def word(self, node: Node) -> Word:
        if node.type == "word":
            start, end = node.start_byte, node.end_byte
            raw = self.ascii[start:end] if self.ascii is not None else self.text(node)
            if _SPECIAL.search(raw) is None:
                return Word(raw, False, False, start, end)
        parts: list[str] = []
        flags = [False]  # expands
        skeleton: list[str] = []
        self._unquote(node, parts, flags, skeleton)
        value = "".join(parts)
        expands = flags[0]
        bare = "".join(skeleton)
        if not expands and "{" in bare:
            opening, closing = bare.find("{"), bare.rfind("}")
            if 0 <= opening < closing and (
                "," in bare[opening:closing] or ".." in bare[opening:closing]
            ):
                expands = True  # brace expansion: ``{rm,x}`` is two words
        return Word(value, expands, has_glob(bare), node.start_byte, node.end_byte)

    def _unquote(
        self, node: Node, parts: list[str], flags: list[bool], skeleton: list[str]
    ) -> None:
        kind = node.type
        if kind == "word":
            raw = self.text(node)
            if has_live_substitution(raw):
                self.problems.append(f"command substitution the parser cannot read: {snippet(raw)}")
            value, bare = _unescape_word(raw)
            parts.append(value)
            skeleton.append(bare)
        elif kind == "raw_string":
            parts.append(self.text(node)[1:-1])
            skeleton.append("\0")
        elif kind == "string":
            skeleton.append("\0")
            for child in node.children:
                ctype = child.type
                if ctype == "string_content":
                    parts.append(_unescape_double(self.text(child)))
                elif ctype == '"':
                    continue
                else:
                    parts.append(self.text(child))
                    if ctype in EXPANSION_TYPES or child.child_count:
                        flags[0] = True
        elif kind == "translated_string":  # $"…": a double-quoted string, translated
            for child in node.children:
                if child.type == "string":
                    self._unquote(child, parts, flags, skeleton)
        elif kind == "ansi_c_string":
            parts.append(_decode_ansi_c(self.text(node)[2:-1]))
            skeleton.append("\0")
        elif kind == "concatenation":
            for child in node.children:
                self._unquote(child, parts, flags, skeleton)
        elif kind in EXPANSION_TYPES:
            parts.append(self.text(node))
            skeleton.append("\0")
            flags[0] = True
        else:
            text = self.text(node)
            parts.append(text)
            skeleton.append(text if kind in ("number", "extglob_pattern") else "\0")
            if node.child_count and kind not in ("number",):
                flags[0] = True


def _unescape_word(raw: str) -> tuple[str, str]:
    """An unquoted word's value, and its text with escaped characters blanked (for globs)."""
    if "\\" not in raw:
        return raw, raw
    out: list[str] = []
    bare: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\" and i + 1 < n:
            nxt = raw[i + 1]
            if nxt != "\n":
                out.append(nxt)
                bare.append("\0")
            i += 2
            continue
        out.append(char)
        bare.append(char)
        i += 1
    return "".join(out), "".join(bare)


def has_glob(bare: str) -> bool:
    """Whether unquoted, unescaped text is a pathname pattern (``*``, ``?``, ``[…]``)."""
    if "*" in bare or "?" in bare:
        return True
    opening = bare.find("[")
    return opening >= 0 and "]" in bare[opening + 1 :]


def has_live_substitution(raw: str) -> bool:
    """True when an unquoted word's text holds a backtick or ``$(`` that no backslash escapes."""
    if "`" not in raw and "$(" not in raw:
        return False
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\":
            i += 2
            continue
        if char == "`" or (char == "$" and raw[i + 1 : i + 2] == "("):
            return True
        i += 1
    return False


def unescape_heredoc(raw: str) -> str:
    """In an unquoted heredoc a backslash escapes only ``$ ` \\`` and a newline."""
    return _unescape(raw, "$`\\\n")


def _unescape_double(raw: str) -> str:
    """Inside double quotes a backslash escapes only ``$ ` " \\`` and a newline."""
    return _unescape(raw, '$`"\\\n')


def _unescape(raw: str, escapable: str) -> str:
    """Drop the backslash before each character of ``escapable`` (a line continuation
    — backslash-newline — disappears altogether); other backslashes stay."""
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\" and i + 1 < n and raw[i + 1] in escapable:
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")


def _decode_ansi_c(body: str) -> str:
    """The value of ``$'…'`` as bash decodes it (``\\x72`` is ``r``, ``\\0`` ends the string)."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        char = body[i]
        if char != "\\" or i + 1 >= n:
            out.append(char)
            i += 1
            continue
        code = body[i + 1]
        i += 2
        if code in _ANSI_SIMPLE:
            out.append(_ANSI_SIMPLE[code])
        elif code in "01234567":
            digits = code
            while i < n and len(digits) < 3 and body[i] in "01234567":
                digits += body[i]
                i += 1
            out.append(chr(int(digits, 8) & 0xFF))
        elif code in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[code]
            digits = ""
            while i < n and len(digits) < limit and body[i] in _HEX:
                digits += body[i]
                i += 1
            if not digits:
                out.append("\\" + code)
            else:
                value = int(digits, 16)
                out.append(chr(value) if value < 0x110000 else "\ufffd")
        elif code == "c" and i < n:
            out.append(chr(ord(body[i]) & 0x1F))
            i += 1
        else:
            out.append("\\" + code)
    decoded = "".join(out)
    cut = decoded.find("\0")
    return decoded if cut < 0 else decoded[:cut]
