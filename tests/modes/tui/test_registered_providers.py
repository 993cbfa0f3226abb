"""A provider a hook registered, in the terminal app: ``/model`` offers its models, and
``/login`` (pi's) shows where to go, asks for the code and stores the login in
``auth.json``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .helpers import app

HOOK = """
import time

from hookline import OAuthCredentials


async def login(callbacks):
    callbacks.on_auth("http://127.0.0.1:9/authorize?client=x", "then paste the code")
    code = await callbacks.on_prompt("Paste the code:")
    return OAuthCredentials("refresh-" + code, "access-" + code, time.time() * 1000 + 1e6)


def register(pi):
    pi.register_provider("sso", {
        "base_url": "http://127.0.0.1:9", "api": "anthropic-messages",
        "models": [{"id": "sso-model-1"}],
        "oauth": {"name": "Corporate SSO", "login": login, "refresh_token": lambda c: c},
    })
"""


def test_login_shows_the_page_asks_for_the_code_and_stores_it(tmp_path: Path) -> None:
    with app(tmp_path, [], HOOK) as pane:
        pane.ready()
        pane.type("/login sso")
        pane.keys("Enter")
        pane.wait_all(["open http://127.0.0.1:9/authorize?client=x", "Paste the code:"])
        pane.type("abc123")
        pane.keys("Enter")
        pane.wait_for("logged in to Corporate SSO")
    stored = json.loads((Path(os.environ["HOOKLINE_HOME"]) / "auth.json").read_text())
    assert stored["sso"]["access"] == "access-abc123"
    assert stored["sso"]["type"] == "oauth" and stored["sso"]["refresh"] == "refresh-abc123"


def test_login_without_a_provider_offers_the_ones_with_a_login(tmp_path: Path) -> None:
    with app(tmp_path, [], HOOK) as pane:
        pane.ready()
        pane.type("/login")
        pane.keys("Enter")
        pane.wait_for("Corporate SSO (sso)")
        pane.keys("Enter")
        pane.wait_for("Paste the code:")
        pane.keys("Escape")
        pane.wait_for("login to sso failed: cancelled")


def test_model_offers_the_registered_models_and_switches_to_one(tmp_path: Path) -> None:
    hook = HOOK.replace(
        '"api": "anthropic-messages",', '"api": "anthropic-messages", "api_key": "k",'
    )
    with app(tmp_path, [], hook) as pane:
        pane.ready()
        pane.type("/model")
        pane.keys("Enter")
        pane.wait_for("sso-model-1 [sso]")
        pane.type("sso-model")
        pane.keys("Enter")
        pane.wait_for("model: sso:sso-model-1")
