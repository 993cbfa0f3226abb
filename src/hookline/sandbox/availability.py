"""Whether the sandbox can run here: bubblewrap, user namespaces, seccomp, Landlock.

Checked once per process and bubblewrap path (a trial ``bwrap … true`` costs a few
milliseconds). ``HOOKLINE_BWRAP`` names the bubblewrap to use (default: ``bwrap`` on
``PATH``); tests and unusual installs set it.
"""

from __future__ import annotations

import functools
import os
import platform
import shutil
import subprocess
import sys
from dataclasses import dataclass

BWRAP_ENV = "HOOKLINE_BWRAP"
INSTALL_HINT = "install it: apt-get install bubblewrap (Fedora: dnf install bubblewrap)"
#: What the trial run asks of the kernel: what every sandboxed call needs.
_TRIAL = (
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
    "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
    "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--", "true",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Availability:
    """What was found; ``problem`` says what is missing (None: the sandbox runs)."""

    bwrap: str | None
    version: str | None
    problem: str | None
    user_namespaces: bool
    seccomp: str
    landlock_abi: int | None

    @property
    def available(self) -> bool:
        return self.problem is None

    @property
    def disables_userns(self) -> bool:
        """bubblewrap 0.8 and later can forbid nested user namespaces (``--disable-userns``):
        a namespace of the command's own would hold capabilities again."""
        return _version(self.version) >= (0, 8)

    def lines(self) -> list[str]:
        """What ``hookline sandbox check`` prints about the machine."""
        landlock = f"ABI {self.landlock_abi}" if self.landlock_abi else "not available"
        return [
            f"bubblewrap: {self.bwrap or 'not found'}"
            + (f" ({self.version})" if self.version else ""),
            f"user namespaces: {'work' if self.user_namespaces else 'do not work'}",
            f"seccomp: {self.seccomp}",
            f"Landlock: {landlock} (not used yet)",
            "status: " + ("available" if self.problem is None else f"unavailable: {self.problem}"),
        ]


def bwrap_path() -> str | None:
    """The bubblewrap to run: ``HOOKLINE_BWRAP`` if set (a path or a name on PATH), else
    ``bwrap`` on ``PATH``."""
    chosen = os.environ.get(BWRAP_ENV) or "bwrap"
    return shutil.which(chosen)


def probe() -> Availability:
    """What this machine offers, for the bubblewrap :func:`bwrap_path` names."""
    return _probe(bwrap_path(), os.environ.get(BWRAP_ENV) or "bwrap")


@functools.cache
def _probe(bwrap: str | None, asked: str) -> Availability:
    seccomp, seccomp_problem = _seccomp()
    landlock = landlock_abi()
    if not sys.platform.startswith("linux"):
        problem = f"the sandbox runs on Linux only ({platform.system()}: not yet)"
        return Availability(None, None, problem, False, seccomp, landlock)
    if bwrap is None:
        where = "" if asked == "bwrap" else f" at {asked}"
        problem = f"bubblewrap (bwrap) not installed{where}; {INSTALL_HINT}"
        return Availability(None, None, problem, False, seccomp, landlock)
    version = None
    try:
        done = subprocess.run(
            [bwrap, "--version"], capture_output=True, text=True, timeout=5, check=False
        )
        version = done.stdout.strip() or None
        trial = subprocess.run(
            [bwrap, *_TRIAL], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        problem = f"bubblewrap ({bwrap}) does not run: {exc}"
        return Availability(bwrap, version, problem, False, seccomp, landlock)
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or [f"exit {trial.returncode}"])[-1]
        problem = f"bubblewrap ({bwrap}) cannot create its namespaces: {why}"
        return Availability(bwrap, version, problem, False, seccomp, landlock)
    return Availability(bwrap, version, seccomp_problem, True, seccomp, landlock)


def _seccomp() -> tuple[str, str | None]:
    """``(description, problem)`` of the Unix-socket filter."""
    machine = platform.machine()
    from hookline.sandbox import seccomp

    try:
        seccomp.unix_socket_filter()
    except Exception as exc:  # SeccompUnavailable: the sandbox must not run without it
        return f"{machine}: unsupported ({exc})", f"seccomp filter unavailable: {exc}"
    return f"{machine}: Unix sockets refused", None


def landlock_abi() -> int | None:
    """The kernel's Landlock ABI version, or None (``landlock_create_ruleset`` with the
    version flag; the system call number is 444 on every architecture)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        version = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return None
    return int(version) if version > 0 else None


def _version(text: str | None) -> tuple[int, ...]:
    """``bubblewrap 0.8.0`` → ``(0, 8, 0)``; unknown → ``()``."""
    word = (text or "").split()[-1:] or [""]
    parts = []
    for piece in word[0].split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    return tuple(parts)
