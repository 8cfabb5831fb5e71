"""The ``kgcite`` command line: one module per command group (``answering``, ``bench``,
``evaluators``, ``quotes``, ``research``, ``retrieve``, ``serve``), the options and helpers they
share in ``common``, and the parser and ``main`` in ``main``. Nothing outside imports it."""
