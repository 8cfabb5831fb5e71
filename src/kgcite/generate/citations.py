"""Citation syntax: an answer's text to sentences with their citations, and back (docs/concepts.md).

``[Q212657, place of birth: Rome, occupation: painter]`` is one KG citation carrying two citation
triples; ``[1][2]`` are quote citations of numbered passages; ``[NA]`` marks a sentence whose
knowledge the graph lacks. Whatever a model writes, parsing never raises: a bracket that cannot
be read comes back as an :class:`UnparsedCitation`, which the metrics count as a wrong citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from kgcite.kg.keys import TripleKey, property_key
from kgcite.kg.model import Subgraph
from kgcite.text.sentences import MAY_END, SENTENCE_END, is_boundary, next_char


@dataclass(frozen=True, slots=True)
class CitedTriple:
    """One ``property: value`` of a KG citation; parts a model left out are None."""

    entity_id: str | None
    relation: str | None
    value: str | None

    @property
    def complete(self) -> bool:
        return bool(self.entity_id and self.relation and self.value)

    @property
    def key(self) -> TripleKey | None:
        """The triple to look up in the graph, or None when a part is missing."""
        if self.entity_id and self.relation and self.value:
            return (self.entity_id, self.relation, self.value)
        return None


@dataclass(frozen=True, slots=True)
class KGCitation:
    entity_id: str
    pairs: tuple[tuple[str, str | None], ...]

    def triples(self) -> tuple[CitedTriple, ...]:
        if not self.pairs:  # "[Q1]": a citation with its relation and value missing
            return (CitedTriple(self.entity_id, None, None),)
        return tuple(CitedTriple(self.entity_id, p, v) for p, v in self.pairs)


@dataclass(frozen=True, slots=True)
class QuoteCitation:
    index: int


@dataclass(frozen=True, slots=True)
class NACitation:
    pass


@dataclass(frozen=True, slots=True)
class UnparsedCitation:
    raw: str
    reason: str


Citation = KGCitation | QuoteCitation | NACitation | UnparsedCitation


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence without its citation marks, and the citations that end it."""

    text: str
    citations: tuple[Citation, ...] = ()

    @property
    def na(self) -> bool:
        return any(isinstance(c, NACitation) for c in self.citations)

    def cited_triples(self) -> tuple[CitedTriple, ...]:
        return tuple(t for c in self.citations if isinstance(c, KGCitation) for t in c.triples())


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    sentences: tuple[Sentence, ...]

    def citations(self) -> tuple[Citation, ...]:
        return tuple(c for s in self.sentences for c in s.citations)

    def cited_triples(self) -> tuple[CitedTriple, ...]:
        """KaLMA's C: every citation triple, duplicates kept; an unreadable bracket counts as
        one citation with no part known (so it is wrong, not ignored); ``[NA]`` is no citation."""
        out: list[CitedTriple] = []
        for c in self.citations():
            if isinstance(c, KGCitation):
                out.extend(c.triples())
            elif isinstance(c, UnparsedCitation):
                out.append(CitedTriple(None, None, None))
        return tuple(out)

    @property
    def n_unparsed(self) -> int:
        return sum(isinstance(c, UnparsedCitation) for c in self.citations())

    def format(self) -> str:
        return format_answer(self.sentences)


# -- reading one bracket ------------------------------------------------------------------------

_QUOTES = re.compile(r"^\s*\d+(\s*,\s*\d+)*\s*$")
_NA = re.compile(r"^\s*N\s*/?\s*A\s*$", re.IGNORECASE)
_QID_PREFIX = re.compile(r"^\s*qid\s*:\s*", re.IGNORECASE)


class _Resolver:
    """What the question's subgraph tells the parser: entity ids, property names (canonical, so
    ``date_of_birth`` is known when the graph says ``date of birth``), values."""

    def __init__(self, known: Subgraph | Iterable[str] | None) -> None:
        if isinstance(known, Subgraph):
            self.ids = sorted(
                {t.subject_id for t in known.triples} | {e.id for e in known.entities}, key=len, reverse=True
            )
            self.relations: frozenset[str] | None = frozenset(map(property_key, known.relations()))
            self.value_list = [(t.subject_id, property_key(t.relation), t.object_value) for t in known.triples]
            self.longest = max((len(v) for _, _, v in self.value_list), default=0)
        else:
            self.longest = 0
            self.ids = []
            self.relations = frozenset(map(property_key, known)) if known is not None else None
            self.value_list = []

    def split_id(self, content: str) -> tuple[str, str]:
        for known_id in self.ids:  # ids may contain commas (e.g. MetaQA titles)
            if content.startswith(known_id) and content[len(known_id) :].lstrip()[:1] in ("", ","):
                return known_id, content[len(known_id) :].lstrip().removeprefix(",")
        head, _, rest = content.partition(",")
        return head.strip(), rest

    def continues_value(self, entity_id: str, relation: str, value: list[str], segment: str) -> bool:
        """Whether ``segment`` (text after a comma) belongs to the value (its pieces so far) rather
        than starting a pair."""
        prop, sep, _ = segment.partition(":")
        if not sep:
            return True
        if self.relations is None:
            return False
        length = sum(len(p) + 2 for p in value) + len(segment)
        if length <= self.longest:  # a value of the graph could still be this long
            joined, rel = ", ".join([*value, segment]), property_key(relation)
            if any(e == entity_id and r == rel and v.startswith(joined) for e, r, v in self.value_list):
                return True
        # Only property names known: an unknown name is text of the value. With the graph's
        # values known, an unknown name is a (wrong) citation of its own.
        return bool(self.relations) and not self.value_list and property_key(prop) not in self.relations


def parse_citation(content: str, known: Subgraph | Iterable[str] | None = None) -> list[Citation]:
    """The citations inside one pair of brackets (``content`` without the brackets)."""
    return _parse_bracket(content, _Resolver(known))


def _parse_bracket(content: str, resolver: _Resolver) -> list[Citation]:
    raw = f"[{content}]"
    if not content.strip():
        return [UnparsedCitation(raw, "empty brackets")]
    if _NA.match(content):
        return [NACitation()]
    if _QUOTES.match(content):
        return [QuoteCitation(int(n)) for n in re.findall(r"\d+", content)]
    entity_id, rest = resolver.split_id(_QID_PREFIX.sub("", content.strip(), count=1))
    if not entity_id or ":" in entity_id:
        return [UnparsedCitation(raw, "no entity id before the first comma")]
    pairs: list[tuple[str, list[str]]] = []  # (property, value pieces): joined once, at the end
    for segment in (s.strip() for s in rest.split(",")):
        if not segment and not pairs:
            continue
        if pairs and resolver.continues_value(entity_id, pairs[-1][0], pairs[-1][1], segment):
            if segment:
                pairs[-1][1].append(segment)
            continue
        prop, sep, value = segment.partition(":")
        if not sep:
            if pairs:
                pairs[-1][1].append(segment)
                continue
            return [UnparsedCitation(raw, f"{segment!r} is no 'property: value' pair")]
        pairs.append((prop.strip(), [value.strip()]))
    return [KGCitation(entity_id, tuple((p, ", ".join(v) or None) for p, v in pairs))]


# -- reading a whole answer ---------------------------------------------------------------------

_DOUBLE_PERIOD = re.compile(r"\.\s+\.(?=\s|$)")
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,;:!?])")


def _clean(text: str) -> str:
    text = " ".join(text.split())
    if ". ." in text:
        text = _DOUBLE_PERIOD.sub(".", text)  # "D.C. [cite]." leaves "D.C. ."
    return _SPACE_BEFORE_MARK.sub(r"\1", text) if " " in text else text


def _tokens(text: str, resolver: _Resolver) -> list[str | list[Citation]]:
    """Alternating text chunks and citation lists; brackets are atomic, so periods inside
    citation values never end a sentence."""
    out: list[str | list[Citation]] = []
    buf: list[str] = []
    i, n = 0, len(text)
    close = reopen = -1  # the next "]" and "[" after i, found again only once passed: linear
    memo: dict[str, list[Citation]] = {}  # citations are immutable: a repeated bracket is read once
    while i < n:
        c = text[i]
        if c == "[":
            if close != n and close <= i:
                close = text.find("]", i + 1) % (n + 1)  # -1 → n: none left
            if reopen != n and reopen <= i:
                reopen = text.find("[", i + 1) % (n + 1)
            if close == n or reopen < close:
                end = reopen
                if end == i + 1:  # a run "[[[": one unreadable citation, not one per character
                    while end + 1 < n and text[end + 1] == "[":
                        end += 1
                bad = text[i:end]
                cites: list[Citation] = memo.get(bad) or memo.setdefault(
                    bad, [UnparsedCitation(bad, "unclosed bracket")]
                )
                i = end
            else:
                content = text[i + 1 : close]
                cites = memo.get(content) or memo.setdefault(content, _parse_bracket(content, resolver))
                i = close + 1
            if buf:
                out.append("".join(buf))
            out.append(cites)
            buf = []
        elif c == "]":
            end = i + 1
            while end < n and text[end] == "]":
                end += 1
            if buf:
                out.append("".join(buf))
            out.append([UnparsedCitation(text[i:end], "closing bracket without an opening one")])
            buf = []
            i = end
        else:
            nxt = min(close if close > i else _find(text, "]", i, n), reopen if reopen > i else _find(text, "[", i, n))
            buf.append(text[i:nxt])
            i = nxt
    out.append("".join(buf))
    return out


def _find(text: str, char: str, start: int, n: int) -> int:
    pos = text.find(char, start)
    return n if pos == -1 else pos


def parse_answer(text: str, known: Subgraph | Iterable[str] | None = None) -> ParsedAnswer:
    """Split an answer into sentences, each with the citations that end it.

    ``known`` (the question's subgraph, or its property names) resolves values that contain
    commas or colons. Citations right after a sentence's final period still belong to it.
    """
    resolver = _Resolver(known)
    tokens = _tokens(text, resolver)
    sentences: list[Sentence] = []
    parts: list[str] = []
    cites: list[Citation] = []
    closed = False  # the current sentence has ended; only trailing citations may still join it

    plain: dict[str, Sentence | None] = {}  # uncited sentences by raw text: immutable, so shared

    def flush() -> None:
        nonlocal parts, cites, closed
        raw = "".join(parts)
        if cites:
            sentences.append(Sentence(_clean(raw), tuple(cites)))
        else:
            if raw not in plain:
                body = _clean(raw)
                plain[raw] = Sentence(body) if body else None
            if (sentence := plain[raw]) is not None:
                sentences.append(sentence)
        parts, cites, closed = [], [], False

    after = [""] * (len(tokens) + 1)  # the first non-space character of the text after token i
    for idx in range(len(tokens) - 1, -1, -1):
        tok = tokens[idx]
        after[idx] = (next_char(tok, 0) or after[idx + 1]) if isinstance(tok, str) else after[idx + 1]
    for idx, tok in enumerate(tokens):
        if isinstance(tok, list):
            cites.extend(tok)
            continue
        if not closed and not MAY_END.search(tok):  # no sentence ends in this chunk
            parts.append(tok)
            continue
        start = 0
        if closed and tok.strip():
            if tok.lstrip()[:1] in ".!?":  # "D.C. [Q1, ...]." ended later than it seemed
                closed = False
            else:
                flush()
        for m in SENTENCE_END.finditer(tok):
            rest = next_char(tok, m.end())
            if not is_boundary(tok, m, rest or after[idx + 1]):
                continue
            parts.append(tok[start : m.end()])
            start = m.end()
            if rest:
                flush()
            else:
                closed = True
        parts.append(tok[start:])
    flush()
    return ParsedAnswer(tuple(sentences))


# -- writing ------------------------------------------------------------------------------------


def format_citation(citation: Citation) -> str:
    if isinstance(citation, NACitation):
        return "[NA]"
    if isinstance(citation, QuoteCitation):
        return f"[{citation.index}]"
    if isinstance(citation, UnparsedCitation):
        return citation.raw
    pairs = "".join(f", {p}: {v}" if v is not None else f", {p}" for p, v in citation.pairs)
    return f"[{citation.entity_id}{pairs}]"


def cite_triples(keys: Iterable[TripleKey]) -> tuple[KGCitation, ...]:
    """KG citations for triples, one bracket per entity in first-seen order."""
    by_entity: dict[str, list[tuple[str, str | None]]] = {}
    for entity_id, relation, value in keys:
        by_entity.setdefault(entity_id, []).append((relation, value))
    return tuple(KGCitation(e, tuple(p)) for e, p in by_entity.items())


def attach_marks(text: str, marks: str) -> str:
    """KaLMA's placement: citation marks before the sentence's final punctuation."""
    if not marks:
        return text
    m = re.search(r"[.!?]+[\"'”’)]*$", text)
    if m is None:
        return f"{text} {marks}".strip()
    return f"{text[: m.start()]} {marks}{m.group()}".lstrip()


def format_sentence(sentence: Sentence) -> str:
    return attach_marks(sentence.text, "".join(format_citation(c) for c in sentence.citations))


def with_context(sentences: Iterable[Sentence]) -> Iterator[tuple[Sentence, str]]:
    """Each sentence with the text before it: where a pronoun finds its antecedent."""
    before: list[str] = []
    for s in sentences:
        yield s, " ".join(before)
        before.append(s.text)


def format_answer(sentences: Sequence[Sentence]) -> str:
    return " ".join(format_sentence(s) for s in sentences)
