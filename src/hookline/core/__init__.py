"""The engine core: events, results, the hook API, context, UI protocol, runner and
the tool-call pipeline.

Nothing here imports from another hookline layer.
"""
