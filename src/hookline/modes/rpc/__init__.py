"""RPC mode: pi's RPC protocol, JSON lines in on stdin, JSON lines out on stdout.

Commands are ``{"type": ..., "id"?: ...}`` objects with pi's names
(``prompt``, ``steer``, ``follow_up``, ``get_state``, ``fork``, ...; fields in
camelCase); each gets a ``{"type": "response", "command", "id", "success",
"data"|"error"}``. ``prompt`` is answered as soon as it is accepted and its
events stream after (a run that then fails gets a second, error response with
the same id). Events are translated to pi's shapes. Hook UI calls become
``extension_ui_request`` lines; dialogs are answered by
``extension_ui_response`` lines with the same id. A hook error is an
``extension_error`` event. A bad line is answered with an error response; the
process stays up.

Start reading at ``server`` (``run_rpc``, the loop and when things happen);
then:

- ``wire``: stdin as lines, each line decoded (shared with ``serve``);
- ``protocol``: a command's fields, a response, a dialog's answer;
- ``commands``: one handler per command, in one table;
- ``ui``: the hooks' dialogs as requests the host answers;
- ``events``: the agent's events and messages in pi's shapes.

Nothing is imported here: ``serve`` reads its lines with ``wire`` alone.
"""
