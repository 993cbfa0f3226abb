"""The session's sandbox as it is now, and the mode the terminal app's ``/sandbox`` switches.

The bash tool (where a call runs) and the permission gate (whether it is asked about)
both read one :class:`SandboxState` at each call, so a mode picked in the panel holds
from the next bash call on. The mode is a setting like any other: :meth:`set_mode`
writes it to the project's ``.claude/settings.local.json`` as Claude Code's panel does,
reads the settings again and applies what they now say — a managed or ``--settings``
file, or the trust filter of an untrusted project, may say otherwise, and the result
tells. When no sandbox ran at launch, switching it on starts one then.

This module imports nothing heavy: every session has a state, sandbox settings or not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from hookline.sandbox.config import SandboxConfig
    from hookline.sandbox.launcher import Sandbox
    from hookline.sandbox.policy import SandboxPolicy
    from hookline.sandbox.start import SandboxStart
    from hookline.settings.loader import LoadedSettings
    from hookline.settings.permission_rules import PermissionRules

Mode = Literal["auto-allow", "regular", "off"]
MODES: tuple[Mode, ...] = ("auto-allow", "regular", "off")
#: The panel's words for each mode (Claude Code's, shortened).
MODE_LABELS: dict[Mode, str] = {
    "auto-allow": "Sandboxed, auto-allow bash",
    "regular": "Sandboxed, regular permissions",
    "off": "Off",
}
#: What Claude Code's ``/sandbox`` panel writes under ``sandbox`` for each mode; the
#: other keys of the file, and of ``sandbox``, stay as they are.
MODE_SETTINGS: dict[Mode, dict[str, bool]] = {
    "auto-allow": {"enabled": True, "autoAllowBashIfSandboxed": True},
    "regular": {"enabled": True, "autoAllowBashIfSandboxed": False},
    "off": {"enabled": False},
}
#: Fields of ``SandboxConfig`` that decide which calls run sandboxed and which are asked
#: about, not what the sandbox holds: a change of these keeps the running sandbox.
_POLICY_FIELDS = (
    "enabled",
    "fail_if_unavailable",
    "auto_allow",
    "allow_unsandboxed",
    "excluded_commands",
    "sources",
    "not_enforced",
)


def mode_of(config: SandboxConfig) -> Mode:
    """The panel's mode for ``config``."""
    if not config.enabled:
        return "off"
    return "auto-allow" if config.auto_allow else "regular"


def write_mode(project_dir: str | Path, mode: Mode) -> Path:
    """Write ``mode`` to the project's ``.claude/settings.local.json``; its path.

    Raises ``LocalSettingsError`` (the file left as it was) when the file cannot be
    read or written, or its ``sandbox`` is not an object.
    """
    from hookline.settings.local_settings import LocalSettingsError, update_local_settings

    def update(data: dict[str, Any]) -> None:
        box = data.get("sandbox", {})
        if not isinstance(box, dict):
            raise LocalSettingsError(
                "its `sandbox` is not an object (fix it; the file was not changed)"
            )
        data["sandbox"] = {**box, **MODE_SETTINGS[mode]}

    return update_local_settings(project_dir, update)


@dataclass(frozen=True, slots=True)
class Forced:
    """A sandbox key the panel cannot change: a file merged after the local settings
    (``--settings``, managed) sets it."""

    key: str
    value: bool
    #: ``FILE: sandbox.KEY``, said to the user
    origin: str


def forced_keys(loaded: LoadedSettings) -> dict[str, Forced]:
    """``enabled`` and ``autoAllowBashIfSandboxed`` as the files that win over the local
    settings fix them; ``failIfUnavailable: true`` there fixes ``enabled`` on (such a file
    requires the sandbox)."""
    local = [i for i, f in enumerate(loaded.files) if f.scope == "local"]
    after = loaded.files[local[-1] + 1 :] if local else loaded.files
    out: dict[str, Forced] = {}
    required: Forced | None = None
    for file in after:
        box = file.settings.sandbox if file.settings is not None else None
        if box is None:
            continue
        if box.enabled is not None:
            out["enabled"] = Forced("enabled", box.enabled, f"{file.path}: sandbox.enabled")
        if box.auto_allow_bash_if_sandboxed is not None:
            out["autoAllowBashIfSandboxed"] = Forced(
                "autoAllowBashIfSandboxed",
                box.auto_allow_bash_if_sandboxed,
                f"{file.path}: sandbox.autoAllowBashIfSandboxed",
            )
        if box.fail_if_unavailable:
            required = Forced("enabled", True, f"{file.path}: sandbox.failIfUnavailable")
    if required is not None and "enabled" not in out:
        out["enabled"] = required
    return out


def offered_modes(forced: Mapping[str, Forced]) -> list[Mode]:
    """The modes the panel may write: those the forced keys do not contradict."""
    return [
        mode
        for mode in MODES
        if all(MODE_SETTINGS[mode].get(k, f.value) == f.value for k, f in forced.items())
    ]


@dataclass(frozen=True, slots=True)
class ModeChange:
    """What :meth:`SandboxState.set_mode` did."""

    asked: Mode
    #: the mode in force now
    now: Mode
    #: the settings file written (None: nothing was written)
    path: Path | None = None
    #: why ``now`` is not ``asked``, or why nothing was written
    note: str | None = None


class SandboxState:
    """One session's sandbox: the configuration in force, the running sandbox (if any)
    and its policy. Read by the bash tool and the permission gate at each call.

    ``load()`` reads the settings as the session did at launch (same trust, same
    ``--settings`` and managed files); ``start(config)`` starts a sandbox for ``config``
    (the agent's set-up gives it the network proxy) and may raise ``SandboxUnavailable``.
    Without ``load`` the mode cannot be changed (:meth:`fixed`).
    """

    def __init__(
        self,
        *,
        rules: PermissionRules | None,
        cwd: str,
        load: Callable[[], LoadedSettings] | None,
        start: Callable[[SandboxConfig], SandboxStart],
    ) -> None:
        self.cwd = cwd
        self._rules = rules
        self._load = load
        self._start = start
        self._config: SandboxConfig | None = None
        self._sandbox: Sandbox | None = None
        self._policy: SandboxPolicy | None = None
        #: every sandbox started in this session (closed with it)
        self._started: list[Sandbox] = []

    @classmethod
    def fixed(cls, sandbox: Sandbox) -> SandboxState:
        """A state that runs calls in ``sandbox`` as its policy says, for good (an
        embedder's or a test's own sandbox, built without settings)."""
        from hookline.sandbox.start import SandboxStart

        state = cls(
            rules=None,
            cwd=sandbox.config.cwd,
            load=None,
            start=lambda config: SandboxStart(sandbox.policy, sandbox),
        )
        state.apply(sandbox.config)
        return state

    # -- read at each call -------------------------------------------------------------

    @property
    def policy(self) -> SandboxPolicy | None:
        """Which calls run sandboxed and which need no approval (None: no sandbox yet)."""
        return self._policy

    @property
    def sandbox(self) -> Sandbox | None:
        """The sandbox bash calls run in while the mode is on (None: none runs)."""
        return self._sandbox

    def sandboxed(self, input: Mapping[str, Any]) -> bool:
        """Whether this bash call runs in the sandbox."""
        return self._policy is not None and self._policy.sandboxed(input)

    def auto_allows(self, input: Mapping[str, Any], cwd: str) -> bool:
        """Whether this bash call runs sandboxed and needs no approval."""
        return self._policy is not None and self._policy.auto_allows(input, cwd)

    def sandbox_for(self, input: Mapping[str, Any]) -> Sandbox | None:
        """The sandbox this bash call runs in, or None when it runs as it is."""
        return self._sandbox if self.sandboxed(input) else None

    # -- the configuration ---------------------------------------------------------------

    @property
    def config(self) -> SandboxConfig:
        """The configuration in force (resolved from the settings now when the session
        had none at launch)."""
        if self._config is None:
            self._config = self._resolve(self._settings())
        return self._config

    def forced(self) -> dict[str, Forced]:
        """The keys the panel cannot change (:func:`forced_keys` of the settings now)."""
        return {} if self._load is None else forced_keys(self._load())

    def begin(self, loaded: LoadedSettings) -> SandboxStart:
        """At launch: resolve the sandbox of ``loaded`` and start it (``SandboxUnavailable``
        when it is required and cannot run)."""
        return self.apply(self._resolve(loaded))

    def set_mode(self, mode: Mode) -> ModeChange:
        """Write ``mode`` to the local settings and apply what the settings now say, from
        the next bash call on. Nothing is written when the settings cannot be read, another
        file fixes the mode, or the sandbox cannot run here."""
        from hookline.sandbox.availability import probe
        from hookline.sandbox.start import SandboxUnavailable
        from hookline.settings.local_settings import LocalSettingsError

        current = mode_of(self.config)
        if self._load is None:
            return ModeChange(mode, current, note="this session's sandbox is fixed by its owner")
        before = self._load()
        if before.errors:
            return ModeChange(mode, current, note=_unreadable(before.errors))
        forced = forced_keys(before)
        if mode not in offered_modes(forced):
            why = "; ".join(f.origin for f in forced.values())
            return ModeChange(mode, current, note=f"the mode is fixed by {why}")
        found = probe()
        if mode != "off" and not found.available:
            return ModeChange(mode, current, note=f"the sandbox cannot run here: {found.problem}")
        try:
            path = write_mode(self.cwd, mode)
        except LocalSettingsError as exc:
            return ModeChange(mode, current, note=str(exc))
        after = self._load()
        if after.errors:
            return ModeChange(mode, current, path, _unreadable(after.errors))
        try:
            self.apply(self._resolve(after))
        except SandboxUnavailable as exc:
            return ModeChange(mode, current, path, str(exc))
        now = mode_of(self.config)
        if now == mode:
            return ModeChange(mode, now, path)
        why = (
            "the project is not trusted, so its local settings may only confine "
            f"(run `hookline trust {self.cwd}`)"
            if not after.project_trusted
            else "another settings file decides"
        )
        return ModeChange(mode, now, path, f"the settings give {MODE_LABELS[now]!r}: {why}")

    # -- the session's end -------------------------------------------------------------

    def close(self) -> None:
        """Remove every started sandbox's private folder (idempotent)."""
        for sandbox in self._started:
            sandbox.close()

    async def aclose(self) -> None:
        """End every started sandbox: its network (forwarder, proxy) and its folders."""
        for sandbox in self._started:
            await sandbox.aclose()

    def apply(self, config: SandboxConfig) -> SandboxStart:
        """Make ``config`` the one in force: keep the running sandbox when only the policy
        changed, start one when there is none (or what it holds changed)."""
        from hookline.sandbox.policy import SandboxPolicy
        from hookline.sandbox.start import SandboxStart

        running = self._sandbox or (self._started[-1] if self._started else None)
        if not config.enabled:
            self._config, self._policy = config, SandboxPolicy(config, active=False)
            self._sandbox = None
            return SandboxStart(self._policy)
        if running is not None and _same_box(running.config, config):
            self._config, self._sandbox = config, running
            self._policy = SandboxPolicy(config, active=True)
            return SandboxStart(self._policy, running)
        started = self._start(config)
        if started.sandbox is not None:
            self._started.append(started.sandbox)
        self._config, self._sandbox, self._policy = config, started.sandbox, started.policy
        return started

    # -- inside ------------------------------------------------------------------------

    def _settings(self) -> LoadedSettings:
        if self._load is None:  # pragma: no cover - a fixed state has its config
            raise RuntimeError("a fixed sandbox state has no settings to read")
        return self._load()

    def _resolve(self, loaded: LoadedSettings) -> SandboxConfig:
        from hookline.sandbox.config import resolve_sandbox
        from hookline.settings.permission_rules import PermissionRules

        return resolve_sandbox(loaded, self._rules or PermissionRules(), self.cwd)


def _same_box(a: SandboxConfig, b: SandboxConfig) -> bool:
    """Whether ``a`` and ``b`` hold the same paths and domains (their policies aside)."""
    return dataclasses.replace(a, **{f: getattr(b, f) for f in _POLICY_FIELDS}) == b


def _unreadable(errors: list[str]) -> str:
    return "the settings cannot be read, nothing was changed: " + "; ".join(errors)
