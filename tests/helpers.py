"""Helpers the test modules share (test modules import from here, not from each other)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kgcite.kg import EmbeddedStore, Entity, Triple
from kgcite.kg.rdf import entity_quads, triple_quads
from kgcite.kg.virtuoso import PACKAGE as VIRTUOSO_PACKAGE
from kgcite.kg.virtuoso import Virtuoso, binary


def kgcite_cmd() -> list[str]:
    """The installed `kgcite` command, as a user runs it (the module where it is not on PATH)."""
    exe = shutil.which("kgcite")
    return [exe] if exe else [sys.executable, "-m", "kgcite.cli"]


def kgcite(
    *args: str, cwd: Path | None = None, timeout: int = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`kgcite ARGS` in a subprocess with no standard input, as CI runs it; ``env``: variables
    set on top of this process's environment."""
    return subprocess.run(
        [*kgcite_cmd(), *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )


def resize_disk(folder: Path, size: str) -> None:
    """Make a :func:`small_disk` bigger (freeing space) or smaller."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(folder)], check=True)


def virtuoso_or_skip(folder: Path) -> Virtuoso:
    """A started private Virtuoso, or a skip naming the package (CI installs it: `.ci/run`)."""
    if binary() is None:
        if os.environ.get("CI"):
            pytest.fail(f"virtuoso-t is not installed; .ci/run installs the Debian package {VIRTUOSO_PACKAGE}")
        pytest.skip(f"virtuoso-t is not installed (apt install {VIRTUOSO_PACKAGE})")
    server = Virtuoso(folder, buffers=5_000)
    server.start()
    return server


#: Tab-separated on purpose: graph files may be either.
BOOKS = """\
The Glass Orchard\twritten_by\tInes Calder
The Glass Orchard\tpublished_by\tHarbor Press
The Glass Orchard\tin_language\tPortuguese
Salt Roads\twritten_by\tInes Calder
Salt Roads\tpublished_by\tNorthwind
Salt Roads\tin_language\tEnglish
Night Ferry\twritten_by\tTomas Reyl
Night Ferry\tpublished_by\tHarbor Press
Night Ferry\tin_language\tDanish
Ines Calder\tborn_in\tLisbon
Tomas Reyl\tborn_in\tAarhus
"""


EVIL_LABEL = "Lord <script>alert(1)</script> Byron"
EVIL_VALUE = '<img src=x onerror="window.__xss=1">'


#: KaLMA's Figure 2: knowledge k1..k9, the retrieved graph G, the minimum set M = {k1..k5}.
K = {i: (f"Q{i}", f"p{i}", f"value {i}") for i in range(1, 10)}
G = set(K.values())
M = [K[i] for i in range(1, 6)]


def cite(*ids: int) -> str:
    """Citation brackets of the knowledge ``ids``."""
    return "".join(f"[{K[i][0]}, {K[i][1]}: {K[i][2]}]" for i in ids)


FIGURE_2 = f"First sentence {cite(1, 2)}. Second sentence {cite(2, 6)}[NA]. Third sentence {cite(6, 9)}."


# a functional property (place of birth) and a many-valued one (occupation)
PEOPLE = [
    Triple("a", "Ann", "place of birth", "Rome"),
    Triple("a", "Ann", "occupation", "painter"),
    Triple("a", "Ann", "occupation", "poet"),
    Triple("b", "Bob", "place of birth", "Paris"),
    Triple("b", "Bob", "occupation", "singer"),
    Triple("c", "Cy", "place of birth", "Oslo"),
    Triple("c", "Cy", "occupation", "painter"),
]


# Labels built to break naive query building: quotes, backslashes, newlines, braces, keywords.
HOSTILE_LABEL = 'O\'Brien "the \\ quoted" } ; DROP ALL ; #'
HOSTILE_NEWLINE = "first line\nSELECT * WHERE { ?s ?p ?o }"
HOSTILE_VALUE = 'x" } UNION { ?s ?p ?o } #'
HOSTILE_ID = 'id with "quotes" and spaces>{}'

ENTITIES = [
    Entity("Q212657", "Artemisia Gentileschi", ("Artemisia",)),
    Entity("Q367360", "Orazio Gentileschi"),
    Entity("Q220", "Rome", ("Roma",)),
    Entity("Q1001", "Anne Hathaway"),
    Entity("Q1002", "Anne Hathaway"),
    Entity("H1", HOSTILE_LABEL),
    Entity("H2", HOSTILE_NEWLINE),
    Entity(HOSTILE_ID, "Hostile Id"),
]
TRIPLES = [
    Triple("Q212657", "Artemisia Gentileschi", "instance of", "human"),
    Triple("Q212657", "Artemisia Gentileschi", "place of birth", "Rome", "Q220"),
    Triple("Q212657", "Artemisia Gentileschi", "occupation", "painter"),
    Triple("Q212657", "Artemisia Gentileschi", "father", "Orazio Gentileschi", "Q367360"),
    Triple("Q212657", "Artemisia Gentileschi", "residence", "Washington, D.C."),
    Triple("Q367360", "Orazio Gentileschi", "occupation", "painter"),
    Triple("Q367360", "Orazio Gentileschi", "child", "Artemisia Gentileschi", "Q212657"),
    Triple("Q1001", "Anne Hathaway", "occupation", "actor"),
    Triple("Q1002", "Anne Hathaway", "spouse", "William Shakespeare"),
    Triple("H1", HOSTILE_LABEL, "motto", HOSTILE_VALUE),
    Triple("H2", HOSTILE_NEWLINE, "described by", HOSTILE_LABEL, "H1"),
    Triple(HOSTILE_ID, "Hostile Id", "occupation", "painter"),
]


def store_of(entities: list[Entity], triples: list[Triple]) -> EmbeddedStore:
    """An in-memory store holding exactly these entities (with their ids) and triples."""
    store = EmbeddedStore()
    store.add_quads(
        [q for e in entities for q in entity_quads(e, store.scheme)]
        + [q for t in triples for q in triple_quads(t, store.scheme)]
    )
    return store
