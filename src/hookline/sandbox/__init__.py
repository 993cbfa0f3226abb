"""hookline.sandbox: Claude Code's ``sandbox`` settings held by the kernel. The bash tool and
everything it starts run under bubblewrap with the project's writable folders, read-only and
hidden paths, and no network but hookline's filtering proxy; see the manual's sandbox page."""
