# hookline — `make demo` and `make test` work on a fresh clone: both set up .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint format bench soak install clean docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests examples benchmarks
	$(VENV)/bin/ruff format --check src tests examples benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict examples/hooks

format: $(STAMP)
	$(VENV)/bin/ruff format src tests examples benchmarks
	$(VENV)/bin/ruff check --fix src tests examples benchmarks

# The documentation site (MkDocs Material + mkdocstrings) into site/; needs the docs extra.
docs: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,docs]'
	$(VENV)/bin/mkdocs build --strict

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache site

# Not part of `make test`: 10 000 tool calls through module and command hooks, a tenth
# adversarial; prints RSS growth, fds, stray processes, session entries and time per call.
soak: $(STAMP)
	$(PY) benchmarks/soak.py $(if $(CALLS),--calls $(CALLS),)
