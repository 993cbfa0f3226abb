"""Options a program was given, read as getopt reads them (``-abc``, ``-ovalue``, ``--x=y``)."""

from __future__ import annotations

from dataclasses import dataclass

from hookline.shell.words import Script, Word


@dataclass(slots=True)
class Option:
    """One option a wrapper was given; ``word`` is the word its value came from."""

    name: str
    value: str | None = None
    word: Word | None = None

    def script(self) -> Script | None:
        if self.value is None or self.word is None:
            return None
        return Script(self.value, [self.word])


def scan_options(
    words: list[Word],
    start: int,
    short_value: str = "",
    long_value: frozenset[str] = frozenset(),
) -> tuple[int, list[Option]]:
    """getopt-style scan from ``start``: the index of the first operand and the options seen."""
    found: list[Option] = []
    i = start
    n = len(words)
    while i < n:
        word = words[i].value
        if word == "--":
            return i + 1, found
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word.partition("=")
            if eq:
                found.append(Option(name, value, words[i]))
            elif name in long_value and i + 1 < n:
                found.append(Option(name, words[i + 1].value, words[i + 1]))
                i += 1
            else:
                found.append(Option(name))
            i += 1
            continue
        if word.startswith("-") and len(word) > 1:
            for j in range(1, len(word)):
                letter = word[j]
                if letter in short_value:
                    if j + 1 < len(word):
                        found.append(Option("-" + letter, word[j + 1 :], words[i]))
                    elif i + 1 < n:
                        i += 1
                        found.append(Option("-" + letter, words[i].value, words[i]))
                    else:
                        found.append(Option("-" + letter))
                    break
                found.append(Option("-" + letter))
            i += 1
            continue
        return i, found
    return i, found


def option_names(found: list[Option]) -> set[str]:
    return {option.name for option in found}
