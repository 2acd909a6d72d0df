# The two commands of the README: `make site` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SNAKEMAKE := $(VENV)/bin/snakemake
CORES ?= 2
DEBIAN_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-pictures texlive-latex-extra \
	poppler-utils chromium fonts-dejavu-core

.PHONY: site test setup system-packages verify manifest new-entry bench clean

site: setup
	@PYTHONPATH=src $(PY) -m glossary.build --cores $(CORES)

# Rebuild from a clean clone in a temporary folder and compare with site.sha256.
verify: setup
	@PYTHONPATH=src $(PY) scripts/verify.py

# After an intended change of the site's bytes: rewrite site.sha256 from site/.
manifest: site
	@PYTHONPATH=src $(PY) scripts/verify.py --update

new-entry: setup
	@PYTHONPATH=src $(PY) scripts/new_entry.py "$(NAME)"

bench: setup
	@PYTHONPATH=src $(PY) scripts/bench.py

setup: $(VENV)/.installed system-packages

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --require-virtualenv -r requirements.lock
	@touch $@

# TeX Live (pgfplots, standalone), poppler and Chromium from Debian's packages.
system-packages:
	@missing=""; \
	command -v pdflatex >/dev/null && kpsewhich pgfplots.sty standalone.cls >/dev/null 2>&1 || missing=tex; \
	command -v pdftocairo >/dev/null && command -v pdftoppm >/dev/null || missing="$$missing poppler"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages ($$missing missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(DEBIAN_PACKAGES) >/dev/null; \
	  else \
	    echo "missing:$$missing. Install them with:"; \
	    echo "  sudo apt-get install --no-install-recommends $(DEBIAN_PACKAGES)"; exit 1; \
	  fi; \
	fi

test: setup
	$(PY) -m pytest

clean:
	rm -rf results logs .snakemake site site.new
