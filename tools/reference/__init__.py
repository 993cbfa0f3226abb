"""The event reference (docs/events/), generated from the code: ``python -m tools.reference``.

Each subscribe name gets a section from the places its facts live: the event
class and its fields' ``#:`` comments (``hookline.core.events``), the Claude
Code name it maps to (``hookline.core.vocabulary``), the result class
(``hookline.core.results``), the combination rule (``hookline.core.rules``:
the rule's docstring) and its example hook (``examples/events/``, run by
``tests/docs/test_event_examples.py``). ``tests/docs/test_event_reference.py``
fails when the committed pages differ from what this builds.
"""
