# GearDyn: `make run` opens the app on an example, `make test` runs the suite.
# Both create .venv and install what is missing first (system packages through
# apt-get when run as root on Debian, Python packages into .venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
EXAMPLE ?= resources/examples/planetary.gdyn
XVFB := xvfb-run -a -s "-screen 0 1280x800x24"

.PHONY: run test bench package sysdeps venv clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# -qq: setuptools' notice on every editable install of top-level packages ('Please be careful with
	@# folders ... same name as your package') is not news on a checkout of ours; errors still print
	$(PY) -m pip install -qq -e '.[gui,test]'
	@# the kernels compiled into their cache (numba, then ahead of time): a compiled run then loads one module,
	@# without numba, instead of compiling (minutes)
	$(PY) -m core.dynamics.warm
	@rm -f $(VENV)/.installed-*
	@touch $@

venv: $(STAMP)

sysdeps:
	@bash packaging/install_system_packages.sh

run: sysdeps $(STAMP)
	@if [ -n "$$DISPLAY" ]; then $(VENV)/bin/geardyn gui $(EXAMPLE); \
	else echo "No DISPLAY: starting the app on a virtual screen (Xvfb)"; $(XVFB) $(VENV)/bin/geardyn gui $(EXAMPLE); fi

test: sysdeps $(STAMP)
	@# the kernels again when their sources changed since the environment was made (nothing when they did not)
	$(PY) -m core.dynamics.warm
	@# each worker starts an Xvfb display of its own (pytest-xvfb): no window of one test stands over another's
	$(PY) -m pytest -q -p no:cacheprovider -n 2 --dist loadfile

bench: sysdeps $(STAMP)
	$(PY) -m pip install -qq -e '.[gui,test,bench]'
	@for f in tests/benchmarks/bench_*.py; do echo "== $$f"; $(XVFB) $(PY) $$f || exit 1; done

# A one-folder frozen application in dist/geardyn (PyInstaller), its size, then its smoke test under Xvfb.
# The kernels it ships are compiled first, ahead of time, for a generic CPU of this architecture: an extension
# module that runs without numba (core.dynamics.program.ahead), from numba's program warmed for that CPU.
package: sysdeps $(STAMP)
	$(PY) -m pip install --quiet 'pyinstaller>=6.0'
	rm -rf build/kernels build/jit dist/geardyn
	NUMBA_CPU_NAME=generic GEARDYN_KERNEL_CACHE=$(CURDIR)/build/jit $(PY) -m core.dynamics.warm --ahead build/kernels
	xz -T0 -6 -c "$$($(PY) -c 'import imageio_ffmpeg; print(imageio_ffmpeg.get_ffmpeg_exe())')" > build/ffmpeg.xz
	$(PY) -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/geardyn.spec
	cp packaging/geardyn.desktop packaging/install-desktop-entry.sh resources/icons/geardyn.svg dist/geardyn/
	@du -sm dist/geardyn | awk '{print "dist/geardyn: " $$1 " MB (goal: at most 450 MB)"}'
	$(XVFB) $(PY) packaging/smoke_test.py

clean:
	rm -rf $(VENV) build dist *.egg-info
