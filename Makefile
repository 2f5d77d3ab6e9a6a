# Two commands for a newcomer: `make run` and `make test` (see README.md).
# Both set up everything they need first and are quick the second time.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
PO := $(wildcard locale/*/LC_MESSAGES/django.po)
MO := $(PO:.po=.mo)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup messages lint format bench clean

run: setup
	$(PY) manage.py migrate --noinput
	@echo "Admin: create the first staff user once with '$(PY) manage.py createsuperuser', then open /es/admin/"
	$(PY) manage.py runserver $(HOST):$(PORT)

test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest

setup: $(INSTALLED) $(MO)

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Catalogues are compiled by Babel: no system gettext needed.
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po $(INSTALLED)
	$(VENV)/bin/pybabel compile --statistics -i $< -o $@ -l $*

# Extract every message (Python and templates) and update the four catalogues.
messages: $(INSTALLED)
	$(PY) -m games.i18n

format: $(INSTALLED)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: setup
	$(PY) bench/engines.py
	$(PY) bench/bots.py

clean:
	rm -rf $(VENV) $(MO) staticfiles .pytest_cache .ruff_cache
