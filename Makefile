# make run   — open the app (from a terminal without a display it explains the CLI)
# make test  — the whole test suite, offscreen
# Both create .venv on first use and reinstall when pyproject.toml changes.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-test

.PHONY: run test lint bench dictionary samples models installer clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Without a display `wubitok gui` explains how to use the CLI and exits 2:
# that is an answer, not a failed build.
run: $(STAMP)
	@$(PY) -m wubitok gui; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 2 ]

# Lint: ruff over the whole tree (pyflakes, pycodestyle at 120, import order, bugbear),
# mypy over the Qt-free packages (wubitok minus wubitok/gui) and import-linter's layer
# contracts (pyproject.toml, [tool.importlinter]).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n 2

bench: $(STAMP)
	$(PY) bench/bench_dictionary.py

dictionary: $(STAMP)
	$(PY) dicts/build_dictionary.py

samples: $(STAMP)
	$(PY) resources/samples/make_samples.py

# The desktop app for this OS in dist/ (see installer/README.md).
installer: $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[installer]'
	$(PY) installer/build.py

clean:
	rm -rf build dist .pytest_cache .hypothesis
