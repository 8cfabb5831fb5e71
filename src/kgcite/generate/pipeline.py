"""Question → :class:`AttributedAnswer`: the two generation modes over one retrieval.

``free`` is KaLMA's baseline (the LLM writes text and citations; a repair step then keeps only
citations of retrieved triples). ``grounded`` takes the evidence retrieval's plan chose
(:mod:`kgcite.retrieve.plan`), states it with the template verbaliser, lets the LLM rephrase,
and keeps the rephrasing only if it still states every cited fact and adds none
(docs/concepts.md): every citation is a retrieved triple by construction, and a verify step
flags unsupported sentences ``[NA]``. Generation chooses no evidence: it matches on the plan's
type and phrases it.
"""

from __future__ import annotations

import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from kgcite.errors import LLMError
from kgcite.generate.citations import (
    Citation,
    KGCitation,
    NACitation,
    ParsedAnswer,
    Sentence,
    cite_triples,
    format_answer,
    parse_answer,
    with_context,
)
from kgcite.generate.paths import path_sentences
from kgcite.generate.prompts import REWRITE_SYSTEM, citation_grammar, kalma_prompt, rewrite_prompt
from kgcite.generate.statements import Statements, lacking_sentence, state_derivation, state_lookup
from kgcite.generate.verbalize import verbalize
from kgcite.generate.verify import Verifier, invents
from kgcite.judge.derived import count_sentence
from kgcite.judge.rules import Claim, facts
from kgcite.judge.support import JudgeVerifier, SupportJudge, value_relations
from kgcite.kg.model import Subgraph, Triple, TripleKey
from kgcite.models.llm import LLM, ChatRequest, ChatResult
from kgcite.retrieve.base import ManyRetriever, Retrieval
from kgcite.retrieve.evidence import Absent, Chain, Derivation, Evidence, Lacking, Lookup
from kgcite.retrieve.plan import Planner
from kgcite.text.lexicon import STOP, stem
from kgcite.text.values import normalize
from kgcite.timing import Timings

log = logging.getLogger(__name__)

# kgcite.schema (pydantic, ~130 ms) is imported where a record is made, not when a command starts
if TYPE_CHECKING:
    from kgcite.schema import KGAnswer


@dataclass(frozen=True)
class AttributedAnswer:
    """An answer whose sentences carry their citations, with what it was made from."""

    question: str
    mode: str
    model: str
    sentences: tuple[Sentence, ...]
    retrieved: Subgraph  # G: everything retrieval returned
    evidence: tuple[Triple, ...]  # the triples shown to the model (free) or selected (grounded)
    linked: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()
    rewritten: bool = False
    raw_output: str = ""
    timings: Timings = field(default_factory=Timings)
    absent: tuple[Absent, ...] = ()  # asked (entity id, property) the graph does not hold: each has an [NA] sentence
    asked: dict[str, Any] | None = None  # the question's reading: its parts and their relations
    predicted: tuple[str, ...] = ()  # answer labels, best first
    answer_paths: dict[str, list[list[str]]] = field(
        default_factory=dict
    )  # answer → its [subject, property, value] chain
    path: dict[str, Any] | None = None  # the relation path that answered (path answers only)
    form: str = "lookup"  # the question's form: lookup, yesno, count, comparison, superlative, intersection

    @property
    def answer(self) -> str:
        return format_answer(self.sentences)

    def citations(self) -> list[list[str]]:
        """``[qid, property, value]`` of every citation triple, in order."""
        return [list(t.key) for s in self.sentences for t in s.cited_triples() if t.key is not None]

    def to_dict(self) -> dict[str, Any]:
        return self.record().model_dump()

    def record(self) -> KGAnswer:
        from kgcite.schema import (
            KGAnswer,
            TripleCitation,
            TripleSentence,
        )

        labels = {t.key: t for t in self.retrieved.triples}
        return KGAnswer(
            question=self.question,
            answer=self.answer,
            citations=self.citations(),
            sentences=[
                TripleSentence(
                    text=s.text,
                    na=s.na,
                    citations=[
                        TripleCitation(
                            qid=k[0],
                            property=k[1],
                            value=k[2],
                            subject=labels[k].subject_label if k in labels else None,
                        )
                        for t in s.cited_triples()
                        if (k := t.key) is not None
                    ],
                )
                for s in self.sentences
            ],
            mode=self.mode,
            model=self.model,
            linked=list(self.linked),
            evidence=[list(t.key) for t in self.evidence],
            absent=[list(g) for g in self.absent],
            asked=self.asked,
            repairs=list(self.repairs),
            rewritten=self.rewritten,
            raw_output=self.raw_output,
            timings=self.timings.rounded(),
            predicted=list(self.predicted),
            answer_paths=self.answer_paths,
            path=self.path,
            form=self.form,
        )


def stated_values(
    sentences: Sequence[Sentence], graph: Subgraph, topics: AbstractSet[str], steps: Sequence[Triple] = ()
) -> dict[str, list[list[str]]]:
    """The answers a statement answer gives, each with the triple that states it: the far end of
    each cited triple from a topic (its value, or its subject when the topic is the value), each
    once, in citation order. The same shape as a path answer's ``answer_paths`` (a one-hop path).
    ``steps``: hops walked on the way to what was asked, which answer nothing themselves; what
    they reach stands where the topic does ("Who trained the owner of X?": the owner is the
    value of "Y is a mentor of the owner", and Y the answer)."""
    out: dict[str, list[list[str]]] = {}
    by_key = {t.key: t for t in graph.triples}
    walked = {t.key for t in steps}
    topics = {*topics, *(e for t in steps for e in (t.subject_id, t.object_id) if e is not None)}
    for s in sentences:
        for cited in s.cited_triples():
            if cited.key is None or (key := graph.find(cited.key)) is None or (triple := by_key.get(key)) is None:
                continue
            if key in walked:
                continue
            near = triple.object_id in topics and triple.subject_id not in topics
            label = triple.subject_label if near else triple.object_value
            out.setdefault(label, [[triple.subject_label, triple.relation, triple.object_value]])
    return out


def _statements(evidence: Evidence) -> Statements:
    """What a lookup, derivation or lacking answer states (a chain is stated by :meth:`path_answer`)."""
    match evidence:
        case Lookup():
            return state_lookup(evidence)
        case Derivation():
            return state_derivation(evidence)
        case Lacking():
            return Statements((lacking_sentence(evidence),), (), (), evidence.notes)
    return Statements((), (), ())


def _derived(done: Derivation, planned: Sequence[Sentence], verified: Sequence[Sentence]) -> tuple[str, ...]:
    """A derived answer's prediction, withdrawn when verification flagged a fact or the
    conclusion it rests on: an answer is never given on a claim the judge did not support."""
    lost = len(planned) != len(verified) or any(v.na and not p.na for p, v in zip(planned, verified, strict=False))
    return () if lost else done.predicted


class Generator(ABC):
    """Template method: retrieve for a batch of questions, then the mode's own generation."""

    mode = ""

    def __init__(self, retriever: ManyRetriever, llm: LLM | None, verifier: Verifier | None = None) -> None:
        self.retriever, self.llm = retriever, llm
        self.verifier: Verifier = verifier or JudgeVerifier(SupportJudge())

    @property
    def model_name(self) -> str:
        return self.llm.name if self.llm is not None else "template"

    def answer(self, question: str, topics: Sequence[str] | None = None) -> AttributedAnswer:
        result = self.answer_many([question], [topics] if topics else None)[0]
        if isinstance(result, LLMError):
            raise result
        return result

    def answer_many(
        self,
        questions: Sequence[str],
        topics: Sequence[Sequence[str] | None] | None = None,
        *,
        strict: bool = True,
    ) -> list[AttributedAnswer | LLMError]:
        """``topics[i]``: the topic entities of question ``i`` (ids or labels), in place of linking;
        the rest of the pipeline is the same with or without them. ``timings["total"]`` is the
        batch's time shared evenly. ``strict=False``: a topic the graph lacks gives that question
        the "no entity found" answer instead of raising :class:`~kgcite.errors.TopicError`."""
        t0 = time.perf_counter()
        out = self.generate(self.retriever.retrieve_many(questions, topics, strict=strict))
        each = (time.perf_counter() - t0) / max(1, len(questions))
        for answer in out:
            if isinstance(answer, AttributedAnswer):
                answer.timings["total"] = each
        return out

    @abstractmethod
    def generate(self, retrievals: Sequence[Retrieval]) -> list[AttributedAnswer | LLMError]: ...

    def _chat(self, requests: Sequence[ChatRequest | None]) -> list[ChatResult | LLMError | None]:
        """Send the non-None requests as one batch; keep positions."""
        todo = [(i, r) for i, r in enumerate(requests) if r is not None]
        out: list[ChatResult | LLMError | None] = [None] * len(requests)
        if todo and self.llm is not None:
            for (i, _), res in zip(todo, self.llm.chat_many([r for _, r in todo]), strict=True):
                if isinstance(res, ChatResult) and not res.text.strip():
                    res = LLMError(f"{self.model_name}: empty output")
                out[i] = res
        return out

    def verify(self, sentences: Sequence[Sentence], graph: Subgraph) -> tuple[tuple[Sentence, ...], list[str]]:
        """Drop citations a sentence does not state; a sentence left with none is flagged [NA]."""
        by_key = {t.key: t for t in graph.triples}
        held = value_relations(graph.triples)
        cited = [
            [k for t in s.cited_triples() if t.key is not None and (k := graph.find(t.key)) is not None]
            for s in sentences
        ]
        claims = []
        for (s, context), had in zip(with_context(sentences), cited, strict=True):
            together = facts([by_key[x] for x in had])
            claims += [Claim.of(s.text, by_key[k], context, held, together) for k in had]
        verdicts = iter(self.verifier.supported(claims))
        out, notes = [], []
        for s, had in zip(sentences, cited, strict=True):
            keep: list[TripleKey] = []
            for k in had:
                if next(verdicts):
                    keep.append(k)
                else:
                    notes.append(f"verify: '{s.text}' does not state {list(k)}; citation removed")
            others: list[Citation] = [c for c in s.citations if not isinstance(c, KGCitation)]
            if not keep and not others:  # any mode: a sentence no citation supports is flagged, cited or not
                others.append(NACitation())
                why = "is supported by none of its citations" if had else "cites nothing"
                notes.append(f"verify: '{s.text}' {why}; flagged [NA]")
            out.append(Sentence(s.text, tuple(cite_triples(keep)) + tuple(others)))
        return tuple(out), notes


# -- grounded ---------------------------------------------------------------------------------

#: Praise a small model likes to add and no graph states: a rewrite using one the evidence lacks is refused.
EVALUATIVE = frozenset(
    [
        "renowned",
        "famous",
        "famed",
        "celebrated",
        "acclaimed",
        "brilliant",
        "groundbreaking",
        "prominent",
        "influential",
        "legendary",
        "iconic",
        "remarkable",
        "dedicated",
        "talented",
        "distinguished",
        "eminent",
        "prolific",
        "esteemed",
        "great",
        "greatest",
        "best",
        "outstanding",
        "notable",
        "important",
        "significant",
        "successful",
        "beloved",
        "revered",
        "pioneering",
        "visionary",
        "respected",
        "leading",
        "world-renowned",
        "extraordinary",
        "exceptional",
    ]
)
#: Words that join facts without adding one.
_CONNECTIVES = frozenset(
    ["where", "while", "whose", "after", "before", "later", "also", "who", "which", "when", "there", "here", "same"]
)
#: Prompt text a model may echo: "A:", "Answer:", "Generated Answer:", "Question:", "Facts:".
_LEAK = re.compile(r"(?:^|\n|\s)(?:generated\s+answer|answer|question|facts?|a|q)\s*:", re.IGNORECASE)


def rewrite_problem(text: str, evidence: str, *, max_new_words: int = 0) -> str | None:
    """Why a rewrite cannot be kept before any fact is checked: leaked prompt text, praise, or
    more than ``max_new_words`` content words the evidence does not have. A rewrite only
    rephrases: "a nobleman of the Byzantine Empire" or "a tale of resilience" adds a claim that no
    citation covers and the judge, which checks cited facts, cannot see."""
    if _LEAK.search(text):
        return "rewrite rejected: prompt text in the output"
    known = set(normalize(evidence).split())
    praise = sorted({w for w in normalize(text).split() if w in EVALUATIVE and w not in known})
    if praise:
        return f"rewrite rejected: evaluative words not in the evidence ({', '.join(praise)})"
    known_stems = {stem(w) for w in known}
    new = sorted(
        {
            w
            for w in normalize(text).split()
            if w not in STOP and len(w) > 2 and not w.isdigit() and stem(w) not in known_stems and w not in _CONNECTIVES
        }
    )
    if len(new) > max_new_words:
        return f"rewrite rejected: words not in the evidence ({', '.join(new[:6])})"
    return None


class GroundedGenerator(Generator):
    """States the evidence retrieval's plan chose (one template sentence per fact, ``[NA]`` per
    gap, a derivation's conclusion, a path's chain), then an optional LLM rewrite kept only when
    the judge supports every pair and nothing is added."""

    mode = "grounded"

    def __init__(
        self,
        retriever: ManyRetriever,
        llm: LLM | None,
        verifier: Verifier | None = None,
        *,
        rewrite: bool = True,
        max_tokens: int = 120,
        shown_answers: int = 3,
        planner: Planner | None = None,
    ) -> None:
        super().__init__(retriever, llm, verifier)
        self.rewrite, self.max_tokens, self.shown_answers = rewrite, max_tokens, shown_answers
        self._planner = planner

    @property
    def planner(self) -> Planner:
        """Retrieval's plan (no graph search unless one was given)."""
        if self._planner is None:
            self._planner = Planner(self.retriever)  # type: ignore[arg-type]
        return self._planner

    # -- path answers -------------------------------------------------------------------------
    def path_answer(self, chain: Chain, notes: Sequence[str] = ()) -> AttributedAnswer:
        """A path result stated (one template sentence a triple), verified, as an answer. A count
        ("How many member apiaries does X have?") states every member the chain reaches and
        concludes with their number, citing them all."""
        t0 = time.perf_counter()
        result, form = chain.result, chain.count
        cited = tuple(result.cited())
        graph = Subgraph(result.topics, cited)
        stated = path_sentences(result, len(result.answers) if form else self.shown_answers)
        if form is not None:
            n = len(result.answers)
            stated += (Sentence(count_sentence(n, form.noun), cite_triples(t.key for t in cited)),)
        sentences, verify_notes = self.verify(stated, graph)
        predicted = (str(len(result.answers)),) if form and not any(s.na for s in sentences) else ()
        return AttributedAnswer(
            question=result.question,
            mode=self.mode,
            model="template",
            sentences=sentences,
            retrieved=graph,
            evidence=cited,
            linked=tuple(t.id for t in result.topics),
            repairs=tuple(notes) + tuple(verify_notes) + chain.notes,
            timings=chain.timings.merged(Timings({"verify": time.perf_counter() - t0})),
            predicted=predicted or tuple(result.predicted()),
            form="count" if predicted else "lookup",
            answer_paths={
                a.label: [[t.subject_label, t.relation, t.object_value] for t in a.triples] for a in result.answers
            },
            path={
                "scorer": chain.scorer,
                "chain": result.best.to_dict() if result.best else None,
                "candidates": [c.to_dict() for c in result.candidates[:3]],
                "constraints": list(result.constraints),
                "llm_calls": result.llm_calls,
                "chosen_by": result.chosen_by,
                "shown": min(self.shown_answers, len(result.answers)),
            },
        )

    def generate(self, retrievals: Sequence[Retrieval]) -> list[AttributedAnswer | LLMError]:
        plans = self.planner.plan_many(retrievals)
        planned = [_statements(e) for e in plans]
        requests = [
            ChatRequest.of(
                rewrite_prompt(r.question, [s.text for s in p.sentences if not s.na]),
                system=REWRITE_SYSTEM,
                max_tokens=self.max_tokens,
            )
            if isinstance(e, Lookup) and p.triples and self.rewrite and self.llm is not None
            else None
            for r, e, p in zip(retrievals, plans, planned, strict=True)
        ]
        t1 = time.perf_counter()
        replies = self._chat(requests)
        gen_s = (time.perf_counter() - t1) / max(1, sum(r is not None for r in requests))
        out: list[AttributedAnswer | LLMError] = []
        for retrieval, evidence, plan, reply in zip(retrievals, plans, planned, replies, strict=True):
            if isinstance(reply, LLMError):
                out.append(reply)
                continue
            t2 = time.perf_counter()
            notes: list[str] = [n for le in retrieval.linked if (n := le.note())] + list(plan.notes)
            if isinstance(evidence, Chain):
                answer = self.path_answer(evidence, notes)
                asked = self.planner.reading(retrieval).to_dict()  # what was asked, as on every other answer
                out.append(replace(answer, timings=retrieval.timings.merged(answer.timings), asked=asked))
                continue
            done = evidence if isinstance(evidence, Derivation) else None
            template = plan.sentences
            # a derived answer cites facts of members retrieval did not reach (their dates, say)
            graph = retrieval.graph if done is None else Subgraph.merge([retrieval.graph, Subgraph((), done.triples)])
            rewritten = None
            if reply is not None:
                facts = [s for s in plan.sentences if not s.na]
                problem = rewrite_problem(reply.text, " ".join(s.text for s in facts))
                rewritten = None if problem else self.accept_rewrite(reply.text, plan.triples, graph, facts)
                if rewritten is not None:
                    rewritten += tuple(s for s in plan.sentences if s.na)
                notes.append(problem or ("" if rewritten else "rewrite rejected: template text kept"))
            sentences, verify_notes = self.verify(rewritten or template, graph)
            stated = (
                done.members
                if done is not None
                else stated_values(sentences, graph, {le.entity.id for le in retrieval.linked}, plan.steps)
            )
            timings = retrieval.timings.merged(
                evidence.timings,
                Timings(
                    {"generate": gen_s if reply else 0.0, "verify": time.perf_counter() - t2},
                    llm_calls=int(reply is not None),
                ),
            )
            reading = self.planner.reading(retrieval)
            out.append(
                AttributedAnswer(
                    question=retrieval.question,
                    mode=self.mode,
                    model=self.model_name if reply is not None else "template",
                    sentences=sentences,
                    retrieved=graph,
                    evidence=plan.triples,
                    linked=tuple(le.entity.id for le in retrieval.linked),
                    repairs=tuple(n for n in notes if n) + tuple(verify_notes),
                    rewritten=rewritten is not None,
                    raw_output=reply.text if reply is not None else "",
                    timings=timings,
                    absent=plan.absent,
                    asked=retrieval.reading.to_dict() if retrieval.reading is not None else None,
                    predicted=_derived(done, template, sentences) if done is not None else tuple(stated),
                    answer_paths=stated,
                    form=(done.form if done is not None else reading.form).kind,
                )
            )
        return out

    def accept_rewrite(
        self,
        text: str,
        triples: Sequence[Triple],
        graph: Subgraph | None = None,
        facts: Sequence[Sentence] = (),
    ) -> tuple[Sentence, ...] | None:
        """The LLM's paragraph as cited sentences, or None if it dropped a fact or added one.

        Each sentence cites the triples the judge says it states; every triple must be stated,
        every sentence must cite something, and no name or number may appear that is not in the
        facts (not even one of the question: it may name what the graph lacks).
        """
        lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
        if not lines or any(ln[-1] not in ".!?" for ln in lines):  # lists and cut-off text are no prose
            return None
        parsed = parse_answer(" ".join(lines))
        if not parsed.sentences or parsed.citations():
            return None
        known = normalize(" ".join([*(s.text for s in facts), *(verbalize(t) for t in triples)]))
        held = value_relations(graph.triples if graph is not None else triples)
        sentences: list[Sentence] = []
        stated: set[TripleKey] = set()
        for s, context in with_context(parsed.sentences):
            if invents(s.text, known):
                return None
            verdicts = self.verifier.supported([Claim.of(s.text, t, context, held) for t in triples])
            cited = [t.key for t, ok in zip(triples, verdicts, strict=True) if ok]
            if not cited:
                return None
            stated.update(cited)
            sentences.append(Sentence(s.text, cite_triples(cited)))
        if stated != {t.key for t in triples}:
            return None
        return tuple(sentences)


# -- free (KaLMA baseline) --------------------------------------------------------------------


def repair(parsed: ParsedAnswer, graph: Subgraph) -> tuple[tuple[Sentence, ...], list[str]]:
    """Keep only citations of retrieved triples; map a near miss to the real triple it meant.

    A near miss is: the value written differently (case, punctuation), a wrong entity id for a
    (property, value) that exists once, or a property spelled differently for a (entity, value)
    that exists once. Anything else is dropped. Quote citations and unreadable brackets are dropped.
    """
    keys = graph.keys
    by_norm = {(k[0], normalize(k[1]), normalize(k[2])): k for k in keys}
    by_rel_value: dict[tuple[str, str], list[TripleKey]] = {}
    by_ent_value: dict[tuple[str, str], list[TripleKey]] = {}
    for real in keys:
        by_rel_value.setdefault((normalize(real[1]), normalize(real[2])), []).append(real)
        by_ent_value.setdefault((real[0], normalize(real[2])), []).append(real)
    notes: list[str] = []
    out = []
    for s in parsed.sentences:
        kept: list[TripleKey] = []
        others: list[Citation] = []
        for c in s.citations:
            if isinstance(c, NACitation):
                others.append(c)
            elif not isinstance(c, KGCitation):
                notes.append(f"dropped {c!r}: not a KG citation")
        for t in s.cited_triples():
            k = t.key
            if k is None:
                notes.append(f"dropped incomplete citation {[t.entity_id, t.relation, t.value]}")
                continue
            if (own := graph.find(k)) is not None:  # the graph's own spelling of the property
                kept.append(own)
                continue
            nk = (k[0], normalize(k[1]), normalize(k[2]))
            match = by_norm.get(nk)
            if match is None and len(c1 := by_rel_value.get((nk[1], nk[2]), [])) == 1:
                match = c1[0]
            if match is None and len(c2 := by_ent_value.get((nk[0], nk[2]), [])) == 1:
                match = c2[0]
            if match is not None:
                kept.append(match)
                notes.append(f"mapped {list(k)} -> {list(match)}")
            else:
                notes.append(f"dropped {list(k)}: not in the retrieved graph")
        out.append(Sentence(s.text, tuple(cite_triples(list(dict.fromkeys(kept)))) + tuple(others)))
    return tuple(out), notes


class FreeGenerator(Generator):
    mode = "free"

    def __init__(
        self,
        retriever: ManyRetriever,
        llm: LLM,
        verifier: Verifier | None = None,
        *,
        max_tokens: int = 256,
        constrained: bool = False,
    ) -> None:
        super().__init__(retriever, llm, verifier)
        self.max_tokens, self.constrained = max_tokens, constrained

    @property
    def mode_name(self) -> str:
        return "free-constrained" if self.constrained else "free"

    def generate(self, retrievals: Sequence[Retrieval]) -> list[AttributedAnswer | LLMError]:
        requests: list[ChatRequest | None] = [
            ChatRequest.of(
                kalma_prompt(r.question, r.graph),
                max_tokens=self.max_tokens,
                stop=("\nQuestion:", "\nInstruction:"),
                grammar=citation_grammar(r.graph) if self.constrained and r.graph.triples else None,
            )
            for r in retrievals
        ]
        t0 = time.perf_counter()
        replies = self._chat(requests)
        gen_s = (time.perf_counter() - t0) / max(1, len(retrievals))
        out: list[AttributedAnswer | LLMError] = []
        for retrieval, reply in zip(retrievals, replies, strict=True):
            if not isinstance(reply, ChatResult):
                out.append(reply if isinstance(reply, LLMError) else LLMError("no reply"))
                continue
            t1 = time.perf_counter()
            parsed = parse_answer(reply.text.strip(), retrieval.graph)
            sentences, notes = repair(parsed, retrieval.graph)
            sentences, verified = self.verify(sentences, retrieval.graph)  # the same judge as grounded
            notes += verified
            out.append(
                AttributedAnswer(
                    question=retrieval.question,
                    mode=self.mode_name,
                    model=self.model_name,
                    sentences=sentences,
                    retrieved=retrieval.graph,
                    evidence=retrieval.graph.triples,
                    linked=tuple(le.entity.id for le in retrieval.linked),
                    repairs=tuple(notes),
                    raw_output=reply.text,
                    timings=retrieval.timings.merged(
                        Timings({"generate": gen_s, "verify": time.perf_counter() - t1}, llm_calls=1)
                    ),
                )
            )
        return out
