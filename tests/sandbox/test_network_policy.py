"""``DomainPolicy`` and ``canonical_host``: the lists matched as Claude Code matches them,
and no second spelling of a host that slips past a rule."""

from __future__ import annotations

import pytest

from hookline.sandbox.network import DomainPolicy, canonical_host, proxy_env


@pytest.mark.parametrize(
    ("host", "canonical"),
    [
        ("Example.COM", "example.com"),
        ("example.com.", "example.com"),
        (" example.com ", "example.com"),
        ("under_score.example.com", "under_score.example.com"),
        ("127.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("[::1]", "::1"),
        ("::FFFF:127.0.0.1", "127.0.0.1"),
        ("0:0:0:0:0:0:0:1", "::1"),
        ("", None),
        (".", None),
        ("example..com", None),
        ("-bad.example.com", None),
        ("exa mple.com", None),
        ("example.com/x", None),
        ("evil.com\x00.example.com", None),
        ("1.2.3.4 junk", None),
        ("256.1.1.1", None),
        ("fe80::1%eth0", None),
        ("bücher.example", None),  # a client sends punycode
        ("a" * 64 + ".com", None),
    ],
)
def test_canonical_host(host: str, canonical: str | None) -> None:
    assert canonical_host(host) == canonical


ALLOWED = ("github.com", "*.npmjs.org", "10.0.0.1", "api.example.com:443", "[::1]:8080")


@pytest.mark.parametrize(
    ("host", "port", "verdict"),
    [
        ("github.com", 443, "allow"),
        ("GitHub.com.", 22, "allow"),  # an entry without a port matches every port
        ("api.github.com", 443, "ask"),  # exact means exact
        ("registry.npmjs.org", 443, "allow"),
        ("a.b.npmjs.org", 443, "allow"),
        ("npmjs.org", 443, "ask"),  # the wildcard does not match the apex (as Claude Code)
        ("evilnpmjs.org", 443, "ask"),
        ("npmjs.org.evil.com", 443, "ask"),
        ("10.0.0.1", 80, "allow"),
        ("10.1", 80, "allow"),  # the resolver reads 10.1 as 10.0.0.1, and so does the policy
        ("api.example.com", 443, "allow"),
        ("api.example.com", 80, "ask"),  # the port limits the entry
        ("::1", 8080, "allow"),
        ("::1", 8081, "ask"),
        ("not a host", 80, "deny"),
    ],
)
def test_allowed_domains(host: str, port: int, verdict: str) -> None:
    assert DomainPolicy(allowed=ALLOWED).decide(host, port) == verdict


def test_denied_beats_allowed() -> None:
    policy = DomainPolicy(allowed=("*.example.com", "example.com"), denied=("bad.example.com",))
    assert policy.decide("good.example.com") == "allow"
    assert policy.decide("bad.example.com") == "deny"
    assert policy.decide("BAD.example.com.") == "deny"
    assert policy.decide("x.bad.example.com") == "allow"  # deny "bad.example.com" is exact
    assert DomainPolicy(denied=("*.example.com",)).decide("x.bad.example.com") == "deny"


@pytest.mark.parametrize("spelling", ["127.0.0.1", "127.1", "0x7f000001", "[::ffff:127.0.0.1]"])
def test_a_denied_ip_has_no_other_spelling(spelling: str) -> None:
    assert DomainPolicy(denied=("127.0.0.1",)).decide(spelling) == "deny"


def test_a_wildcard_never_matches_an_ip() -> None:
    assert DomainPolicy(allowed=("*.0.0.1",)).decide("127.0.0.1") == "ask"


def test_unusable_entries_are_listed() -> None:
    policy = DomainPolicy(allowed=("*", "a.*.com", "ok.com", "*.1.2.3.4"), denied=("x:99999",))
    assert policy.unusable() == ["*", "a.*.com", "*.1.2.3.4", "x:99999"]
    assert policy.decide("anything.com") == "ask"  # "*" allows nothing


def test_proxy_env_sends_everything_through_the_proxy() -> None:
    env = proxy_env()
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        assert env[name] == env[name.lower()] == "http://127.0.0.1:3128"
    assert env["NO_PROXY"] == env["no_proxy"] == ""
