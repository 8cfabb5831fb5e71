"""kgcite: verifiable question answering over knowledge graphs."""

from importlib import metadata

try:
    __version__ = metadata.version("kgcite")  # one version: the installed package's
except metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "unknown (not installed)"
