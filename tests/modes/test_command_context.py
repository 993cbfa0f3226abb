"""A slash command's ``ctx`` after ``ctx.new_session()`` (in-process, no subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

from hookline.agent.setup import AgentOptions, build_agent

from .helpers import write_hook, write_script

HOOK = """
    import json

    def register(pi):
        @pi.register_command("handoff")
        async def handoff(args, ctx):
            before = ctx.session_file
            await ctx.new_session()
            seen = [before, ctx.session_file, ctx.session_manager.get_session_file()]
            with open(RECORD, "w") as f:
                json.dump(seen, f)
"""


async def test_command_ctx_follows_the_new_session(tmp_path: Path) -> None:
    record = tmp_path / "seen.json"
    hook = write_hook(tmp_path / "handoff.py", HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["ok"])
    bundle = await build_agent(AgentOptions(cwd=str(tmp_path), model=model, hook_paths=[str(hook)]))
    agent = bundle.agent
    try:
        await agent.start()
        old = agent.session.get_session_file()
        assert await bundle.runner.run_command("handoff")
        new = agent.session.get_session_file()
        assert new is not None and new != old
        assert bundle.runner.context.session_file == new  # the shared context moved on
        assert json.loads(record.read_text()) == [old, new, new]  # ... and so should ctx
    finally:
        await agent.shutdown()
