"""The one kind of mistake a build reports: EntryError, told as `file: field: problem; fix`.

It lives below every reader and the model (glossary.entries, glossary.xref, the LaTeX reader), so
that each can raise it without importing another; glossary.entries.EntryError is the same class.
"""


class EntryError(ValueError):
    """A mistake in an entry or in config.yaml, told as `file: field: problem; fix`."""
