"""The wheel's dependencies: every pin of requirements.lock, read when the wheel is built, so that the lock stays
their one home (docs/install.md says why the whole lock: the bytes of a build are promised with it)."""
from pathlib import Path

from hatchling.metadata.plugin.interface import MetadataHookInterface


class LockedDependencies(MetadataHookInterface):
    def update(self, metadata):
        lines = Path(self.root, "requirements.lock").read_text(encoding="utf-8").splitlines()
        metadata["dependencies"] = [pin for pin in (line.split("#", 1)[0].strip() for line in lines) if pin]
