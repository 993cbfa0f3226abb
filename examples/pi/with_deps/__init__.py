"""With deps: a hook that imports a dependency of its own, shipped beside it.

The Python version of pi's with-deps example, whose extension brings npm's ``ms`` in
its own ``node_modules``. A Python hook that needs a library hookline's environment
lacks is a package (a folder with ``__init__.py``: ``--hook`` loads that file as a
package) that keeps the library in a ``_vendor`` folder and imports it relatively,
``from ._vendor.ms import ms``, as pip keeps ``pip._vendor``: nothing is installed, and
two hooks with two versions of one library never meet, since each copy lives under its
own hook's module name. (A third-party package copied there, e.g. with
``pip install --target _vendor``, has its own absolute imports made relative.)
A hook installed as a distribution declares its dependencies in its ``pyproject.toml``
instead, and pip installs them with it.

The tool ``parse_duration`` turns ``2 days``, ``1h`` or ``5m`` into milliseconds.

Run it: ``hookline --hook examples/pi/with_deps``.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field

from hookline import HookAPI, Tool, ToolError, ToolResult, ToolUpdate

from ._vendor.ms import ms


class DurationParams(BaseModel):
    duration: str = Field(description="Duration string like '2 days', '1h', '5m'")


async def parse_duration(
    tool_call_id: str,
    params: dict[str, str],
    signal: asyncio.Event | None = None,
    on_update: ToolUpdate | None = None,
) -> ToolResult:
    duration = params["duration"]
    result = ms(duration)
    if result is None:
        raise ToolError(f'Invalid duration: "{duration}"')
    return ToolResult([{"type": "text", "text": f"{duration} = {result} milliseconds"}], {})


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "parse_duration",
            "Parse a human-readable duration string (e.g., '2 days', '1h', '5m') to milliseconds",
            DurationParams,
            parse_duration,
            label="Parse Duration",
        )
    )
