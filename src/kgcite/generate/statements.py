"""What a grounded answer states: one sentence per asked relation, an ``[NA]`` sentence per gap.

The question analysis says what was asked; each asked relation of the entity its part is about
becomes one template sentence citing exactly its triples (outgoing, or incoming: "Jaws was
directed by Steven Spielberg" answers "What did Spielberg direct?"). An asked relation the
graph lacks for that entity becomes a sentence that names the gap — "The graph does not say
who Stephen Crane's spouse was [NA]." — and is recorded as absent. Nothing unasked is cited,
except in a summary, which states a bounded set of the entity's most informative relations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kgcite.generate.citations import NACitation, Sentence, cite_triples
from kgcite.generate.verbalize import pattern, state
from kgcite.kg.keys import property_key
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.retrieve.question import QuestionAnalysis, summary_relations
from kgcite.text.kinds import fits, name_kind
from kgcite.text.lexicon import PRONOUNS, AnswerKind
from kgcite.text.values import normalize

#: (entity id, relation) an answer was asked for and the graph does not hold.
Gap = tuple[str, str]


#: The most values one sentence lists: an entity with thousands of values of one relation is
#: answered with this many (in the graph's order) and a note, so an answer's work is bounded.
MAX_LISTED = 100


@dataclass(frozen=True)
class Statements:
    sentences: tuple[Sentence, ...]
    triples: tuple[Triple, ...]  # every cited triple, in order
    absent: tuple[Gap, ...]
    notes: tuple[str, ...] = ()  # what was left unstated, for the answer's repairs
    steps: tuple[Triple, ...] = ()  # hops walked on the way ("X's author" in "where was X's author born"): no answers


_TRAILING = ("in", "at", "on", "the", "of", "from", "to")


def gap_sentence(subject: str, relation: str, wh: str | None) -> str:
    """A sentence that names the gap in the relation's own template: "The graph does not say who
    Stephen Crane's spouse was.", "… where Stephen Crane was born.", "… what Marla Quenby founded."."""
    word = {"whom": "who", "which": "what"}.get(wh or "", wh or "")
    word = word if word in ("who", "when", "where", "what") else "what"
    text, _ = pattern(relation)
    head = text.split("{o}")[0].strip()
    if head.startswith("{s}'s "):
        noun = head.removeprefix("{s}'s ").rsplit(" ", 1)[0]  # "{s}'s spouse is" → "spouse"
        if head.endswith(" include"):
            return f"The graph does not give {subject}'s {noun}."
        return f"The graph does not say {word} {subject}'s {noun} was."
    words = head.format(s=subject).split()
    trailing = _TRAILING if word in ("where", "when") else ("the",)
    while words and words[-1] in trailing:
        words.pop()  # "where X was born in" → "where X was born"; "what X received the" → "what X received"
    return f"The graph does not say {word} {' '.join(words)}."


def _about(
    graph: Subgraph, entity: Entity, relations: Sequence[str], *, incoming: bool = True
) -> list[tuple[str, str, list[Triple]]]:
    """(subject label, relation, triples) per relation the entity has, outgoing first, then incoming."""
    wanted = {property_key(r) for r in relations}
    out: dict[tuple[str, str, str], list[Triple]] = {}
    for t in graph.triples:
        if property_key(t.relation) not in wanted or t.is_label:
            continue
        if t.subject_id == entity.id:
            out.setdefault(("out", t.subject_label, t.relation), []).append(t)
    for t in graph.triples if incoming else ():
        if property_key(t.relation) in wanted and t.object_id == entity.id and t.subject_id != entity.id:
            out.setdefault(("in", t.subject_label, t.relation), []).append(t)
    order = {property_key(r): i for i, r in enumerate(relations)}
    ranked = sorted(out.items(), key=lambda kv: (kv[0][0] != "out", order[property_key(kv[0][2])]))
    return [(subject, rel, ts) for (_, subject, rel), ts in ranked]


def _sentences(
    groups: list[tuple[str, str, list[Triple]]],
    notes: list[str] | None = None,
    max_listed: int = MAX_LISTED,
    held: Mapping[tuple[str, str], int] | None = None,
) -> list[tuple[Sentence, list[Triple]]]:
    """One sentence per group, listing at most ``max_listed`` values; a longer list is cut and
    ``notes`` says so, with the store's count (``held``, by subject and relation) where
    retrieval read only part of a hub."""
    out = []
    for subject, relation, triples in groups:
        values = list(dict.fromkeys(t.object_value for t in triples))
        total = (held or {}).get((subject, relation), len(values))
        if len(values) > max_listed or total > len(values):
            if notes is not None:
                shown = min(max_listed, len(values))
                notes.append(f"statements: {subject} has {total:,} values of {relation}; {shown} are stated")
            values = values[:max_listed]
            kept = set(values)
            triples = [t for t in triples if t.object_value in kept]
        out.append((Sentence(state(subject, relation, values), cite_triples(t.key for t in triples)), triples))
    return out


def state_facts(triples: Sequence[Triple]) -> list[tuple[Sentence, list[Triple]]]:
    """One cited sentence per (subject, relation) of the triples, in their order."""
    groups: dict[tuple[str, str], list[Triple]] = {}
    for t in triples:
        groups.setdefault((t.subject_label, t.relation), []).append(t)
    return _sentences([(subject, relation, ts) for (subject, relation), ts in groups.items()])


def _fitting(found: list[tuple[str, str, list[Triple]]], kind: AnswerKind) -> list[tuple[str, str, list[Triple]]]:
    """The groups whose values can answer the kind asked: a birthplace is no birth date."""
    return [f for f in found if fits(kind, [t.object_value for t in f[2]])]


def _part_entity(text: str, entities: Sequence[Entity], mentions: dict[str, str], current: Entity) -> Entity:
    """The linked entity a part names (by its mention or label), else the one before."""
    norm = f" {normalize(text)} "
    for e in entities:
        names = {mentions.get(e.id, ""), e.label}
        if any(n and f" {normalize(n)} " in norm for n in names):
            return e
    return current


def _namesakes(named: Entity, entities: Sequence[Entity], mentions: dict[str, str]) -> list[Entity]:
    """The entity a part is about, or every namesake the question's one mention named alike."""
    said = mentions.get(named.id)
    alike = [e for e in entities if said is not None and mentions.get(e.id) == said and e.label != said]
    return alike if len(alike) > 1 and named in alike else [named]


def _refers_back(text: str) -> bool:
    """The part names its subject by a pronoun ("… and where was *he* born?")."""
    return any(w in PRONOUNS for w in normalize(text).split())


def _one_entity(triples: Sequence[Triple]) -> Entity | None:
    """The one entity a part's answer is (a single entity value), or None."""
    ends = {(t.object_id, t.object_value) for t in triples}
    if len(ends) != 1:
        return None
    object_id, label = next(iter(ends))
    return Entity(object_id, label) if object_id is not None else None


def _lower_first(text: str) -> str:
    return text if text[:2].isupper() else text[:1].lower() + text[1:]  # "NASA" stays


_WH = frozenset(["who", "whom", "whose", "what", "which", "when", "where", "why", "how"])
_BE = frozenset(["is", "was", "are", "were"])


def unanswered_sentence(asked: str, subject: str | None = None) -> str:
    """The ``[NA]`` sentence for a part no relation of the graph names, without copying a request
    into it: "… does not say where Stephen Crane lived", "… whether Stephen Crane was married";
    a request ("can you provide a biography of X") is "this part of the question"."""
    text = asked.strip().rstrip("?.! ")
    words = text.split()
    wh = words[0].lower() if words and words[0].lower() in _WH else None
    verb, *rest_words = (words[1:] if wh else words) or [""]
    rest, lead = " ".join(rest_words), wh or "whether"
    if subject and verb.lower() in _BE:
        if rest.lower().startswith(subject.lower() + " "):  # "was X born" → "X was born"
            return f"The graph does not say {lead} {subject} {verb.lower()} {rest[len(subject) + 1 :]}."
        if wh and rest.lower().startswith(subject.lower() + "'s "):  # "who is X's spouse" → "who X's spouse is"
            return f"The graph does not say {lead} {rest} {verb.lower()}."
        # "who is the mayor of X" → "who the mayor of X is"
        if wh and rest_words and rest_words[0].lower() in ("the", "a", "an") and rest.lower().endswith(subject.lower()):
            return f"The graph does not say {lead} {rest} {verb.lower()}."
    if wh:
        return f"The graph does not say {_lower_first(text)}."
    return "The graph does not answer this part of the question."


def compose(
    analysis: QuestionAnalysis,
    graph: Subgraph,
    entities: Sequence[Entity],
    mentions: dict[str, str] | None = None,
    *,
    summary_size: int = 5,
    max_listed: int = MAX_LISTED,
    cut: Mapping[tuple[str, str, bool], int] | None = None,
) -> Statements:
    """The answer's statements for linked ``entities`` (in question order) over the retrieved graph;
    ``cut``: the store's counts of the hub relations retrieval cut (:attr:`Retrieval.cut`)."""
    mentions = mentions or {}
    sentences: list[Sentence] = []
    cited: list[Triple] = []
    absent: list[Gap] = []
    notes: list[str] = []
    steps: list[Triple] = []
    if not entities:
        return Statements((), (), ())
    labels = {e.id: e.label for e in graph.entities}
    held = {(labels.get(e, e), r): n for (e, r, inverse), n in (cut or {}).items() if not inverse}
    current = entities[0]
    done: set[tuple[str, tuple[str, ...]]] = set()
    answer: Entity | None = None  # the one entity a "who" part answered: what a later "he" refers to
    for part in analysis.parts:
        named = _part_entity(part.text, entities, mentions, current)
        if answer is not None and named == current and _refers_back(part.text):
            named = answer  # "Who designed X and where was he born?": he is X's designer
        current, answer = named, None
        for current in _namesakes(named, entities, mentions):  # "Samuel Idris": each one answered
            if part.open:  # asked, but no relation of the graph names it: say so rather than pad
                sentences.append(Sentence(unanswered_sentence(part.text, current.label), (NACitation(),)))
            walked: Entity | None = None  # the one entity the part's last relation reached: "the author of X"
            before: list[Triple] = []  # that relation's triples: a step on the way, once walked on
            for i, group in enumerate(part.groups):
                # the value kind asked is the last relation's ("When was the founder of X born?"); a
                # relation before it is a hop on the way, to a thing (a founder, not a founding year)
                last = i == len(part.groups) - 1
                kind: AnswerKind = part.kind if last or name_kind(group[0]) == part.kind else "agent"
                if all(name_kind(r) not in ("any", kind) for r in group):
                    kind = "any"  # the name says its kind ("release *year*"): "where was X released" means it
                subject = current
                found = _fitting(_about(graph, subject, group), kind)
                if not found and walked is not None and walked.id != current.id:
                    subject = walked  # each relation named is walked in order: X's author, then where born
                    found = _fitting(_about(graph, subject, group), kind)
                    steps.extend(before)
                if (subject.id, group) in done:
                    continue
                done.add((subject.id, group))
                if not found:
                    sentences.append(Sentence(gap_sentence(subject.label, group[0], part.wh), (NACitation(),)))
                    absent.append((subject.id, group[0]))
                    walked = None
                    continue
                before = []
                for sentence, triples in _sentences(found, notes, max_listed, held):
                    sentences.append(sentence)
                    cited.extend(triples)
                    before.extend(triples)
                walked = _one_entity(found[0][2]) if len(found) == 1 else None
                if part.wh in ("who", "whom") and len(found) == 1:
                    answer = _one_entity(found[0][2])
    if analysis.summary:
        for entity in entities if not sentences else entities[:1]:
            rels = summary_relations({t.relation for t in graph.triples if t.subject_id == entity.id}, summary_size)
            for sentence, triples in _sentences(_about(graph, entity, rels, incoming=False), notes, max_listed, held):
                if sentence not in sentences:
                    sentences.append(sentence)
                    cited.extend(triples)
    return Statements(
        tuple(sentences), tuple(dict.fromkeys(cited)), tuple(absent), tuple(notes), tuple(dict.fromkeys(steps))
    )
