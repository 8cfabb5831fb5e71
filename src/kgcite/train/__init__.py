"""Training kgcite's own models (needs the ``train`` extra)."""

from kgcite.errors import TrainError  # noqa: F401 - re-exported
