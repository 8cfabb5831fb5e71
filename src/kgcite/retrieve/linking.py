"""Entity linking as KaLMA §3.1 does it, without an LLM, and without depending on NER.

Mentions come from capitalised runs and from a case-insensitive look-up of every word n-gram
of the question against the graph's labels (``_`` and ``-`` read as spaces), so "stephen crane"
and a one-word "Harrowgate" link without NER. NER (spaCy, over a second to load) is asked only
when a capitalised word of the question is left unexplained by those mentions, when nothing
links, or when a type would choose among namesakes (a person, a ship of the same name); then
its mentions come first and lend their types. A mention with no exact
label gets the closest label by edit distance (reported: ``linked "Stephen Hawkings" →
Stephen Hawking (Q17714)``). Same-name candidates (namesakes) are ranked first by having the
relations the question asks for, then by how many of their neighbours' values occur in the
question; a NER type filter (a PERSON mention links to a ``human``) applies first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgcite.kg.hubs import rarest_first, relation_counts
from kgcite.kg.keys import property_key
from kgcite.kg.model import Entity, Subgraph
from kgcite.kg.namesakes import qualified, said_as
from kgcite.kg.scheme import label_key
from kgcite.kg.store import KGStore
from kgcite.models.ner import NER, Mention
from kgcite.text.lexicon import ARTICLES, QUESTION_WORDS, STOP
from kgcite.text.values import normalize

#: NER label → KG types it may link to (WikiData type labels); labels not listed are unfiltered.
TYPE_FILTER: dict[str, frozenset[str]] = {
    "PERSON": frozenset({"human", "fictional human", "person"}),
}
#: NER labels that are never worth linking (numbers, dates...).
SKIP_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})

_NAME_RELATIONS = frozenset({"name", "given name", "surname", "family name", "instance of", "sex or gender"})
#: Neighbour triples read to tell namesakes apart: enough to find the question's other names,
#: bounded for a hub.
_EVIDENCE_TRIPLES = 2000
#: The longest name looked up inside a longer run of capitalised words, in words, and the longest
#: mention spelt loosely, in characters: a pasted page of names costs a bounded search.
_NAME_WORDS = 12
_FUZZY_CHARS = 80
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
_WORD_SPLIT = re.compile(r"[\s,;:!?()\[\]\"“”]+")
#: Function words that begin titles ("As Good as It Gets", "Being John Malkovich"): a span may.
_TITLE_WORDS = frozenset(["also", "as", "being", "both", "than", "then"])
#: Words an n-gram of the question may not start or end with: the one stop list and the question
#: words, less those that begin titles, plus the words of a request ("tell me about").
_STOP = (STOP - _TITLE_WORDS) | QUESTION_WORDS | frozenset(["he", "she", "they", "about", "me", "tell"])
_JOINED = re.compile(r"\s*,\s*|\s+(?:or|and)\s+")
_CAPITAL_WORD = r"[A-Z][\w\-.]*(?:['’]\w+)*"  # "Momma's" is one word: "Big Momma's House" one run
_CAPITALISED_RUN = re.compile(
    rf"\b(?:{_CAPITAL_WORD}(?:\s+(?:of|the|de|van|von|da|di|del|la|le|{_CAPITAL_WORD}))*\s+)*{_CAPITAL_WORD}"
)


@dataclass(frozen=True, slots=True)
class LinkedEntity:
    entity: Entity
    mention: str
    ner_label: str
    evidence: int  # neighbour values found in the question: the disambiguation score
    fuzzy: bool = False  # linked by edit distance: the mention is not the label
    namesake: bool = False  # one of several "Name (role)" the mention names alike: each is answered

    def note(self) -> str | None:
        """What a user should be told: a link made by edit distance (not one that differs from the
        label only in punctuation or case: "Miners' Institute" read as "Miners Institute")."""
        if not self.fuzzy or normalize(self.mention) == normalize(self.entity.label):
            return None
        return f'linked "{self.mention}" → {self.entity.named()}'


def clean_mention(text: str) -> str:
    """``Stephen Crane's`` → ``Stephen Crane``; surrounding quotes and punctuation dropped."""
    text = text.strip().strip("\"'“”‘’.,;:!?()[]")
    return _POSSESSIVE.sub("", text).strip()


def type_ok(entity: Entity, ner_label: str) -> bool:
    allowed = TYPE_FILTER.get(ner_label)
    if allowed is None or not entity.types:
        return True
    return any(t.lower() in allowed for t in entity.types)


class EntityLinker:
    """Links the entities a question mentions."""

    def __init__(
        self,
        store: KGStore,
        ner: NER,
        *,
        max_candidates: int = 20,
        fallback: bool = True,
        max_ngram: int = 6,
        max_fuzzy: int = 500,
    ) -> None:
        self.store, self.ner = store, ner
        self.max_candidates, self.fallback, self.max_ngram, self.max_fuzzy = (
            max_candidates,
            fallback,
            max_ngram,
            max_fuzzy,
        )

    def link(self, question: str, asked: Sequence[str] = ()) -> list[LinkedEntity]:
        return self.link_many([question], [asked])[0]

    def link_many(
        self, questions: Sequence[str], asked: Sequence[Sequence[str]] | None = None
    ) -> list[list[LinkedEntity]]:
        """``asked[i]``: the relations question i asks for, which rank namesakes. Questions whose
        names the graph's labels explain are linked without NER; the rest go to NER in one batch."""
        asked = asked or [()] * len(questions)
        out: list[list[LinkedEntity] | None] = []
        for q, a in zip(questions, asked, strict=True):
            found, typed = self._link(q, [], a)
            out.append(found if found and not typed and not self._unexplained(q, found) else None)
        todo = [i for i, links in enumerate(out) if links is None]
        if todo:
            mentions = self.ner.mentions([questions[i] for i in todo])
            for i, ms in zip(todo, mentions, strict=True):
                out[i] = self._link(questions[i], ms, asked[i])[0]
        return [links or [] for links in out]

    @staticmethod
    def _unexplained(question: str, found: Sequence[LinkedEntity]) -> bool:
        """Whether a capitalised word after the first is in no linked mention: a name the label
        look-ups missed ("He Yan"), which NER may find, or type."""
        covered = {label_key(w) for le in found for w in _words(le.mention)}
        words = _words(question)[1:]
        return any(w[:1].isupper() and label_key(w) not in covered | _STOP for w in words)

    def _mentions(self, question: str, mentions: list[Mention]) -> list[tuple[str, str]]:
        """(text, NER label) to look up. A small NER model often cuts names short ("Emmett" for
        "Emmett Till"), so a mention grows to the capitalised run around it; with ``fallback``,
        runs of two or more capitalised words that NER missed are tried too."""
        runs = [self._run(m) for m in _CAPITALISED_RUN.finditer(question)]
        out: list[tuple[str, str]] = []
        used: set[int] = set()
        for m in mentions:
            if m.label in SKIP_LABELS:
                continue
            text = m.text
            for i, (a, b, run) in enumerate(runs):
                if a <= m.start and m.end <= b + 2 and len(run) > len(clean_mention(text)):
                    text = run
                    used.add(i)
                elif a < m.end and m.start < b:
                    used.add(i)
            out += [(clean_mention(piece), m.label) for piece in self._pieces(text)]
        if self.fallback:
            out += [
                (clean_mention(run), "") for i, (_, _, run) in enumerate(runs) if i not in used and len(run.split()) > 1
            ]
            out += [(g, "") for g in self._ngrams(question, [t for t, _ in out])]
        words = _words(question)
        at: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            at.setdefault(label_key(w), []).append(i)
        widened = [(w, label) for t, label in dict.fromkeys(out) if t for w in self._widest(words, at, t)]
        return list(dict.fromkeys(widened))

    @staticmethod
    def _run(match: re.Match[str]) -> tuple[int, int, str]:
        """A capitalised run less a question's first word: "Was Decampitated" is "Decampitated"."""
        text, start = match.group(), match.start()
        first = text.split(" ", 1)
        if len(first) > 1 and label_key(first[0]) in _STOP and not label_key(first[0]) in ARTICLES:
            start += len(first[0]) + 1
            text = first[1].lstrip()
        return start, match.end(), text

    def _pieces(self, text: str) -> list[str]:
        """A mention that names no entity but joins two that do is split: NER reads "The Manhattan
        Project or Repeaters" as one name; "Vellmoor and Tarn Railway", a label, stays whole."""
        pieces = _JOINED.split(text)
        if len(pieces) == 1 or self._by_label(clean_mention(text)):
            return [text]
        return [p for p in pieces if p.strip()]

    def _widest(self, words: list[str], at: dict[str, list[int]], text: str, occurrences: int = 2) -> list[str]:
        """The longest span of the question around a mention that is a label: NER and the
        capitalised runs cut "the Vellmoor and Tarn Railway" into "Vellmoor" and "Tarn Railway",
        and the town must not win over the railway whose label holds it. The first
        ``occurrences`` of the mention are widened each ("Taken 2 and Taken 3" names two films);
        a long question repeating a name does not multiply look-ups beyond that. ``at`` holds where
        each word of the question stands, read once per question: a 30 kB text stays linear."""
        inner = [label_key(w) for w in text.split()]
        n = len(inner)
        starts = [i for i in at.get(inner[0], []) if [label_key(w) for w in words[i : i + n]] == inner][:occurrences]
        out = [self._widest_at(words, i, n) or text for i in starts] or [text]
        return list(dict.fromkeys(out))

    def _widest_at(self, words: list[str], i: int, n: int) -> str | None:
        for size in range(min(self.max_ngram, len(words)), n, -1):
            for a in range(max(0, i + n - size), min(i, len(words) - size) + 1):
                span = words[a : a + size]
                # a title may begin with a capitalised function word mid-question ("They Live by Night")
                opens = label_key(span[0]) not in _STOP - ARTICLES or (a > 0 and span[0][:1].isupper())
                if not opens or label_key(span[-1]) in _STOP:
                    continue
                if self._by_label(" ".join(span)):
                    return " ".join(span)
        return None

    def _ngrams(self, question: str, found: list[str]) -> list[str]:
        """Word n-grams (longest first) that name an entity case-insensitively and are not inside a
        mention already found; one word only if capitalised mid-sentence or not a common word."""
        words = _words(question)
        keys = [label_key(w) for w in words]
        taken = {label_key(w) for f in found for w in f.split()}
        # where the found mentions stand (first occurrence): a longer n-gram elsewhere may reuse
        # their words ("Taken 2 and *Taken 3*"); a single word may not
        spans = [[label_key(w) for w in f.split()] for f in found]
        at = {
            j
            for sp in spans
            for i in [next((i for i in range(len(keys) - len(sp) + 1) if keys[i : i + len(sp)] == sp), -1)]
            if i >= 0
            for j in range(i, i + len(sp))
        }
        out: list[str] = []
        for n in range(min(self.max_ngram, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                gram = words[i : i + n]
                first = label_key(gram[0])
                overlaps = bool(set(range(i, i + n)) & at) if n > 1 else label_key(gram[0]) in taken
                if overlaps or (first in _STOP and not (first == "the" and n > 1)) or label_key(gram[-1]) in _STOP:
                    continue
                # one word: capitalised mid-sentence, or lower case (>= 5 letters) when nothing else names an entity
                if n == 1 and not (
                    len(gram[0]) >= 4
                    and gram[0][0].isupper()
                    and i > 0
                    or len(gram[0]) >= 5
                    and gram[0].islower()
                    and not found
                    and not out
                ):
                    continue
                text = " ".join(gram)
                if self._by_label(text):
                    out.append(text)
                    taken |= {label_key(w) for w in gram}
                    at |= set(range(i, i + n))
        return out

    def _link(
        self, question: str, mentions: list[Mention], asked: Sequence[str] = ()
    ) -> tuple[list[LinkedEntity], bool]:
        return self._link_mentions(question, self._mentions(question, mentions), asked)

    def _candidates(self, text: str) -> tuple[list[Entity], str]:
        """Entities named by the mention, else by its longest sub-span that names one
        ("Jafar Khan Lotf Ali Khan" → "Jafar Khan"), and the span that names them: "CEO of the
        Veldmark Honey Cooperative" is a mention whose "CEO" is asked, not part of a name."""
        candidates = self._by_label(text)
        span = text
        words = text.split()
        starters = None  # a pasted run of names (a 4,000-word run was 8M look-ups): try where a label can begin
        if len(words) > _NAME_WORDS:
            starters = {w for w in set(words) if w.lower() in ARTICLES or self._begins_a_label(w)}
        for size in range(min(len(words) - 1, _NAME_WORDS), 1, -1):
            if candidates:
                break
            for i in range(len(words) - size + 1):
                if starters is not None and words[i] not in starters:
                    continue
                candidates = self._by_label(" ".join(words[i : i + size]))
                if candidates:
                    span = " ".join(words[i : i + size])
                    break
        return candidates, span

    def _link_mentions(
        self, question: str, mentions: list[tuple[str, str]], asked: Sequence[str] = ()
    ) -> tuple[list[LinkedEntity], bool]:
        """The linked entities, and whether a type would have chosen among namesakes (a mention
        with no NER label whose candidates a type filter would narrow: a person or a ship)."""
        q = question.lower()
        chosen: dict[str, LinkedEntity] = {}
        types_matter = False
        for text, label in mentions:
            (candidates, text), fuzzy = self._candidates(text), False
            if not candidates and 5 <= len(text) <= _FUZZY_CHARS:
                candidates, fuzzy = self._fuzzy(text), True
            typed = [c for c in candidates if type_ok(c, label)] or candidates
            if not label and len(typed) > 1:
                types_matter |= any(0 < len([c for c in typed if type_ok(c, t)]) < len(typed) for t in TYPE_FILTER)
            if not typed:
                continue
            # "Samuel Idris (editor)" written out picks that one; a bare "Samuel Idris" names every
            # "Samuel Idris (role)" alike, and each gets its own answer
            written = [c for c in typed if qualified(c.label, text) and c.label.lower() in q]
            if written:
                best = max(written, key=lambda c: len(c.label))
                chosen.setdefault(best.id, LinkedEntity(best, best.label, label, 0, fuzzy))
                continue
            # "Ivo Marsh the boatbuilder": the role said in the question's own words picks one
            said = [(c, span) for c in typed if qualified(c.label, text) and (span := said_as(c.label, question))]
            if len(said) == 1:
                best, span = said[0]
                chosen.setdefault(best.id, LinkedEntity(best, span, label, 0, fuzzy))
                continue
            if len(typed) > 1 and all(qualified(c.label, text) for c in typed):
                for c in typed:
                    chosen.setdefault(c.id, LinkedEntity(c, text, label, 0, fuzzy, namesake=True))
                continue
            if len(typed) == 1:
                best, score = typed[0], 0
            else:
                wanted = {property_key(r) for r in asked}
                scored = [(*self._standing(c, wanted), self._evidence(c, q), c) for c in typed]
                _, _, score, best = max(scored, key=lambda sc: (sc[0], sc[2], sc[1], -typed.index(sc[3])))
            chosen.setdefault(best.id, LinkedEntity(best, text, label, score, fuzzy))
        if not chosen and self.fallback:  # a misspelt name typed in lower case: no mention at all
            for gram in _content_ngrams(question, 2, 4):
                if found := self._fuzzy(gram, first_word_only=True):
                    return [LinkedEntity(found[0], gram, "", 0, True)], False
        return list(chosen.values()), types_matter

    def _begins_a_label(self, word: str) -> bool:
        return any(self.store.entities_by_label(w, prefix=True, limit=1) for w in {word, _spaced(word)})

    def _by_label(self, text: str) -> list[Entity]:
        """Exact (case-insensitive) label matches, ``_``/``-`` read as spaces and spaces as ``_``;
        a leading article is optional on either side ("the Tarn Flyer" names "The Tarn Flyer",
        "the Vellmoor and Tarn Railway" names "Vellmoor and Tarn Railway")."""
        first, _, rest = text.partition(" ")
        bare = rest if rest and first.lower() in ARTICLES else text
        forms = (text, bare, f"the {bare}")
        variants = [v for f in forms for v in (f, _spaced(f), _spaced(f).replace(" ", "_"))]
        for variant in dict.fromkeys(variants):
            if found := self.store.entities_by_label(variant, limit=self.max_candidates):
                return found
        # namesakes written as docs/graphs.md recommends: "Samuel Idris (novelist)", "… (editor)"
        for variant in dict.fromkeys((text, bare)):
            found = self.store.entities_by_label(variant + " (", prefix=True, limit=self.max_candidates)
            if found := [e for e in found if qualified(e.label, variant)]:
                return found
        return []

    def _standing(self, entity: Entity, wanted: set[str]) -> tuple[int, int]:
        """(how many asked relations the entity has, how many facts the graph holds about it), from
        one look-up: a namesake with a birthplace wins "where was X born?", then the better known."""
        degrees = self.store.relation_degrees(entity.id)
        has = len({property_key(r) for r, _, _ in degrees} & wanted) if wanted else 0
        return has, sum(n for _, _, n in degrees)

    def neighbours(
        self, linked: Sequence[LinkedEntity], limit: int = 10, around: Subgraph | None = None
    ) -> list[Entity]:
        """Entities the linked ones point to (a father, a director) that the graph also describes:
        their facts join the retrieved graph, as KaLMA's released graphs hold relatives' facts.
        ``around``: the linked entities' one-hop graph when already read (a hub's, cut)."""
        seen = {le.entity.id for le in linked}
        out: list[Entity] = []
        for le in linked:
            triples = list(around.about(le.entity.id)) if around is not None else self.store.outgoing(le.entity.id)
            if max(relation_counts(triples, le.entity.id).values(), default=0) > limit:
                triples = rarest_first(triples, le.entity.id)  # a founder is met before 2,500 employees
            for t in triples:
                if len(out) >= limit:
                    return out
                if property_key(t.relation) in _NAME_RELATIONS:
                    continue
                found = (
                    [e]
                    if t.object_id and (e := self.store.entity(t.object_id))
                    else self.store.entities_by_label(t.object_value, limit=2)
                )
                for e in found:
                    if e.id not in seen:
                        seen.add(e.id)
                        out.append(e)
        return out

    def _fuzzy(self, text: str, *, first_word_only: bool = False) -> list[Entity]:
        """The entities whose label is closest to a misspelt mention (edit distance ≤ 1 per 6 letters),
        looked up by the mention's first word, else its first three letters."""
        key = label_key(_spaced(text))
        words = key.split()
        budget = max(1, len(key) // 6)
        prefixes = [words[0] + " "] if len(words) > 1 else []
        if not first_word_only:
            prefixes.append(key[:3])
        for prefix in prefixes:
            pool = self.store.entities_by_label(prefix, prefix=True, limit=self.max_fuzzy)
            scored = sorted(
                (d, i, e)
                for i, e in enumerate(pool)
                if (d := edit_distance(key, label_key(_spaced(e.label)), budget)) <= budget
            )
            if scored:
                return [e for d, _, e in scored if d == scored[0][0]]
        return []

    def _evidence(self, entity: Entity, question_lower: str) -> int:
        """How many of the entity's neighbour values occur verbatim in the question."""
        # names and types say nothing about which namesake is meant ("Shelley" is every Shelley's surname)
        values = {
            t.object_value.lower()
            for t in self.store.match(subject_id=entity.id, limit=_EVIDENCE_TRIPLES)
            if property_key(t.relation) not in _NAME_RELATIONS
        }
        values |= {t.subject_label.lower() for t in self.store.match(object_id=entity.id, limit=_EVIDENCE_TRIPLES)}
        return sum(1 for v in values if len(v) > 2 and v in question_lower)


def _spaced(text: str) -> str:
    """``Catch_Me_If_You_Can`` and ``Jean-Paul`` as a person types them: ``_`` and ``-`` as spaces."""
    return " ".join(text.replace("_", " ").replace("-", " ").split())


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def _words(question: str) -> list[str]:
    return [w for w in (clean_mention(w) for w in _WORD_SPLIT.split(question)) if w]


def _content_ngrams(question: str, low: int, high: int) -> list[str]:
    """n-grams of ``low``..``high`` words that neither start nor end with a function word, longest first."""
    words = _words(question)
    return [
        " ".join(words[i : i + n])
        for n in range(high, low - 1, -1)
        for i in range(len(words) - n + 1)
        if label_key(words[i]) not in _STOP and label_key(words[i + n - 1]) not in _STOP
    ]
