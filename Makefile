# The README's commands. Everything a fresh Debian / Raspberry Pi OS machine needs beyond
# python3 is installed from here.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q

.PHONY: run test test-busy test-kernel soak lint typecheck pytest pytest-one suite-times bench clean venv chromium firmware-deploy firmware-test install uninstall screenshots

RIG := tests/kernel/rig.sh

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
CHROMIUM := /usr/bin/chromium

# The suite in two passes. First every test but those marked serial, in WORKERS processes
# (pytest-xdist): most tests wait for a browser, a child process or a simulated machine more
# than they compute, so more workers than cores pay (benchmarks/README.md, "The test suite's
# time"). Then the serial ones alone: a simulated board whose firmware must react in time on
# this machine's threads, as a real board does on its own chip. Both passes always run.
WORKERS ?= 4
SUITE := $(PY) -m pytest -q -n $(WORKERS) --dist worksteal -m "not serial"; parallel=$$?; \
	$(PY) -m pytest -q -m serial && exit $$parallel

run: $(VENV)/.run
	$(VENV)/bin/uno-attack run --demo $(RUN_ARGS)

test: $(VENV)/.test chromium lint typecheck pytest test-kernel

# Install Chromium (and a CJK font for the Chinese screenshots) for the browser tests when it
# is missing and we may: as root with apt-get. Otherwise those tests skip and say why.
chromium:
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "$(CHROMIUM) is missing: installing chromium with apt-get for the browser tests"; \
	  apt-get update -q && apt-get install -y -q chromium fonts-wqy-zenhei; \
	fi

# The whole suite beside one CPU-hogging process per core, as CI's shared machine can be: a test
# that waits for time instead of a condition fails here.
test-busy: $(VENV)/.test chromium
	@hogs=""; for i in $$(seq $$(nproc)); do sh -c 'while :; do :; done' & hogs="$$hogs $$!"; done; \
	trap 'kill $$hogs' EXIT INT TERM; \
	echo "running the suite beside $$(nproc) busy processes"; \
	$(SUITE)

# The kernel tier (tests/kernel/README.md): the launcher's own code on a real Linux GPIO chip (the
# kernel's gpio-sim, in a QEMU guest) with the real lgpio, one pytest session inside the guest.
# Its build tools come from apt-get when missing and we may (root); otherwise it says what is
# missing, and fails under CI.
test-kernel: $(VENV)/.test
	@if ! $(RIG) check 2>/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  $(RIG) deps; \
	fi
	@if $(RIG) check; then \
	  KGPIO_PYTHON=$(PY) $(RIG) run -- $(PY) -m pytest tests/kernel -q -p no:cacheprovider \
	    --color=no --timeout 900; \
	elif [ -n "$$CI" ]; then \
	  echo "the kernel tier cannot run on this machine (above): CI must run it"; exit 1; \
	else \
	  echo "skipping the kernel tier: it cannot run on this machine (above)"; \
	fi

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.test
	$(VENV)/bin/mypy

pytest: $(VENV)/.test
	$(SUITE)

# The whole suite in one process, as it ran before the two passes (for comparing their times).
pytest-one: $(VENV)/.test
	$(PY) -m pytest -q

# The suite's wall and CPU time, the load around it and its slowest tests (tools/suite_times.py).
suite-times: $(VENV)/.test chromium
	$(PY) tools/suite_times.py

# The main screens at three sizes and the hall's wall board at 1920x1080 and a tablet's size,
# in English and Chinese, into screenshots/ (not committed).
screenshots: $(VENV)/.test chromium
	$(PY) -m tests.e2e.screens screenshots

bench: $(VENV)/.bench
	$(PY) -m benchmarks

# The firmware's checks on MicroPython's own VM (the unix port from the test extra); `make test`
# runs them too, one pytest item each.
firmware-test: $(VENV)/.test
	$(VENV)/bin/micropython tests/firmware/mpy/run.py firmware

# The reliability suite's long versions (kill -9 loop, floods, thread stress): each test prints
# one JSON line with what it measured. Then a whole tracked 8-player rotation on two launchers,
# and the property tests explore: new random examples, twenty times as many as `make test`
# checks (tests/exploring.py).
soak: $(VENV)/.test
	UNO_ATTACK_SOAK=1 $(PY) -m pytest tests/reliability -q -s --timeout 1800
	UNO_ATTACK_SOAK=1 $(PY) -m pytest tests/api/test_tournament.py -q
	UNO_ATTACK_SOAK=1 $(PY) -m pytest tests/engine tests/fastsim tests/firmware -q \
	  -n $(WORKERS) --timeout 3600

# Copy firmware/ to the Pico launcher board (MicroPython already flashed; firmware/README.md).
# PORT=/dev/ttyACM0 picks the port, PROFILE=pico writes board.json from a pin profile.
# Refuses while the uno-attack service holds the board.
firmware-deploy: $(VENV)/.firmware
	$(PY) -m controller.launcher.board.deploy $(if $(PORT),--port $(PORT)) $(if $(PROFILE),--profile $(PROFILE))

# On a Raspberry Pi, as root: install (or upgrade) the systemd service; DESTDIR=dir only writes
# the files under dir. See the README, "Install on a Raspberry Pi".
install:
	$(PYTHON) systemd/install.py install $(if $(DESTDIR),--destdir "$(DESTDIR)")

uninstall:
	$(PYTHON) systemd/install.py uninstall $(if $(DESTDIR),--destdir "$(DESTDIR)")

# Each stamp records which extras are installed; pyproject.toml changes reinstall.
$(VENV)/.run: pyproject.toml | $(PY)
	$(PIP) install -e .
	touch $@

$(VENV)/.test: pyproject.toml | $(PY)
	$(PIP) install -e '.[test]'
	touch $@ $(VENV)/.run

$(VENV)/.firmware: pyproject.toml | $(PY)
	$(PIP) install -e '.[firmware]'
	touch $@ $(VENV)/.run

$(VENV)/.bench: pyproject.toml | $(PY)
	$(PIP) install -e '.[test,bench]'
	touch $@ $(VENV)/.test $(VENV)/.run

$(PY):
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "python3-venv is missing: installing it with apt-get"; \
	    apt-get update -q && apt-get install -y -q python3-venv && $(PYTHON) -m venv $(VENV); \
	  else \
	    echo "error: '$(PYTHON) -m venv' failed. Install python3-venv (sudo apt install python3-venv) and retry." >&2; \
	    exit 2; \
	  fi; }
	$(PIP) install --upgrade pip

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
