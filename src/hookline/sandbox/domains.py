"""Host names and the lists that name them: ``sandbox.network.allowedDomains`` and
``deniedDomains`` as Claude Code reads them, and the one spelling of a host that both
the decision and the connection use."""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from hookline.settings.permission_rules.syntax import (
    PermissionRuleError,
    RuleOrigin,
    split_rule,
)

__all__ = ["DomainPolicy", "canonical_host", "host_and_port", "rule_domains"]

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")


def canonical_host(host: str) -> str | None:
    """The one spelling of ``host`` that policy and connection both use, or None when it
    is not a host name or IP literal.

    Lower case, no trailing dot, IPv6 without brackets in its compressed form, an
    IPv4-mapped IPv6 address as IPv4, and the legacy IPv4 forms the resolver accepts
    (``127.1``, ``0x7f.0.0.1``, ``2130706433``) as dotted quads — so a rule about
    ``127.0.0.1`` cannot be walked around by another spelling of it.
    """
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    elif name.endswith("."):
        name = name[:-1]
    if not name or len(name) > 253:
        return None
    if ":" in name:
        try:
            address = ipaddress.IPv6Address(name)
        except ValueError:
            return None
        if address.scope_id is not None:  # "fe80::1%eth0" names an interface of the host
            return None
        mapped = address.ipv4_mapped
        return str(mapped) if mapped is not None else address.compressed
    labels = name.split(".")
    if all(_NUMERIC_LABEL.fullmatch(label) for label in labels):
        try:
            return socket.inet_ntoa(socket.inet_aton(name))
        except OSError:
            return None
    if all(_LABEL.fullmatch(label) for label in labels):
        return name
    return None


def host_and_port(host: str, port: int) -> str:
    """``example.com:443``, ``[::1]:8080``: how a destination is shown to people."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class _Pattern:
    host: str  # canonical; for a wildcard, the suffix after "*."
    wildcard: bool
    port: int | None

    def matches(self, host: str, port: int | None) -> bool:
        if self.port is not None and port != self.port:
            return False
        if self.wildcard:
            return host.endswith("." + self.host) and not _is_ip(host)
        return host == self.host


def _pattern(entry: str) -> _Pattern | None:
    """``example.com``, ``*.example.com``, an IP literal, each with an optional ``:port``."""
    text = entry.strip()
    port: int | None = None
    head, sep, tail = text.rpartition(":")
    if sep and tail.isdigit() and (head.endswith("]") or ":" not in head):
        text, port = head, int(tail)
        if not 0 < port < 65536:
            return None
    wildcard = text.startswith("*.")
    host = canonical_host(text[2:] if wildcard else text)
    if host is None or (wildcard and _is_ip(host)):
        return None
    return _Pattern(host, wildcard, port)


@dataclass(frozen=True, slots=True)
class DomainPolicy:
    """``sandbox.network.allowedDomains`` and ``deniedDomains``, matched as Claude Code does.

    An entry is a host name (``example.com``), a wildcard (``*.example.com``: every name
    under it, NOT ``example.com`` itself — list both for both) or an IP literal, with an
    optional ``:port`` that limits it to that port. Case and a trailing dot do not matter.
    A wildcard never matches an IP address. Any other form (``*``, ``a.*.com``) matches
    nothing: it is listed by ``unusable()`` so the caller can say so.
    """

    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    _allow: tuple[_Pattern, ...] = field(init=False, repr=False, compare=False)
    _deny: tuple[_Pattern, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_allow", _patterns(self.allowed))
        object.__setattr__(self, "_deny", _patterns(self.denied))

    def decide(self, host: str, port: int | None = None) -> Literal["allow", "deny", "ask"]:
        """``deny`` when a denied entry matches (or ``host`` is not a host name),
        ``allow`` when an allowed one does, else ``ask``."""
        name = canonical_host(host)
        if name is None or any(p.matches(name, port) for p in self._deny):
            return "deny"
        if any(p.matches(name, port) for p in self._allow):
            return "allow"
        return "ask"

    def unusable(self) -> list[str]:
        """Entries of either list that match no host (a typo, or a form Claude Code lacks)."""
        return [entry for entry in (*self.allowed, *self.denied) if _pattern(entry) is None]


def _patterns(entries: Sequence[str]) -> tuple[_Pattern, ...]:
    return tuple(p for p in map(_pattern, entries) if p is not None)


def rule_domains(rules: Iterable[str]) -> tuple[str, ...]:
    """The hosts of ``WebFetch(domain:HOST)`` rules, in order.

    Claude Code merges these into the sandbox's lists (allow rules into
    ``allowedDomains``, deny rules into ``deniedDomains``), and its "always allow" answer
    for a sandboxed connection is written as such a rule. Other rules are skipped; an
    unreadable one is the permission layer's to report.
    """
    hosts: list[str] = []
    for text in rules:
        try:
            rule = split_rule(text, RuleOrigin())
        except PermissionRuleError:
            continue
        spec = rule.specifier or ""
        if rule.tool == "WebFetch" and spec.startswith("domain:") and spec[7:].strip():
            hosts.append(spec[7:].strip())
    return tuple(hosts)
