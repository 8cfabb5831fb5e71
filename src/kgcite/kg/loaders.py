"""Readers for the graph formats kgcite ships or meets: BioKaLMA JSON, RDF, ``head|rel|tail`` TSV, CSV.

Every reader validates as it goes and names the file, the line (or item) and the field of the
first bad record, so a user can fix the input instead of guessing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pyoxigraph import Quad, RdfFormat, parse

from kgcite.errors import InputError
from kgcite.jsonl import loads
from kgcite.kg.keys import LABEL_PROPERTY
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.kg.rdf import entity_quads, triple_quads
from kgcite.kg.scheme import IriScheme

#: Keys of a BioKaLMA entity dict that are not relations (``name`` is both: label and a citable triple).
_BIOKALMA_META = {"qid", LABEL_PROPERTY}


@dataclass(frozen=True)
class BiokalmaItem:
    """One BioKaLMA question with the graph the authors retrieved for it."""

    index: int
    question: str
    graph: Subgraph


def biokalma_subgraph(
    entities: Any, *, where: tuple[str | Path, int | None] = ("<input>", None), field: str = "kg"
) -> Subgraph:
    """The subgraph of a list of BioKaLMA entity dicts (``qid``, ``name``, ``property: value``).

    ``name`` becomes the entity label and is also a triple ``(qid, name, label)``: the KaLMA
    authors' scorer counts it as knowledge of the graph like any other key. ``date_of_birth``
    style keys read as ``date of birth``, as in the paper's prompts (the metrics compare either
    spelling alike); empty values are absent knowledge, not triples.
    """
    path, line = where
    if not isinstance(entities, list):
        raise InputError(path, line, field, f"expected a list of entity objects, got {type(entities).__name__}")
    parts = []
    for i, raw in enumerate(entities):
        f = f"{field}[{i}]"
        if not isinstance(raw, Mapping):
            raise InputError(path, line, f, f"expected an object, got {type(raw).__name__}")
        qid = raw.get("qid")
        if not isinstance(qid, str) or not qid.strip():
            raise InputError(path, line, f"{f}.qid", "missing or not a non-empty string")
        name = raw.get("name", qid)
        if not isinstance(name, str):
            raise InputError(path, line, f"{f}.name", "not a string")
        label = name.strip() or qid
        triples = [Triple(qid, label, LABEL_PROPERTY, label)] if LABEL_PROPERTY in raw and name.strip() else []
        for key, value in raw.items():
            if key in _BIOKALMA_META:
                continue
            values = value if isinstance(value, list) else [value]  # kgcite writes several values as a list
            for v in values:
                if not isinstance(v, str):
                    raise InputError(path, line, f"{f}.{key}", f"expected a string value, got {type(v).__name__}")
                if v.strip():
                    triples.append(Triple(qid, label, key.replace("_", " ").strip(), v.strip()))
        types = tuple(t.object_value for t in triples if t.relation == "instance of")
        parts.append(Subgraph((Entity(qid, label, (), types),), tuple(triples)))
    return Subgraph.merge(parts)


def subgraph_to_biokalma(graph: Subgraph) -> list[dict[str, Any]]:
    """The inverse of :func:`biokalma_subgraph`: one dict per subject, a list where a property
    has several values. Subjects of incoming triples get a dict of their own."""
    out: dict[str, dict[str, Any]] = {}
    for e in graph.entities:
        out[e.id] = {"qid": e.id, "name": e.label}
    for t in graph.triples:
        d = out.setdefault(t.subject_id, {"qid": t.subject_id, "name": t.subject_label})
        if t.is_label:  # already the dict's "name"
            continue
        if t.relation in d:
            prev = d[t.relation]
            d[t.relation] = [*prev, t.object_value] if isinstance(prev, list) else [prev, t.object_value]
        else:
            d[t.relation] = t.object_value
    return list(out.values())


def read_biokalma(path: str | Path) -> Iterator[BiokalmaItem]:
    """Items of a BioKaLMA ``*_question_graph.json`` file: ``[[question, [entity, ...]], ...]``."""
    try:
        raw = Path(path).read_bytes().removeprefix(b"\xef\xbb\xbf")  # a byte order mark is no text
    except IsADirectoryError as exc:
        raise InputError(path, None, None, "is a folder, not a file") from exc
    except OSError as exc:
        raise InputError(path, None, None, f"cannot read: {exc.strerror}") from exc
    try:
        data = loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(path, line, None, f"invalid UTF-8 at byte {exc.start}") from exc
    except json.JSONDecodeError as exc:
        raise InputError(path, exc.lineno, None, f"invalid JSON: {exc.msg}") from exc
    if not isinstance(data, list):
        raise InputError(path, None, None, "expected a JSON list of [question, entities] items")
    for i, item in enumerate(data):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise InputError(path, None, f"item[{i}]", "expected [question, [entity, ...]]")
        question = item[0].removeprefix("question:").strip()
        yield BiokalmaItem(i, question, biokalma_subgraph(item[1], where=(path, None), field=f"item[{i}][1]"))


def shipped_data(*parts: str) -> Path:
    """A path under the package's ``data/`` folder (BioKaLMA, SICK, MetaQA, samples)."""
    return Path(str(resources.files("kgcite").joinpath("data", *parts)))


def shipped_biokalma(split: str = "all") -> list[Path]:
    """Paths of the BioKaLMA files shipped in the package (``specific``, ``general`` or ``all``)."""
    files = {"specific": "complex_question_graph.json", "general": "simple_question_graph.json"}
    if split == "all":
        names = list(files.values())
    elif split in files:
        names = [files[split]]
    else:
        raise ValueError(f"unknown BioKaLMA split {split!r}; choose specific, general or all")
    return [shipped_data("biokalma", n) for n in names]


def _lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """Numbered lines that hold data: not blank, not a ``#`` comment."""
    from kgcite.jsonl import text_lines

    for lineno, text in text_lines(path):
        if isinstance(text, InputError):
            raise text
        line = text.rstrip("\n\r")
        if line.strip() and not line.startswith("#"):
            yield lineno, line


def _name_triple(path: str | Path, lineno: int, parts: list[str], shape: str) -> Triple:
    """A head, relation and tail named by their text (the text is each entity's id)."""
    if len(parts) != 3:
        raise InputError(
            path, lineno, None, f"expected {shape}, got {len(parts)} field{'' if len(parts) == 1 else 's'}"
        )
    head, rel, tail = (p.strip() for p in parts)
    for name, value in (("head", head), ("relation", rel), ("tail", tail)):
        if not value:
            raise InputError(path, lineno, name, "empty")
    return Triple(head, head, rel, tail, tail)


def read_tsv(path: str | Path, *, sep: str | None = None) -> Iterator[Triple]:
    """``head|relation|tail`` lines (MetaQA ``kb.txt``) or ``head<TAB>relation<TAB>tail``; heads
    and tails are entities named by their text. ``sep=None``: a line with exactly two tabs, or
    tabs and no ``|``, is tab-separated, any other ``|``-separated (names may hold the other
    separator)."""
    for k, (lineno, line) in enumerate(_lines(path)):
        tabs = line.count("\t")
        cut = sep or ("\t" if tabs == 2 or (tabs and "|" not in line) else "|")
        shown = "<TAB>" if cut == "\t" else cut
        parts = line.split(cut)
        if not k and is_header(parts):
            continue
        if sep is None and len(parts) == 1 and " " in line.strip():
            raise InputError(
                path,
                lineno,
                None,
                "expected head<TAB>relation<TAB>tail (or head|relation|tail): no tab or | on the "
                "line, and spaces do not separate fields",
            )
        yield _name_triple(path, lineno, parts, f"head{shown}relation{shown}tail")


#: First lines of a CSV or TSV graph read as its header, not as a triple.
HEADER_LINES = frozenset(
    [
        ("head", "relation", "tail"),
        ("head", "rel", "tail"),
        ("subject", "predicate", "object"),
        ("subject", "relation", "object"),
        ("source", "relation", "target"),
        ("from", "relation", "to"),
    ]
)


def is_header(parts: list[str]) -> bool:
    """A first line whose fields name the columns (:data:`HEADER_LINES`, any case): no triple."""
    return tuple(p.strip().lower() for p in parts) in HEADER_LINES


def read_csv(path: str | Path) -> Iterator[Triple]:
    """``head,relation,tail`` lines, fields quoted as spreadsheets write them (``"Smith, John"``),
    with or without a header line (:data:`HEADER_LINES`); entities named by their text as in TSV."""
    import csv

    for k, (lineno, line) in enumerate(_lines(path)):
        try:
            parts = next(csv.reader([line], strict=True))
        except csv.Error as exc:
            raise InputError(path, lineno, None, f"not a CSV line: {exc}") from exc
        if not k and is_header(parts):
            continue
        yield _name_triple(path, lineno, parts, "head,relation,tail")


def read_named(path: str | Path) -> Iterator[Triple]:
    """The triples of a graph file that names entities by their text: CSV, else TSV."""
    return read_csv(path) if file_kind(path) == "csv" else read_tsv(path)


_RDF_FORMATS = {".nt": RdfFormat.N_TRIPLES, ".ttl": RdfFormat.TURTLE, ".nq": RdfFormat.N_QUADS, ".trig": RdfFormat.TRIG}


def rdf_format(path: str | Path) -> RdfFormat | None:
    return _RDF_FORMATS.get(Path(path).suffix.lower())


def read_rdf(path: str | Path) -> Iterator[Quad]:
    """Quads of an N-Triples / Turtle / N-Quads / TriG file, errors located in the file."""
    fmt = rdf_format(path)
    if fmt is None:
        raise InputError(path, None, None, f"unknown RDF extension; use one of {sorted(_RDF_FORMATS)}")
    try:
        yield from parse(path=str(path), format=fmt)
    except SyntaxError as exc:
        raise InputError(path, getattr(exc, "lineno", None), None, f"RDF syntax error: {exc}") from exc
    except MemoryError as exc:  # pyoxigraph's parser refuses a single term over 16 MiB
        raise InputError(path, None, None, f"a term too large to parse ({exc})") from exc
    except OSError as exc:
        raise InputError(path, None, None, f"cannot read: {exc.strerror or exc}") from exc


def file_kind(path: str | Path) -> str:
    """``biokalma``, ``tsv``, ``csv`` or ``rdf``, from the file name."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "biokalma"
    if suffix in (".txt", ".tsv"):
        return "tsv"
    if suffix == ".csv":
        return "csv"
    if suffix in _RDF_FORMATS:
        return "rdf"
    raise InputError(
        path,
        None,
        None,
        "unknown graph format: expected .json (BioKaLMA), .txt/.tsv (head|rel|tail), .csv (head,rel,tail) "
        "or RDF (.nt .ttl .nq .trig)",
    )


def graph_quads(path: str | Path, scheme: IriScheme) -> Iterator[Quad]:
    """The RDF quads of any supported graph file, spelled with ``scheme``."""
    kind = file_kind(path)
    if kind == "rdf":
        yield from read_rdf(path)
        return
    if kind == "biokalma":
        subgraphs: Iterator[Subgraph] = (item.graph for item in read_biokalma(path))
    else:
        subgraphs = (Subgraph((Entity(t.subject_id, t.subject_label),), (t,)) for t in read_named(path))
    seen: set[str] = set()
    for graph in subgraphs:
        for entity in graph.entities:
            if entity.id not in seen:
                seen.add(entity.id)
                yield from entity_quads(entity, scheme)
        for triple in graph.triples:
            yield from triple_quads(triple, scheme)
