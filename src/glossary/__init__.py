"""Shared build logic of the glossary: entries, demos, numeric platform, pages."""
