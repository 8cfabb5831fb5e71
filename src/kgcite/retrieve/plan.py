"""Which chain of relations may answer a question: decided here, once, in retrieval.

A path found by the graph search is an answer only if it walks what the question asks: the
kind of value asked (a "when" ends on a date), and no relation walked there and back ("the
publication year of the books that share a publisher with X") unless the question asks for
what things share. A chain that fails is no answer: the graph lacks the fact, and the answer
says so with ``[NA]`` rather than stating another relation.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from kgcite.retrieve.paths import Chain
from kgcite.text.kinds import fits
from kgcite.text.lexicon import SHARING, AnswerKind
from kgcite.text.values import normalize


def turns_back(chain: Chain) -> bool:
    """Whether the chain walks one relation and then the same relation back (X → publisher → X's siblings)."""
    return any(a.relation == b.relation and a.inverse != b.inverse for a, b in pairwise(chain))


def asks_sharing(question: str) -> bool:
    """ "Which films share a director with X?", "the same publisher": the question asks for siblings."""
    return any(w in SHARING for w in normalize(question).split())


def chain_answers(question: str, chain: Chain, answers: Sequence[str], kind: AnswerKind) -> bool:
    """Whether a chain's answers answer the question: of the kind asked, and not reached by
    turning back on a relation the question does not ask to share."""
    if not fits(kind, answers):
        return False
    return not (turns_back(chain) and not asks_sharing(question))
