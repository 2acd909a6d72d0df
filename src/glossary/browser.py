"""The browser the measures and the site audit drive: Debian's Chromium under Playwright, which
downloads no browser of its own (glossary.previewmeasure, glossary.auditpage)."""

# Chromium's headless shell (Debian's chromium-headless-shell, the same Blink as chromium): what
# Playwright itself runs headless; it starts without the browser's UI, at a third of the CPU.
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
