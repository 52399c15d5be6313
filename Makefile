# make run   — open the app (from a terminal without a display it explains the CLI)
# make test  — the whole test suite, offscreen
# Both create .venv on first use and reinstall when pyproject.toml changes.  Every dependency comes
# as a wheel (pip's --only-binary=:all:): nothing is compiled, so no compiler or -dev package is
# needed; only wubitok itself is built (pure Python, by hatchling, itself a wheel).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install -q --disable-pip-version-check --only-binary=:all: --no-binary=wubitok
# `make run`: the app and what its panes open (the gui extra); `make test`: that, every other extra
# and the test and lint tools (the test extra).
APP_STAMP  := $(VENV)/.installed-gui
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test lint bench dictionary samples models installer clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(APP_STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[gui]'
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[test]'
	touch $@ $(APP_STAMP)

# Without a display `wubitok gui` explains how to use the CLI and exits 2:
# that is an answer, not a failed build.
run: $(APP_STAMP)
	@$(PY) -m wubitok gui; status=$$?; [ $$status -eq 0 ] || [ $$status -eq 2 ]

# Lint: ruff over the whole tree (pyflakes, pycodestyle at 120, import order, bugbear),
# mypy over the Qt-free packages (wubitok minus wubitok/gui) and import-linter's layer
# contracts (pyproject.toml, [tool.importlinter]).
lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n 2

bench: $(TEST_STAMP)
	$(PY) bench/bench_dictionary.py

dictionary: $(TEST_STAMP)
	$(PY) dicts/build_dictionary.py

samples: $(TEST_STAMP)
	$(PY) resources/samples/make_samples.py

# The desktop app for this OS in dist/ (see installer/README.md).
installer: $(TEST_STAMP)
	$(PIP) -e '.[installer]'
	$(PY) installer/build.py

clean:
	rm -rf build dist .pytest_cache .hypothesis
