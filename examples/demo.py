"""Placeholder demo until the examples land: proves the engine imports."""

import hookline

print(f"hookline {hookline.__version__}: {len(hookline.EVENT_NAMES)} events")
