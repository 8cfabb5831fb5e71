"""Quote-citation metrics: validity, alignment (as written and as returned), citation sources."""

from __future__ import annotations

from kgcite.evaluate.metrics.quotes import citation_source, quote_report
from kgcite.generate.citations import NACitation, QuoteCitation, Sentence
from kgcite.generate.compose import EvidenceQuote, QuotedAnswer
from kgcite.judge.quotes import NLIQuoteVerifier
from kgcite.models.nli import OnnxNLI

KG = EvidenceQuote(
    1,
    "kg",
    "Stephen Crane died in Badenweiler. Stephen Crane's father is Jonathan Townley Crane.",
    "knowledge graph",
    (("Q206534", "place of death", "Badenweiler"),),
)
DOC = EvidenceQuote(2, "document", "Crane was buried in Evergreen Cemetery in Hillside, New Jersey.", "crane.html")


def answer(sentences: list[Sentence], raw: str = "", written: int = 0, invalid: int = 0) -> QuotedAnswer:
    return QuotedAnswer(
        "q", tuple(sentences), (KG, DOC), "m", raw_output=raw, written_citations=written, invalid_citations=invalid
    )


def test_sources_and_validity() -> None:
    both = answer(
        [
            Sentence("Stephen Crane died in Badenweiler", (QuoteCitation(1),)),
            Sentence("Crane was buried in Evergreen Cemetery in Hillside, New Jersey", (QuoteCitation(2),)),
        ],
        raw="Stephen Crane died in Badenweiler [1]. Crane was buried in Evergreen Cemetery in Hillside, New Jersey [2][5].",
        written=3,
        invalid=1,
    )
    kg = answer([Sentence("Stephen Crane died in Badenweiler", (QuoteCitation(1),))])
    none = answer([Sentence("Nobody knows", (NACitation(),))])
    assert [citation_source(a) for a in (both, kg, none)] == ["both", "kg_only", "none"]
    r = quote_report([both, kg, none], NLIQuoteVerifier(None))
    assert r.validity == 2 / 3 and r.written == 3 and r.invalid == 1
    assert (r.aligned, r.pairs) == (3, 3)  # verbatim sentences: no NLI needed
    assert (r.written_aligned, r.written_pairs) == (2, 2)  # [5] names no quote: not a pair
    assert r.shares() == {"kg_only": 1 / 3, "documents_only": 0.0, "both": 1 / 3, "none": 1 / 3}


def test_alignment_uses_nli_for_paraphrase(nli: OnnxNLI) -> None:
    raw = "Crane's father was Jonathan Townley Crane [1]. Crane is buried in Paris [2]."
    a = answer([], raw=raw, written=2)
    lexical = quote_report([a], NLIQuoteVerifier(None))
    judged = quote_report([a], NLIQuoteVerifier(nli))
    assert lexical.written_pairs == judged.written_pairs == 2
    assert lexical.written_aligned == 0  # neither sentence is verbatim in its quote
    assert judged.written_aligned == 1  # the paraphrase is entailed; Paris is not
