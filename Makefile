# feytable: `make run` serves the app on SQLite; `make test` runs every test.
# Both build their own .venv on a bare machine (Python 3.11+).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=

.PHONY: run test setup lint bench messages postgres chromium clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m app serve --host $(HOST) --port $(PORT)

# PostgreSQL: the storage, realtime and concurrency tests run on it too.
# Start the local server if it is down; with CI=true the tests fail if it
# is still unreachable.
postgres:
	@pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || \
	  (command -v pg_ctlcluster >/dev/null && ls /etc/postgresql >/dev/null 2>&1 && \
	   pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -n1) main start && sleep 1) || \
	  echo "warning: PostgreSQL is not running on 127.0.0.1:5432"

# Real-browser tests use Debian's Chromium (never a downloaded browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || \
	  (command -v apt-get >/dev/null && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)) || \
	  echo "warning: chromium is not installed; browser tests will fail"

lint: $(STAMP)
	$(BIN)/ruff check app tests bench migrations

test: $(STAMP) postgres chromium lint
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q $(PYTEST_ARGS)

# Load driver: real server processes on 127.0.0.1 (SQLite; PostgreSQL 1 and 2
# processes), 25/250/1000 websockets; BENCH_ARGS="--sizes 25,250" for a quick run.
BENCH_ARGS ?=
bench: $(STAMP) postgres
	$(BIN)/python bench/realms_bench.py
	$(BIN)/python bench/load.py $(BENCH_ARGS)

# Extract every marked sentence into the catalogue template (then `pybabel
# init/update` per language).
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -o app/locale/messages.pot .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
