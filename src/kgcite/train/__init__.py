"""Training kgcite's own models (needs the ``train`` extra)."""


class TrainError(RuntimeError):
    """Training cannot run: the train extra is missing, or the data is unusable."""
