# hookline — `make demo` and `make test` work on a fresh clone: both set up .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-integrations test-integrations-claude test-integrations-pi lint format bench soak install clean docs bubblewrap nginx wrk redis-server dist

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) bubblewrap nginx wrk redis-server

# The bash sandbox runs on bubblewrap (Debian's package, what Claude Code uses): installed
# when missing and we are root with apt-get; otherwise say what to install (docs/sandbox.md).
bubblewrap:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get install -y --no-install-recommends bubblewrap \
	      || { apt-get update && apt-get install -y --no-install-recommends bubblewrap; }; \
	  else \
	    echo "bubblewrap (bwrap) is not installed: the bash sandbox and its tests need it" \
	      "(apt-get install bubblewrap; Fedora: dnf install bubblewrap)" >&2; \
	  fi; }

# Debian's packages: nginx runs the reverse-proxy config of deploy/nginx in its test (TLS in
# front of `hookline serve`); wrk is the load generator of `make bench` (bench_serve_load);
# ctx.store's Redis backend is tested against a real redis-server the tests start. Installed
# when missing and we are root with apt-get, else the test or bench says it skipped.
nginx wrk redis-server:
	@command -v $@ >/dev/null 2>&1 || [ -x /usr/sbin/$@ ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get install -y --no-install-recommends $@ \
	      || { apt-get update && apt-get install -y --no-install-recommends $@; }; \
	  else \
	    echo "$@ is not installed: apt-get install $@ (its tests or bench are skipped)" >&2; \
	  fi; }

demo: $(STAMP)
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -q -n 2

# Not part of `make test`: the differential suite against the real Claude Code. Its npm
# package (a native binary) is installed once into .integrations/, pinned; nothing else
# downloads. The model is a loopback server, so no API key and no network are needed.
CLAUDE_CODE_VERSION := 2.1.330
INTEGRATIONS        := .integrations
CLAUDE_STAMP        := $(INTEGRATIONS)/.claude-code-$(CLAUDE_CODE_VERSION)

$(CLAUDE_STAMP):
	mkdir -p $(INTEGRATIONS)
	npm install --prefix $(INTEGRATIONS) --no-audit --no-fund --no-save --ignore-scripts \
		@anthropic-ai/claude-code@$(CLAUDE_CODE_VERSION)
	touch $(CLAUDE_STAMP)

# Both differential suites: the real Claude Code and the real pi (below).
test-integrations: test-integrations-claude test-integrations-pi

test-integrations-claude: $(STAMP) $(CLAUDE_STAMP)
	$(PY) -m pytest -q -n 2 integration_tests --ignore=integration_tests/pi

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests examples benchmarks integration_tests tools
	$(VENV)/bin/ruff format --check src tests examples benchmarks integration_tests tools
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict examples/hooks
	$(VENV)/bin/mypy --strict examples/pi
	$(VENV)/bin/mypy --strict examples/events tools

format: $(STAMP)
	$(VENV)/bin/ruff format src tests examples benchmarks integration_tests tools
	$(VENV)/bin/ruff check --fix src tests examples benchmarks integration_tests tools

# The documentation site (MkDocs Material + mkdocstrings) into site/; needs the docs extra.
# The event reference (docs/events/) is generated from the code first (tools/reference).
docs: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,docs]'
	$(PY) -m tools.reference
	$(VENV)/bin/mkdocs build --strict

# hookline's sdist and wheel, into $(DIST) (`pip install dist/hookline-*.whl`, or with
# pipx / uv tool): python -m build, from the dev extra, in an isolated build environment.
DIST ?= dist

dist: $(STAMP)
	rm -rf $(DIST)
	$(PY) -m build --outdir $(DIST) .

bench: $(STAMP) wrk
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache site dist build

# Not part of `make test`: 10 000 tool calls through module and command hooks, a tenth
# adversarial; prints RSS growth, fds, stray processes, session entries and time per call.
soak: $(STAMP)
	$(PY) benchmarks/soak.py $(if $(CALLS),--calls $(CALLS),)

# The real pi (pinned in integration_tests/pi/package.json) against hookline, offline on a
# loopback model server. Needs node >= 20.6 and npm; skipped with a message when node is absent.
PI_DIR := .integrations/pi

$(PI_DIR)/.installed: integration_tests/pi/package.json
	mkdir -p $(PI_DIR)
	cp integration_tests/pi/package.json $(PI_DIR)/package.json
	cd $(PI_DIR) && npm install --no-audit --no-fund --ignore-scripts --save-exact
	touch $@

test-integrations-pi: $(STAMP)
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
		$(MAKE) $(PI_DIR)/.installed && \
		$(PY) -m pytest -q -n 2 -p no:cacheprovider integration_tests/pi; \
	else echo "test-integrations-pi: node/npm not found, skipped"; fi
