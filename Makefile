# `make run` starts the product, `make test` runs the tests; both make .venv/ on first use.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

# A venv made already is kept as it was made (`python3 -m venv` again would undo its --system-site-packages).
$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet -e '.[cv,test]'
	touch $(STAMP)

.PHONY: run test
run: $(STAMP)
	$(VENV)/bin/qwixx-table serve

test: $(STAMP)
	$(VENV)/bin/python -m pytest
