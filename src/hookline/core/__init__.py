"""The engine core: events, results, the hook API, context, UI protocol and runner.

Nothing here imports from another hookline layer.
"""
