# The two commands of the README: `make site` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SNAKEMAKE := $(VENV)/bin/snakemake
# The Slurm executor plugin, apart from the venv (requirements-slurm.lock): on PYTHONPATH for Slurm runs only.
SLURM_LIB := $(VENV)/slurm
CORES ?= 2
# `make verify`'s report: text, markdown (a CI job summary) or json.
FORMAT ?= text
# What `make site` needs, and what the tests need besides.
DEBIAN_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-pictures texlive-latex-extra \
	texlive-fonts-recommended cm-super texlive-lang-german texlive-lang-greek \
	poppler-utils
# texlive-plain-generic: tracklang, which glossaries needs when test_audit builds the fixture's own book.
TEST_DEBIAN_PACKAGES := chromium-headless-shell fonts-dejavu-core default-jre-headless slurmctld slurmd slurm-client \
	texlive-plain-generic

.PHONY: site slurm serve test real-check setup test-setup test-packages system-packages bench-packages verify manifest new-entry bench clean links audit

# A dictionary kept elsewhere: SOURCE= its main .tex file (or a YAML file naming it), OUT= the folder
# to build in (OUT/site, OUT/results); nothing is written beside the sources.
# EDITIONS="de=<main .tex> ...": its translations, each a site under <lang>/ (docs/editions.md).
DICTIONARY_ARGS = $(if $(SOURCE),--source "$(SOURCE)") $(if $(OUT),--out "$(OUT)") $(if $(EDITIONS),--editions "$(EDITIONS)")

site: setup
	@PYTHONPATH=src $(PY) -m glossary.build --cores $(CORES) $(DICTIONARY_ARGS)

# The same build through Slurm (profiles/slurm; docs/slurm.md), under the same build lock, then published.
# Absolute paths: with OUT= the build (and every Slurm job) runs in OUT, not here.
slurm: setup $(SLURM_LIB)/.installed
	@PYTHONPATH=$(CURDIR)/src:$(CURDIR)/$(SLURM_LIB) $(PY) -m glossary.build --profile $(CURDIR)/profiles/slurm $(DICTIONARY_ARGS) $(if $(ARGS),-- $(ARGS))

# A live preview for editors on 127.0.0.1 (docs/preview.md); it never writes site/.
PORT ?= 8000
serve: setup
	@PYTHONPATH=src $(PY) -m glossary.preview --port $(PORT) --cores $(CORES) $(DICTIONARY_ARGS)

# Rebuild from a clean clone in a temporary folder and compare with site.manifest.json.
verify: setup
	@PYTHONPATH=src $(PY) scripts/verify.py --format $(FORMAT) $(if $(SOURCE),--source "$(SOURCE)")

# The site's links (checked by every build): the count, and the addresses that leave the site, not fetched.
links: site
	@PYTHONPATH=src $(PY) -m glossary.links --site site

# The audit of a built site in Chromium (glossary.audit): widths at 390 and 1280 px, light and dark; reference
# numbers against their targets' and numbers shown twice; "??"; the drawn figures' contrast in the dark; TeX in
# titles, descriptions, alt texts, terms.json and llms.txt; axe-core.  After `make site` (or SITE=<folder>, or
# OUT= as for make site); BOOK=<the authors' PDF> also compares each term's words with the book (glossary.fidelity).
# PAGES="terms/a.html terms/b.html" looks at those pages only (after an edit).
audit: setup
	@PYTHONPATH=src $(PY) -m glossary.audit --site "$(or $(SITE),$(or $(OUT),.)/site)" $(if $(BOOK),--book "$(BOOK)") $(foreach p,$(PAGES),--page "$(p)")

# After an intended change of the site's bytes: rewrite site.manifest.json from site/.
manifest: site
	@PYTHONPATH=src $(PY) scripts/verify.py --update $(if $(SOURCE),--source "$(SOURCE)" --site "$(or $(OUT),.)/site")

new-entry: setup
	@PYTHONPATH=src $(PY) scripts/new_entry.py "$(NAME)"

bench: setup bench-packages
	@PYTHONPATH=src $(PY) scripts/bench.py

setup: $(VENV)/.installed system-packages

test-setup: test-packages node_modules/.installed $(SLURM_LIB)/.installed

# The Nu HTML checker the tests run (vnu.jar from npm's vnu-jar, pinned in package-lock.json;
# Java runs it).  Its install script, which would download a Java runtime, is not run.
node_modules/.installed: package-lock.json | test-packages
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# A new lock gives a new venv (--clear): nothing stays installed that the lock dropped.
$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv --clear $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --require-virtualenv -r requirements.lock
	@touch $@

# Snakemake imports every executor plugin it finds at each start (the Slurm one
# imports pandas: 0.4 s), so the plugin lives outside the venv's site-packages.
$(SLURM_LIB)/.installed: requirements-slurm.lock $(VENV)/.installed
	rm -rf $(SLURM_LIB)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --target $(SLURM_LIB) -r requirements-slurm.lock
	@touch $@

# TeX Live (pgfplots, standalone) and poppler from Debian's packages; as root they
# are installed, otherwise the exact command is printed.
system-packages:
	@missing=""; \
	command -v pdflatex >/dev/null && kpsewhich pgfplots.sty standalone.cls phvr8t.tfm sfrm1000.pfb ngerman.ldf greek.ldf >/dev/null 2>&1 || missing=tex; \
	command -v pdftocairo >/dev/null && command -v pdftoppm >/dev/null || missing="$$missing poppler"; \
	$(call apt_install,$(DEBIAN_PACKAGES))

# For the tests: Chromium's headless shell (Playwright drives it), Java and npm (the Nu HTML checker),
# and a single-node Slurm (the build through snakemake-executor-plugin-slurm).
test-packages:
	@missing=""; \
	command -v chromium-headless-shell >/dev/null || missing="$$missing chromium"; \
	kpsewhich tracklang.sty >/dev/null 2>&1 || missing="$$missing tracklang"; \
	command -v java >/dev/null || missing="$$missing java"; \
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null || missing="$$missing slurm"; \
	extra=""; command -v npm >/dev/null || { missing="$$missing npm"; extra="nodejs npm"; }; \
	$(call apt_install,$(TEST_DEBIAN_PACKAGES) $$extra)

# For make bench: the authors' own build of the real dictionary (latexmk -pdf ADictML_Main.tex) needs
# algorithm/algpseudocode, IEEEtran and tracklang beyond what the site needs.
BENCH_DEBIAN_PACKAGES := latexmk texlive-science texlive-publishers texlive-plain-generic
bench-packages:
	@missing=""; \
	command -v latexmk >/dev/null && kpsewhich algpseudocode.sty IEEEtran.bst tracklang.sty >/dev/null 2>&1 || missing=tex; \
	$(call apt_install,$(BENCH_DEBIAN_PACKAGES))

define apt_install
if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages ($$missing missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(1) >/dev/null; \
	  else \
	    echo "missing:$$missing. Install them with:"; \
	    echo "  sudo apt-get install --no-install-recommends $(1)"; exit 1; \
	  fi; \
	fi
endef

# Tests run on this many pytest-xdist workers (pyproject.toml: --dist loadfile); many wait on
# Chromium, Slurm's polling or a build's subprocesses, so more workers than cores pay (docs/testing.md).
# TEST_WORKERS=0 runs them in one process.
TEST_WORKERS ?= 4

test: setup test-setup
	$(PY) -m pytest -n $(TEST_WORKERS)

# What only a machine with the real dictionary and the seeds beside the clone (../shared) can check:
# checks/ (docs/testing.md); each check skips, with the reason, where they are absent.
real-check: setup test-setup
	$(PY) -m pytest checks

clean:
	rm -rf results logs .snakemake site site.new
