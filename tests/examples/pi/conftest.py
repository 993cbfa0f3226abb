"""The ports of pi's examples run in a real agent: ``make_agent`` from the agent tests."""

from tests.agent.conftest import make_agent

__all__ = ["make_agent"]
