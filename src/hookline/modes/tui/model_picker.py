"""``/model``'s list: the catalog's models grouped by provider, the current one marked.

As pi's model selector: only the models usable here (the provider's SDK
installed and its key set) are listed, and the list says so; each row is
``id [provider]``, ``✓`` on the model in use, and typing filters it. As
Claude Code's ``/model``: the cursor starts on the model in use. ``other…``
takes any ``provider:model`` spec.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookline.agent.model_catalog import ModelCatalog, ModelEntry

OTHER = "other…"
TITLE = (
    "Select a model (for the next turn)\n"
    "Listed: the providers usable here (SDK installed, API key set); "
    f"{OTHER} takes any provider:model"
)


@dataclass(frozen=True, slots=True)
class ModelChoices:
    """The picker's rows: labels, their descriptions, the spec each selects (None:
    ``other…``) and the row of the model in use."""

    labels: list[str]
    descriptions: dict[str, str]
    specs: list[str | None]
    current: int


def model_choices(catalog: ModelCatalog, current: str, used: list[str]) -> ModelChoices:
    """The catalog's models for ``current``, plus the models this session ``used``,
    grouped by provider in the order they first appear (the current one's first)."""
    entries = catalog.available(current)
    seen = {e.spec for e in entries}
    for spec in used:
        entry = catalog.entry(spec)
        if entry.spec not in seen:
            seen.add(entry.spec)
            entries.append(entry)
    providers = list(dict.fromkeys(e.provider for e in entries))
    grouped = sorted(entries, key=lambda e: providers.index(e.provider))
    current_spec = catalog.entry(current).spec
    labels: list[str] = []
    specs: list[str | None] = []
    descriptions: dict[str, str] = {}
    for entry in grouped:
        label = _label(entry, entry.spec == current_spec)
        labels.append(label)
        specs.append(entry.spec)
        descriptions[label] = _description(entry)
    labels.append(OTHER)
    specs.append(None)
    descriptions[OTHER] = "type a provider:model spec"
    at = next((i for i, s in enumerate(specs) if s == current_spec), 0)
    return ModelChoices(labels, descriptions, specs, at)


def _label(entry: ModelEntry, current: bool) -> str:
    shown = entry.name if entry.provider == "scripted" else entry.id
    return f"{shown} [{entry.provider}]" + (" ✓" if current else "")


def _description(entry: ModelEntry) -> str:
    if entry.provider == "scripted":
        return entry.id
    window = f"{entry.context_window // 1000}k context"
    return f"{entry.name} · {window}" + (" · reasoning" if entry.reasoning else "")
