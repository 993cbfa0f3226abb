"""hookline.sandbox: Claude Code's ``sandbox`` settings held by the kernel.

The bash tool and everything it starts run under bubblewrap with the project's writable
folders, read-only and hidden paths; in an empty network namespace whose only way out is
hookline's filtering proxy; and under a seccomp filter that keeps Unix sockets out. See the
manual's sandbox pages.
"""
