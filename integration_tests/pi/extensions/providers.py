"""The provider of ``providers.ts``, registered from a hookline hook."""

from __future__ import annotations

import os

from hookline import HookAPI


def register(pi: HookAPI) -> None:
    pi.register_provider(
        "ext-loop",
        {
            "base_url": os.environ["EXT_BASE_URL"],
            "api_key": "EXT_KEY",
            "api": "openai-completions",
            "models": [
                {
                    "id": "ext-model",
                    "name": "Ext Model",
                    "input": ["text"],
                    "cost": {"input": 1, "output": 2},
                    "context_window": 4096,
                    "max_tokens": 1024,
                }
            ],
        },
    )
