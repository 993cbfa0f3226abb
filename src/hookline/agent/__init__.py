"""The reference coding agent: a model, tools and a session, emitting every hook event.

Start reading at ``agent.py``: ``Agent.prompt`` runs one prompt, and
``Agent._loop`` is the lifecycle diagram in code (a model call, then each
tool call of the reply, until the model stops). A turn is made of:

- ``steps``: ``ModelStep`` (one model call: the ``context`` chain, the
  request, retries, stream rules) and ``ToolExecution`` (one tool-call block
  of the reply, run through ``hookline.core.pipeline.ToolPipeline`` and
  reported as execution events);
- ``gate`` and ``permissions``: the pipeline's permission stage
  (``PermissionGate``) and the rules and modes it decides by;
- ``provider`` and ``providers``: the one ``Provider`` interface and its
  scripted, Anthropic and OpenAI implementations;
- ``session_ops``: switch, branch, fork, tree and compaction
  (``SessionLifecycle``);
- ``task_tool``, ``subagents`` and ``todos``: the tools the agent adds to the
  built-ins.

``setup`` composes an ``Agent`` from the command line's options (settings,
trust, hooks, Claude settings hooks, tools, session, model): the one module
that knows every layer. The modes (``hookline.modes``) drive an agent
through its methods and its published stream; the agent never knows which
mode runs it.
"""
