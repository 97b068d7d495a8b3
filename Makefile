# Fray's build. Every target is idempotent; stamp files make a second run fast.
#   make serve   npm ci, vendor, build dist/, serve it on http://127.0.0.1:$(PORT)/
#   make build   write dist/ (what GitHub Pages serves)
#   make test    .venv + pinned test tools + Chromium + WebKit, then unit and end-to-end tests
#                (Chromium, then the WebKit lane: tests/webkit/)
#   make bench   boot time, bytes and engine speed -> bench/results.json
#   make fuzz    the reducer state machines at length: FUZZ_SEQUENCES (10000) per ruleset
#   make files   regenerate pyscript.toml's [files] table from py/
#   make clean   remove generated files (keeps node_modules/ and .venv/)

PORT ?= 8000
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PYTEST_ARGS ?=

export PYTHONDONTWRITEBYTECODE := 1

NODE_STAMP := node_modules/.fray-stamp
VENDOR_STAMP := static/vendor/.fray-stamp
VENV_STAMP := $(VENV)/.fray-stamp
# Every source file and folder that ends up in dist/ (folders too, so a deleted file rebuilds).
SOURCES := index.html players.html pyscript.toml static/sw.js $(shell find py static -path static/vendor -prune -o \( -name __pycache__ -prune \) -o -print 2>/dev/null)

.PHONY: all serve build vendor example-wheel files files-check test unit e2e webkit-lane bench fuzz chromium webkit venv clean quickstart-shots
all: build

# A fresh Debian 12 has neither Node.js nor Python's venv module: each comes from Debian's packages
# where apt-get exists (as root, or through sudo). The package lists are refreshed first, as for
# Chromium below; if that fails the install still tries the lists it has.
# $(call APT_INSTALL,packages): one command, whose status is the install's.
APT_INSTALL = ( SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
  $$SUDO apt-get update || echo "apt-get update failed: installing from the package lists as they are"; \
  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y $(1) )

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && $(call APT_INSTALL,nodejs npm); } \
	  || { echo "make: npm is needed (Node.js 18 or later); apt-get is not here or could not install it" >&2; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

$(VENDOR_STAMP): $(NODE_STAMP) scripts/vendor.py
	$(PYTHON) scripts/vendor.py
	@touch $@

# The example fourth game (examples/fray-d20/) as a wheel: what "Add a game…" installs in the
# page and pip installs in the tests (tests/unit/test_installed_games.py, tests/e2e/test_plugin_game.py).
D20_WHEEL := examples/fray-d20/dist/fray_d20-0.1.0-py3-none-any.whl
$(D20_WHEEL): scripts/build_wheel.py examples/fray-d20/pyproject.toml $(wildcard examples/fray-d20/fray_d20/*)
	$(PYTHON) scripts/build_wheel.py examples/fray-d20

example-wheel: $(D20_WHEEL)

vendor: $(VENDOR_STAMP)

dist/sw.js: $(VENDOR_STAMP) $(SOURCES) scripts/build.py scripts/files_table.py scripts/precompile.mjs scripts/snapshot.mjs
	$(PYTHON) scripts/build.py

build: dist/sw.js $(D20_WHEEL)

files:
	$(PYTHON) scripts/files_table.py

files-check:
	$(PYTHON) scripts/files_table.py --check

serve: build
	$(PYTHON) scripts/serve.py --port $(PORT) --mount /=dist

$(VENV_STAMP): requirements-dev.txt
	@$(VPY) -m pip --version >/dev/null 2>&1 || $(PYTHON) -c "import ensurepip" 2>/dev/null \
	  || { command -v apt-get >/dev/null 2>&1 && $(call APT_INSTALL,python3-venv); } \
	  || { echo "make: Python's venv module is needed (Debian: python3-venv)" >&2; exit 1; }
	$(VPY) -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv --clear $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

venv: $(VENV_STAMP)

# Debian's Chromium where apt-get exists (Playwright's own download cannot reach its host on
# every machine); otherwise Playwright's browser. tests/e2e/conftest.py picks whichever exists.
# A fresh machine's package lists are as old as its image (they offer Chromium 150 where the
# archive has 156), so the lists are refreshed before installing; if the refresh fails (no
# network to the archive) the install still tries the lists it has. The suite passes on both.
chromium: $(VENV_STAMP)
	@if [ -x /usr/bin/chromium ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then $(call APT_INSTALL,chromium); \
	else $(VENV)/bin/playwright install chromium; fi
	@{ [ -x /usr/bin/chromium ] && /usr/bin/chromium --version 2>/dev/null; } || true

# WebKit, the engine of every browser on an iPad: WebKitGTK's WebDriver (with its MiniBrowser)
# and Xvfb from Debian where apt-get exists, as Chromium above. Where they cannot be installed
# the WebKit lane says so in one line and does not run (the Chromium suite still decides), so a
# failed install here does not stop `make test`.
WEBKIT_READY = command -v WebKitWebDriver >/dev/null 2>&1 && command -v Xvfb >/dev/null 2>&1
webkit:
	@if $(WEBKIT_READY); then :; \
	elif command -v apt-get >/dev/null 2>&1; then $(call APT_INSTALL,webkit2gtk-driver xvfb) || true; fi
	@{ command -v WebKitWebDriver >/dev/null 2>&1 && dpkg-query -W -f='WebKitGTK $${Version}\n' libwebkit2gtk-4.1-0 2>/dev/null; } || true

# The WebKit lane: tests/webkit/ (its own conftest: Selenium, WebKitGTK's WebDriver, Xvfb). It
# takes a few minutes; a browser that hangs the run is stopped after 20 (and the lane fails).
WEBKIT_LANE = if $(WEBKIT_READY); then timeout 1200 $(VPY) -m pytest tests/webkit $(PYTEST_ARGS); \
  else echo "WebKit lane: not run: WebKitWebDriver or Xvfb is not installed (Debian: webkit2gtk-driver xvfb)"; fi

# Three pytest runs (tests/unit, tests/e2e and tests/webkit each have a conftest.py); all always
# run and `make test` fails if any does.
test: build chromium webkit
	@rc=0; \
	PYTHONPATH=py $(VPY) -m pytest tests/unit tests/games $(PYTEST_ARGS) || rc=1; \
	$(VPY) -m pytest tests/e2e $(PYTEST_ARGS) || rc=1; \
	$(WEBKIT_LANE) || rc=1; \
	exit $$rc

unit: venv
	PYTHONPATH=py $(VPY) -m pytest tests/unit tests/games $(PYTEST_ARGS)

e2e: build chromium
	$(VPY) -m pytest tests/e2e $(PYTEST_ARGS)

webkit-lane: build webkit venv
	@$(WEBKIT_LANE)

# The reducer's contract (tests/unit/test_machines.py and each game's tests/games/<game>/test_*_machine.py) with FUZZ_SEQUENCES action sequences per
# ruleset instead of the unit run's hundred; prints the counts and each ruleset's time.
FUZZ_SEQUENCES ?= 10000
fuzz: venv
	FRAY_FUZZ_SEQUENCES=$(FUZZ_SEQUENCES) PYTHONPATH=py $(VPY) -m pytest tests/unit/test_machines.py tests/games -k Machine -q \
	  -p no:cacheprovider --durations=0 --durations-min=0 $(PYTEST_ARGS)

# The GM's quick start's pictures (static/help/*.jpg), from the built page: after a change they show.
quickstart-shots: build chromium
	PYTHONPATH=py $(VPY) scripts/quickstart_shots.py

bench: build chromium webkit
	PYTHONPATH=py $(VPY) bench/run.py

clean:
	rm -rf dist static/vendor bench/results.json
