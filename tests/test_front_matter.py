"""Front matter that a lax YAML reader would take silently is a mistake with one message: a field
given twice (the reader keeps the last), a key that is not text, an alias copying another value."""
import pytest

from glossary import entries

MD = "entries/x/entry.md"


def read(front):
    return entries.split_front_matter(f"---\n{front}\n---\nThe prose.\n", MD)


@pytest.mark.parametrize("front, message", [
    ("title: Attention\nsummary: s\ntitle: Self-attention",
     "entries/x/entry.md: front matter (line 4): field 'title' is given twice (also on line 2); keep one of them"),
    ("figures:\n  - name: a\n    name: b",
     "entries/x/entry.md: front matter (line 4): field 'name' is given twice (also on line 3); keep one of them"),
    ("title: T\n2024: x",
     "entries/x/entry.md: front matter (line 3): the key 2024 is not a field name; write the field's name as text"),
    ("title: &t Attention\nsummary: *t",
     "entries/x/entry.md: front matter (line 3): the alias *t repeats another part of the metadata; "
     "write the value out"),
])
def test_lax_yaml_is_an_error_naming_file_and_line(front, message):
    with pytest.raises(entries.EntryError) as err:
        read(front)
    assert str(err.value) == message


def test_well_formed_front_matter_reads_as_before():
    meta, body = read("title: Attention\nsee_also: [a, b]\nfigures:\n  - {name: a, kind: line}")
    assert meta == {"title": "Attention", "see_also": ["a", "b"], "figures": [{"name": "a", "kind": "line"}]}
    assert body == "The prose.\n"
