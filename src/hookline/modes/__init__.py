"""The ways a run meets its user: each mode drives an ``Agent`` and owns stdin and stdout.

``hookline.cli`` picks one once ``hookline.agent.setup`` has built the agent.
Start reading at ``print_mode.run_print``: one prompt, then the answer (or
every event as a JSON line), then exit; the shortest path through a run.
The others:

- interactive (``interactive.run_interactive``): the terminal app (``tui``)
  on a terminal, a line mode on a pipe;
- RPC: pi's RPC protocol, JSON commands in on stdin, responses and events
  out on stdout;
- ``serve --stdio`` (``serve_stdio``): another agent's events in, the hooks'
  answers out.

Beside them: ``print_commands`` (``-p "/compact"`` runs the command),
``stdout`` (a private stdout that hooks cannot print into),
``signals`` (how SIGTERM and SIGINT end a run) and ``export_html``. A mode
talks to the agent through its methods and ``Agent.subscribe`` (the
published stream); the agent does not import the modes.
"""
