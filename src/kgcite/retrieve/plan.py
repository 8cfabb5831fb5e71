"""What an answer rests on: decided here, once, in retrieval (:class:`Planner`).

One question, one plan, in this order: a question of a derived form (yes/no, a count, a
comparison, what two entities share) is a :class:`~kgcite.retrieve.evidence.Derivation`; else
the asked relations' one-hop facts are a :class:`~kgcite.retrieve.evidence.Lookup`; the graph
search runs only when the reading asks for a chain (:func:`wants_chain`), and its path replaces
the lookup only if it walks what the question asks (:func:`chain_answers`): the kind of value
asked (a "when" ends on a date), and, standing in for a fact the topic lacks, no relation walked
there and back ("the publication year of the books that share a publisher with X") unless the
question asks for what things share. A chain that fails is no answer: the graph lacks the fact,
and the answer says so with ``[NA]`` rather than stating another relation. Nothing found at all
is :class:`~kgcite.retrieve.evidence.Lacking`. Generation states the result and chooses nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Literal

from kgcite.kg.keys import property_key
from kgcite.retrieve.base import Retrieval
from kgcite.retrieve.derive import SHOWN, Deriver
from kgcite.retrieve.evidence import Chain, Derivation, Evidence, Lacking, Lookup
from kgcite.retrieve.lookup import MAX_LISTED, select
from kgcite.retrieve.path_scorers import relation_words
from kgcite.retrieve.paths import Chain as Hops
from kgcite.retrieve.paths import PathReasoner, PathResult
from kgcite.retrieve.reach import asks_a_noun, walks_back
from kgcite.retrieve.reading import Reading
from kgcite.retrieve.retriever import KGRetriever
from kgcite.retrieve.scoring import _same, content_stems, words
from kgcite.text import places
from kgcite.text.kinds import fits, name_kind, value_kinds
from kgcite.text.lexicon import PEERS, SHARING, AnswerKind, claimed, contrary, participle, property_label
from kgcite.text.values import normalize
from kgcite.timing import Timings

log = logging.getLogger(__name__)


def turns_back(chain: Hops, asked: AbstractSet[str] = frozenset()) -> bool:
    """Whether the chain walks a relation the question does not name and then walks it back
    (X → publisher → X's siblings); ``asked``: the named relations' keys ("the films starred by
    X's actors" names the relation it turns back on)."""
    return any(walks_back(a, b) and property_key(a.relation) not in asked for a, b in pairwise(chain))


def asks_sharing(question: str) -> bool:
    """ "Which films share a director with X?", "the same publisher", "X's team-mates": the
    question asks for siblings."""
    return any(w in SHARING | PEERS for w in normalize(question).split())


def chain_answers(
    question: str,
    chain: Hops,
    answers: Sequence[str],
    kind: AnswerKind,
    *,
    standing_in: bool = False,
    asked: AbstractSet[str] = frozenset(),
) -> bool:
    """Whether a chain's answers answer the question: of the kind asked and, where the chain
    stands in for a fact the topic lacks (``standing_in``), not reached by turning back on a
    relation the question does not ask to share ("When was X published?" is not answered by the
    year of another book of X's publisher; "the films written by the writer of X" turns back
    because it asks to)."""
    if not fits(kind, answers):
        return False
    return not (standing_in and turns_back(chain, asked) and not asks_sharing(question))


def asks_another(asked: str, hops: Hops) -> bool:
    """Whether the words asked hold a participle the lexicon ties to a relation of its own
    ("married" asks a spouse) that no hop's name says: "Whom is the founder of X married to?" is never answered by
    her birthplace, however alike the model reads the two."""
    # a participle ("married", "buried"): nouns ("home", "record") name kinds and parts too often
    said = [w for w in normalize(asked).split() if participle(w)]
    named = {w for s in hops for w in relation_words(s.relation)}
    return any(not any(_same(w, n) for n in named) for w in claimed(content_stems(" ".join(said)), named))


def wants_chain(reading: Reading, *, gaps: bool) -> bool:
    """Whether the graph search runs at all: only when the reading asks for a chain. It does when
    the question names more relations than one hop walks, when a part is named by no relation
    word ("the engineer of X") or says words no relation explains ("the *same* director", "what
    *types*"), or when the one-hop facts left a gap (an asked relation the topic
    lacks may be reached further on). A one-part question whose one named relation the topic
    holds is answered by that fact, without a search: most of a cold ``ask``'s time was a search
    whose result was thrown away."""
    if reading.summary or len(reading.parts) != 1:
        return False
    part = reading.parts[0]
    unexplained = bool(part.rest)  # "what *types* are the movies written by X", "*co*-directors of X"
    rank = places.asked_rank(words(reading.question))
    # "Which region was X born in?": ``born in`` reaches a town, and the region may be a hop on
    climbs = rank is not None and not any(places.rank_reached(r) == rank for r in part.relations)
    return gaps or part.open or unexplained or climbs or walks_on(reading) or reading.form.kind != "lookup"


HowMany = Literal["count", "number", "list", "none"]


def how_many(result: PathResult) -> HowMany:
    """How a chain answers a "how many": by counting what it reaches; with the number it ends in
    ("How many objects does the collection hold?" walks ``obj.count`` to 412: that is the
    answer, not 1); by listing what it reaches where the search was cut (a count would be
    short); or not at all where it ends in dates ("How many visitors does X get each year?" is
    not answered by the year X was established)."""
    if not result.answers or result.best is None:
        return "none"
    end = result.best.chain[-1].relation
    if name_kind(end) == "date" or all(value_kinds(a.label) == {"date"} for a in result.answers):
        return "none"
    if all("quantity" in value_kinds(a.label) for a in result.answers):
        return "number"
    return "list" if result.truncated or result.unscored else "count"


def walks_on(reading: Reading) -> bool:
    """Whether a one-part question asks a relation of what another reaches ("the spouse of the
    employer of X"), not several things of its topic ("the employer and the spouse of X": the
    lookup's, and no chain through one to the other answers it)."""
    part = reading.parts[0]
    return len(part.groups) > 1 and not (part.from_topic and all(part.from_topic))


@dataclass(frozen=True)
class PlanConfig:
    """The plan's bounds, in one place."""

    summary_size: int = 5  # relations a summary ("Who was X?") states
    max_listed: int = MAX_LISTED  # values one relation's sentence lists (a hub's are cut, with a note)
    shown: int = SHOWN  # counted members stated one by one; the rest are "… and N more"
    # "the *motto* of the head teacher of X": the words asked of a described thing name no
    # relation, so a chain past it answers only where the path scorer reads its hops past the
    # thing as the question said of it ("What is the motto of X?"). Measured with the shipped
    # model: 0.30-0.47 for unrelated pairs (ticket price ~ city, motto ~ specialises in), 0.78-1.12
    # for paraphrases (location ~ city, university ~ alma mater), 0.60 for hometown ~ person born in
    # (0.59 or 0.60 by which example values the chain is shown: 0.6 was a coin toss there);
    # "boss" ~ artistic director 0.53 falls below
    past_description: float = 0.55
    # asked with a verb ("Who *runs* the venue X opened at?", "Where did the head chef of X *learn
    # to cook*?"), a paraphrase scores lower (runs, manages, in charge of ~ artistic director
    # 0.42-0.46, learn to cook ~ trained at 0.49) and so do unrelated relations (owns, founded ~
    # artistic director 0.33-0.34, earn ~ alma mater 0.32, but weigh ~ child 0.50): the chain
    # answers at ``past_verb`` when its first hop past the thing is ahead of every other relation
    # of the thing by ``past_margin`` (0.23-0.46 for those paraphrases, 0.15 for weigh ~ child)
    past_verb: float = 0.4
    past_margin: float = 0.2


class Planner:
    """Decides each question's :data:`~kgcite.retrieve.evidence.Evidence` from its retrieval.
    ``paths``: the graph search, or a factory that builds it on first use, so a question the
    reading answers in one hop never loads its models; None: no search (one-hop answers only)."""

    def __init__(
        self,
        retriever: KGRetriever,
        paths: PathReasoner | Callable[[], PathReasoner | None] | None = None,
        *,
        config: PlanConfig | None = None,
        deriver: Deriver | None = None,
    ) -> None:
        self.retriever, self._paths = retriever, paths
        self.config = config or PlanConfig()
        self._deriver = deriver

    @property
    def paths(self) -> PathReasoner | None:
        if self._paths is not None and not isinstance(self._paths, PathReasoner):
            self._paths = self._paths()
        return self._paths

    @property
    def deriver(self) -> Deriver:
        """Built on first use over the retriever's store (members' facts come from it)."""
        if self._deriver is None:
            self._deriver = Deriver(self.retriever.store.one_hop, shown=self.config.shown)
        return self._deriver

    @deriver.setter
    def deriver(self, deriver: Deriver) -> None:
        self._deriver = deriver

    def reading(self, retrieval: Retrieval) -> Reading:
        """What the question asks: the retrieval's reading, or one made now (a retrieval built by
        hand, as the experiments do, comes without)."""
        return retrieval.reading or self.retriever.analyzer.analyse(
            retrieval.question, [le.mention for le in retrieval.linked]
        )

    def plan_many(self, retrievals: Sequence[Retrieval]) -> list[Evidence]:
        return [self.plan(r) for r in retrievals]

    def plan(self, retrieval: Retrieval) -> Evidence:
        """The one decision of what answers the question (module docstring); its ``timings``
        name ``plan`` and, when the search ran, ``paths`` apart."""
        t0 = time.perf_counter()
        derived = self.derive(retrieval)
        if derived is not None:
            return replace(derived, timings=Timings({"plan": time.perf_counter() - t0}))
        lookup = self.lookup(retrieval)
        searched = self.search(retrieval, lookup)
        spent = (searched.ms / 1000, searched.llm_calls) if searched is not None else (0.0, 0)
        if searched is not None and self.takes(retrieval, lookup, searched):
            result = searched
            assert self.paths is not None
            form = self.reading(retrieval).form
            counted = form.kind == "count" and how_many(result) == "count"
            timings = Timings(
                {"plan": max(0.0, time.perf_counter() - t0 - spent[0]), "paths": spent[0]}, llm_calls=spent[1]
            )
            notes: tuple[str, ...] = ("paths: a hub was cut; answers may be incomplete",) if result.truncated else ()
            if result.unscored:
                unscored = (
                    f"paths: {result.unscored:,} relation chains around {result.topics[0].label} were not scored "
                    f"(the search scores at most {self.paths.config.max_chains:,} a depth); answers may be incomplete"
                )
                notes += (unscored,)
            return Chain(result, self.paths.name, form if counted else None, notes, timings)
        # a search whose path was not taken still cost its time and its LLM call (--choose llm)
        phases = {"plan": max(0.0, time.perf_counter() - t0 - spent[0])} | ({"paths": spent[0]} if searched else {})
        timings = Timings(phases, llm_calls=spent[1])
        if not lookup.items:
            return Lacking(tuple(le.entity.label for le in retrieval.linked), lookup.notes, timings)
        return replace(lookup, timings=timings)

    def derive(self, retrieval: Retrieval) -> Derivation | None:
        """The derivation of a yes/no, count, comparison, superlative or intersection question,
        or None (a lookup, or a form the facts cannot decide)."""
        reading = self.reading(retrieval)
        if reading.form.kind == "lookup" and len({le.mention for le in retrieval.linked}) < 2:
            return None  # namesakes of one mention are one topic, not two to intersect
        said = retrieval.question.lower()
        # in the order the question names them: "Is A deeper than B?" asks about A
        linked = sorted(retrieval.linked, key=lambda le: said.find(le.mention.lower()) % (len(said) + 1))
        done = self.deriver.derive(reading, retrieval.graph, [le.entity for le in linked])
        if done is not None and _reads_a_cut(done, retrieval):
            return None  # a count or comparison of a hub's relation would rest on part of it
        return done

    def lookup(self, retrieval: Retrieval) -> Lookup:
        """The asked relations' facts and gaps over the retrieved graph."""
        mentions = {le.entity.id: le.mention for le in retrieval.linked}
        return select(
            self.reading(retrieval),
            retrieval.graph,
            [le.entity for le in retrieval.linked],
            mentions,
            summary_size=self.config.summary_size,
            max_listed=self.config.max_listed,
            cut=retrieval.cut,
        )

    def search(self, retrieval: Retrieval, lookup: Lookup) -> PathResult | None:
        """The graph search's result for a one-part question whose reading asks for a chain
        (:func:`wants_chain`), or None where it does not run. Two-part questions ("When was X
        born and who is her husband?") keep the lookup; so do namesakes, each answered by its own
        facts rather than one walk from all."""
        if self._paths is None or not retrieval.linked or any(le.namesake for le in retrieval.linked):
            return None
        reading = self.reading(retrieval)
        if not wants_chain(reading, gaps=lookup.gaps):
            log.info("no graph search: the question asks one hop its topic holds")
            return None
        if self.paths is None:
            return None
        # the question reader's relations: "Who was Stephen Crane's spouse?" asks `spouse`, and a
        # path through *topic's main category* that happens to score well is no answer to it
        asked = set() if reading.summary else {r for p in reading.parts if not p.guessed for r in p.relations}
        return self.paths.answer(retrieval.question, [le.entity for le in retrieval.linked], asked)

    def takes(self, retrieval: Retrieval, lookup: Lookup, result: PathResult) -> bool:
        """Whether the searched path replaces the lookup: when its chain is longer than one hop,
        or when the lookup found nothing asked and a one-hop chain did; either way only a chain
        that walks an asked relation (the reasoner keeps only those), and in place of a gap only
        one a question word names, with a word for every hop where the gap is a relation the
        topic lacks, and past a thing the question describes only one whose hops past it are what
        the question asks of it (:meth:`asked_past`; a question naming no relation may also be
        answered by such a chain)."""
        if result.best is None or not result.answers:
            return False
        reading = self.reading(retrieval)
        if reading.form.kind == "count" and how_many(result) == "none":
            return False
        kind = reading.parts[0].kind
        named = {property_key(r) for r in reading.relations}
        if not chain_answers(
            retrieval.question, result.best.chain, result.predicted(), kind, standing_in=lookup.gaps, asked=named
        ):
            return False
        groups = reading.parts[0].groups
        if lookup.past is not None:
            # "the phone number of the head teacher of X": only a chain past the head teacher, whose
            # hops past her are what the words asked of her say (where the question names no
            # relation, the thing is at least one hop away: "Who is the principal of X's school?")
            hops = max(1, len(groups))
            if self.asked_past(lookup.past, hops, result):
                return True
            if groups or len(result.best.chain) <= hops or asks_another(lookup.past, result.best.chain):
                return False  # a chain that stops at the thing does not say what is asked of it
            # naming no relation, a chain past the thing is answered as any such question is (below)
        if lookup.found:
            walked_to_things = bool(lookup.steps) and all(fits("agent", [t.object_value]) for t in lookup.steps)
            if walks_on(reading) and walked_to_things and lookup.absent:
                # "Where was X's mentor born?" walked `mentored by` to her, and the graph lacks her
                # birthplace: a chain through a relation of X's the question does not name (her
                # trainer), or with a hop no word is left for (the mentor's trainer), is no answer;
                # a walk that ended on a value (a year read for "publisher") decides nothing
                first = property_key(result.best.chain[0].relation)
                return len(result.best.chain) > 1 and first in named and result.named_every
            return len(result.best.chain) > 1 and (walks_on(reading) or len(groups) < 2)
        # the lookup has only gaps: only a path a word of the question names may answer, not a
        # guess; where they name the relation the topic lacks, words must name every hop (the
        # birthplace of X's father is no answer to "Where was X born?")
        if lookup.absent:
            return result.named_every
        return result.named

    def asked_past(self, asked: str, hops: int, result: PathResult) -> bool:
        """Whether the best chain's hops past the thing the question describes (after its first
        ``hops``, one per relation the reading found) are what the question asks of that thing:
        the path scorer's reading of the question said of it (``asked``, "how tall is X") for
        those hops alone clears ``past_description``; or, asked with a verb, ``past_verb`` with
        the first hop past ahead of the thing's other relations by ``past_margin``; never a hop
        named by the contrary event (:func:`~kgcite.text.lexicon.contrary`)."""
        assert result.best is not None
        chain = result.best.chain
        past = tuple(chain[hops:])
        if not past or self.paths is None:
            return False
        if contrary(asked.split(), (w for s in past for w in property_label(s.relation).lower().split())):
            return False  # "when did X die" is never X's birth year, however alike the model reads them
        if asks_another(asked, past):
            return False
        scorer, config = self.paths.scorer, self.config
        score = float(scorer.scores(asked, [past])[0])
        if score >= config.past_description:
            return True
        if score < config.past_verb or asks_a_noun(asked):
            return False
        others = list(
            {c.chain[hops]: None for c in result.candidates if len(c.chain) > hops and c.chain[:hops] == chain[:hops]}
        )
        others = [s for s in others if s != past[0]]
        if not others:
            return True
        first, *rest = scorer.scores(asked, [(past[0],), *((s,) for s in others)])
        return bool(first - max(rest) >= config.past_margin)


def _reads_a_cut(done: Derivation, retrieval: Retrieval) -> bool:
    """Whether a derivation uses a relation retrieval read only part of (a hub's)."""
    return any(
        (t.subject_id, t.relation, False) in retrieval.cut
        or (t.object_id is not None and (t.object_id, t.relation, True) in retrieval.cut)
        for t in done.triples
    )
