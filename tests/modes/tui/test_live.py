"""The streaming answer's live tail: rendered a block at a time, equal to a whole render's
tail, and only its open block rendered again as text arrives; in the real app, a long
answer streamed in small pieces ends on the screen exactly as the same answer unstreamed."""

from __future__ import annotations

import re
from pathlib import Path

from hookline.core.theme import theme_by_name
from hookline.modes.tui import render
from hookline.modes.tui.live import LiveAnswer, split_blocks
from tests.fakes.llm_servers import FakeOpenAIServer, FakeReply
from tests.modes.helpers import write_script

from .pane import Pane

DARK = theme_by_name("dark")

#: Every kind of block, and the ways blank lines sit inside some.
DOC = """# Title

Some *intro* text with `code` and a [link](http://x).

## Section two

- item one
- item two
  continued

1. first
2. second

```python
def f(x):

    return x * 2
```

> a quote
> still

| a | b |
|---|---|
| 1 | 2 |

- loose one

- loose two

Text after.

    indented code

    more indented

~~~
tilde fence

```
not closing
~~~

Last words *here*.

"""
LINES = 12
WIDTH = 100


def _whole_tail(text: str) -> str:
    """The tail as a render of the whole live source shows it."""
    ansi = render.to_ansi(render.markdown(render.live_source(text)), WIDTH, DARK)
    return "\n".join(ansi.rstrip("\n").split("\n")[-LINES:])


def test_the_live_tail_is_the_tail_of_a_whole_render_at_every_cut() -> None:
    live = LiveAnswer(LINES)
    doc = DOC * 3
    checked = 0
    for cut in range(1, len(doc), 5):
        text = doc[:cut]
        if re.search(r"(?m)^#+ *\Z", text):
            continue  # a heading's marker with no words yet: rich draws one blank line
        assert live.tail(text, WIDTH, DARK) == _whole_tail(text), repr(text[-80:])
        checked += 1
    assert checked > 100


def test_only_the_open_block_is_rendered_again() -> None:
    live = LiveAnswer(LINES)
    text = "\n\n".join(f"Paragraph {i} with *some* words." for i in range(30))
    live.tail(text, WIDTH, DARK)
    assert live.rendered > 1  # the first tail renders what it shows
    live.tail(text + " More", WIDTH, DARK)
    assert live.rendered == 1  # the finished paragraphs came from the cache
    live.tail(text + " More\n\nA new one", WIDTH, DARK)
    assert live.rendered == 2  # the paragraph just finished, and the new open one
    live.tail(text + " More\n\nA new one, longer", WIDTH, DARK)
    assert live.rendered == 1
    live.tail(text, WIDTH + 10, DARK)
    assert live.rendered > 1  # another width: everything shown is rendered anew


def test_blocks_split_at_blank_lines_outside_fences_lists_and_indents() -> None:
    assert split_blocks("a\nb\n\nc") == ["a\nb", "c"]
    assert split_blocks("```\nx\n\ny\n```\n\nz") == ["```\nx\n\ny\n```", "z"]
    assert split_blocks("~~~~\n```\n\n~~~\n\nstill\n~~~~") == ["~~~~\n```\n\n~~~\n\nstill\n~~~~"]
    assert split_blocks("- a\n\n- b\n\n  more\n\nafter") == ["- a\n\n- b\n\n  more", "after"]
    assert split_blocks("1. a\n\n2) b") == ["1. a\n\n2) b"]
    assert split_blocks("    x\n\n    y\n\n\n\nz") == ["    x\n\n    y", "z"]
    assert split_blocks("") == [""]
    assert split_blocks("open\n\n") == ["open"]


def _answer_region(scrollback: str, prompt: str) -> list[str]:
    """The printed answer: the lines after the prompt's line, up to the app's rule."""
    lines = scrollback.split("\n")
    rules = [i for i, line in enumerate(lines) if line.startswith("────")]
    asked = [i for i, line in enumerate(lines) if line.startswith("› " + prompt)]
    if not rules or not asked or asked[0] > rules[-1]:
        return []  # not sent yet: only the editor holds it
    return [line.rstrip() for line in lines[asked[0] + 1 : rules[-1]]]


def _printed(scrollback: str) -> bool:
    """The answer is printed whole and nothing is live any more."""
    region = _answer_region(scrollback, "whole")
    return bool(region) and region[-1] == "Last words here." and "Working" not in scrollback


def test_a_long_answer_streamed_in_small_pieces_ends_as_the_unstreamed_render(
    tmp_path: Path,
) -> None:
    answer = (DOC * 4).strip()
    project = tmp_path / "project"
    project.mkdir()
    model = write_script(tmp_path / "script.json", [answer])
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        pane.ready()
        pane.type("whole")
        pane.keys("Enter")
        whole = _answer_region(pane.wait_for(_printed, whole=True), "whole")
    assert "Last words here." in whole[-1] and len(whole) > 100
    with FakeOpenAIServer() as fake:
        fake.add(FakeReply(text=answer, chunk_chars=7, event_delay=0.002))
        args = ("--model", "openai:fake-model", "--base-url", fake.base_url, "--no-session")
        with Pane(tmp_path, *args, cwd=project) as pane:
            pane.ready()
            pane.type("whole")
            pane.keys("Enter")
            pane.wait_for("Title")  # streaming: the live tail is up
            streamed = _answer_region(pane.wait_for(_printed, whole=True), "whole")
    assert streamed == whole


def test_the_live_area_builds_its_lines_once_per_change(tmp_path: Path) -> None:
    """A frame asks the live area for its content many times: the same text gives the
    same content, built once; a new text (the same words in a new list) builds anew."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hookline.modes.tui.live_area import StableText

    shown: list[tuple[str, str]] = [("", "first line\nsecond")]
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        control = StableText(lambda: shown)
        content = control.create_content(40, None)
        assert content.line_count == 2
        assert control.create_content(40, None) is content
        assert control.create_content(30, None) is not content  # another width
        shown = [("", "first line\nsecond\nthird")]
        assert control.create_content(30, None).line_count == 3
