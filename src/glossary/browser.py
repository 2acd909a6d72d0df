"""The browser the measures and the site audit drive: Debian's Chromium under Playwright, which
downloads no browser of its own (glossary.previewmeasure, glossary.auditpage)."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
