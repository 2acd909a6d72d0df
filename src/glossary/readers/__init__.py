"""The readers: each source format read into the project's entry model (glossary.readers.latex for
glossaries-extra LaTeX)."""
