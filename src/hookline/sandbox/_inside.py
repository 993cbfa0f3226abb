"""The sandbox's network forwarder: ``python -I -S _inside.py CONTROL_FD PORT -- COMMAND...``.

It runs inside bubblewrap's empty network namespace, as the parent of the command:

1. listens on ``127.0.0.1:PORT`` (and ``[::1]:PORT`` when the namespace has IPv6)
   BEFORE the command starts, so the command never sees "connection refused";
2. starts the command (``posix_spawnp``; the control descriptor is close-on-exec, so
   it never reaches the command, and the signal dispositions Python changed are reset);
3. hands each accepted connection to hookline outside over the control descriptor
   (one ``SCM_RIGHTS`` message per connection) and closes its own copy: hookline serves
   the HTTP proxy on that socket directly, so no byte is relayed in here;
4. exits with the command's status (``128 + N`` when a signal killed it) the moment the
   command ends: bubblewrap then ends the PID namespace and every background job in it.

Standard library only, and only modules that cost nothing to load (``posix``, ``sys``,
``errno``, ``_thread``, ``_signal``, ``time`` are built in; ``_socket`` is one small
extension; even ``os`` would add a millisecond): this runs on every sandboxed bash
call. It never imports hookline.
"""

import _signal  # type: ignore[import-not-found]  # built in; no stub
import _socket
import _thread
import errno
import posix
import sys
import time

_SCM_RIGHTS = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS)
_TRANSIENT = (errno.EINTR, errno.ECONNABORTED)  # the next accept may well succeed


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[2] == "--serve":
        return _serve_session(int(argv[0]), int(argv[1]))
    if len(argv) < 4 or argv[2] != "--":
        sys.stderr.write(
            "usage: _inside.py CONTROL_FD PORT -- COMMAND [ARG...] | CONTROL_FD PORT --serve\n"
        )
        return 2
    control_fd, port, command = int(argv[0]), int(argv[1]), argv[3:]
    posix.set_inheritable(control_fd, False)
    control = _socket.socket(fileno=control_fd)
    listeners = _listen(port)
    # The terminal's ^C and ^\ are the command's to act on; this process reports its status.
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    _signal.signal(_signal.SIGQUIT, _signal.SIG_IGN)
    reset = (_signal.SIGINT, _signal.SIGQUIT, _signal.SIGPIPE, _signal.SIGXFSZ)
    try:
        pid = posix.posix_spawnp(command[0], command, posix.environ, setsigdef=reset)
    except OSError as exc:
        sys.stderr.write(f"{command[0]}: {exc.strerror}\n")
        return 126 if isinstance(exc, PermissionError) else 127
    _thread.start_new_thread(_exit_with, (pid,))
    for listener in listeners[1:]:
        _thread.start_new_thread(_serve, (listener, control))
    _serve(listeners[0], control)
    return 0  # not reached: _exit_with ends the process


def _serve_session(control_fd: int, port: int) -> int:
    """The session's network namespace: listen, say ``ready PID`` on stdout (hookline
    enters the namespace of that process for each call), then hand connections out until
    hookline ends this process."""
    posix.set_inheritable(control_fd, False)
    control = _socket.socket(fileno=control_fd)
    listeners = _listen(port)
    posix.write(1, f"ready {posix.getpid()}\n".encode())
    posix.close(1)
    for listener in listeners[1:]:
        _thread.start_new_thread(_serve, (listener, control))
    _serve(listeners[0], control)
    return 0  # not reached


def _listen(port: int) -> list[_socket.socket]:
    """Bound, listening sockets: IPv4 always, IPv6 when the namespace has ``::1``."""
    found = []
    for family, host in ((_socket.AF_INET, "127.0.0.1"), (_socket.AF_INET6, "::1")):
        try:
            sock = _socket.socket(family, _socket.SOCK_STREAM)
        except OSError:
            continue
        try:
            sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
            if family == _socket.AF_INET6:
                sock.setsockopt(_socket.IPPROTO_IPV6, _socket.IPV6_V6ONLY, 1)
            sock.bind((host, port))
            sock.listen(128)
        except OSError:
            sock.close()
            if family == _socket.AF_INET:
                raise
            continue
        found.append(sock)
    return found


def _serve(listener: _socket.socket, control: _socket.socket) -> None:
    """Accept forever, handing every connection out; a lost hookline drops them."""
    while True:
        try:
            fd = listener._accept()[0]  # type: ignore[attr-defined]  # socket.py is not loaded
        except OSError as exc:
            if exc.errno not in _TRANSIENT:
                time.sleep(0.01)  # out of descriptors or memory: no busy loop meanwhile
            continue
        try:
            control.sendmsg([b"c"], [(*_SCM_RIGHTS, fd.to_bytes(4, sys.byteorder))])
        except OSError:
            pass  # hookline is gone: the client sees its connection closed
        finally:
            posix.close(fd)


def _exit_with(pid: int) -> None:
    """Wait for the command, then end this process (and so the sandbox) with its status."""
    while True:
        try:
            status = posix.waitpid(pid, 0)[1]
            break
        except InterruptedError:
            continue
    code = posix.waitstatus_to_exitcode(status)
    posix._exit(128 - code if code < 0 else code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
