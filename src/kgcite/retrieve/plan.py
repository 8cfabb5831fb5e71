"""Which chain of relations may answer a question: decided here, once, in retrieval.

A path found by the graph search is an answer only if it walks what the question asks: the
kind of value asked (a "when" ends on a date), and, standing in for a fact the topic lacks, no
relation walked there and back ("the publication year of the books that share a publisher with
X") unless the question asks for what things share. A chain that fails is no answer: the graph lacks the fact, and the answer
says so with ``[NA]`` rather than stating another relation.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from itertools import pairwise

from kgcite.kg.keys import property_key
from kgcite.retrieve.paths import Chain
from kgcite.retrieve.question import QuestionAnalysis
from kgcite.text.kinds import fits
from kgcite.text.lexicon import SHARING, AnswerKind
from kgcite.text.values import normalize


def turns_back(chain: Chain, asked: AbstractSet[str] = frozenset()) -> bool:
    """Whether the chain walks a relation the question does not name and then walks it back
    (X → publisher → X's siblings); ``asked``: the named relations' keys ("the films starred by
    X's actors" names the relation it turns back on)."""
    return any(
        a.relation == b.relation and a.inverse != b.inverse and property_key(a.relation) not in asked
        for a, b in pairwise(chain)
    )


def asks_sharing(question: str) -> bool:
    """ "Which films share a director with X?", "the same publisher": the question asks for siblings."""
    return any(w in SHARING for w in normalize(question).split())


def chain_answers(
    question: str,
    chain: Chain,
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


def wants_chain(analysis: QuestionAnalysis, *, gaps: bool) -> bool:
    """Whether the graph search runs at all: only when the reading asks for a chain. It does when
    the question names more relations than one hop walks, when a part is named by no relation
    word ("the engineer of X") or says words no relation explains ("the *same* director", "what
    *types*"), or when the one-hop facts left a gap (an asked relation the topic
    lacks may be reached further on). A one-part question whose one named relation the topic
    holds is answered by that fact, without a search: most of a cold ``ask``'s time was a search
    whose result was thrown away."""
    if analysis.summary or len(analysis.parts) != 1:
        return False
    part = analysis.parts[0]
    unexplained = bool(part.rest)  # "what *types* are the movies written by X", "*co*-directors of X"
    return gaps or part.open or unexplained or len(part.groups) > 1 or analysis.form.kind != "lookup"
