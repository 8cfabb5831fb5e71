"""Prompts: KaLMA's answer-generation prompt (paper Table 13) and grounded mode's rewrite prompt."""

from __future__ import annotations

from kgcite.kg.model import Subgraph

KALMA_INSTRUCTION = (
    "Instruction: You answer the question based on your knowledge, with the given information for annotation, "
    "following the given format. Use [NA] for claims that need annotation but is unprovided."
)

# The paper's one-shot demonstration: knowledge deliberately incomplete, [NA] where it is missing.
KALMA_DEMO = """Question: Considering the information:
{name: Orazio Gentileschi, place of death: London, child: Artemisia Gentileschi, notable works: Diana the Huntress, given name: Orazio, surname: Gentileschi, languages spoken: Italian, movement: mannerism, work location: Rome, ethnic group: Italians, date of birth: 1563-07-19, date of death: 1639-02-07, qid: Q367360}
{name: Artemisia Gentileschi, place of birth: Rome, place of death: Naples, occupation: painter, member of: Accademia delle Arti del Disegno, father: Orazio Gentileschi, notable works: Judith Slaying Holofernes, movement: Caravaggisti, ethnic group: Italians, work location: Florence, depicted by: Artemisia, surname: Gentileschi, languages spoken: Italian, student of: Orazio Gentileschi, given name: Artemisia, mother: Prudenzia di Ottaviano Montoni, date of death: 1654-01-01, qid: Q212657}
How did Orazio Gentileschi's influence on Artemisia's life and career shape her development as a prominent Baroque painter, despite facing significant challenges as a female artist in a male-dominated field?
Answer: Artemisia Gentileschi was an Italian painter born on July 8, 1596 [NA] in Rome [Q212657, ethnic group: Italians, occupation: painter, place of birth: Rome]. She was a member of the Accademia delle Arti del Disegno and is best known for her work Judith Slaying Holofernes [Q212657, member of: Accademia delle Arti del Disegno, notable works: Judith Slaying Holofernes]. She was the eldest child of the Tuscan painter Orazio Gentileschi [Q212657, father: Orazio Gentileschi]. Orazio Gentileschi was an Italian painter [NA] born in 1563 and died in 1639 [Q367360, ethnic group: Italians, date of birth: 1563-07-19, date of death: 1639-02-07]. He was born in Pisa and died in London [Q367360, place of death: London]. Orazio's influence on Artemisia's development as a prominent Baroque [NA] painter can be seen in her highly naturalistic portrayal of figures, dramatic scenes and the use of chiaroscuro technique [NA]. He also provided her with the opportunity to study with him and learn from his experience and expertise. She became an important second-generation proponent of Caravaggio's dramatic realism [Q212657, movement: Caravaggisti]."""


def format_knowledge(graph: Subgraph) -> str:
    """The KG as KaLMA shows it: one ``{name: .., property: value, .., qid: ..}`` line per entity."""
    lines = []
    for entity in graph.entities:
        pairs = [f"name: {entity.label}"]
        pairs += [f"{t.relation}: {t.object_value}" for t in graph.about(entity.id)]
        lines.append("{" + ", ".join(pairs) + f", qid: {entity.id}" + "}")
    return "\n".join(lines)


def kalma_prompt(question: str, graph: Subgraph) -> str:
    return (
        f"{KALMA_INSTRUCTION}\n{KALMA_DEMO}\n\n"
        f"Question: Considering the information:\n{format_knowledge(graph)}\n{question}\nAnswer:"
    )


REWRITE_SYSTEM = "You rewrite lists of facts into one short fluent paragraph. You never add facts."


def rewrite_prompt(question: str, facts: list[str]) -> str:
    listed = "\n".join(f"- {f}" for f in facts)
    return (
        f"Question: {question}\nFacts:\n{listed}\n\n"
        "Answer the question using only these facts, in one to three sentences. "
        "Copy every name, date and value exactly as written. Add nothing else."
    )


def citation_grammar(graph: Subgraph, *, max_sentences: int = 4, max_chars: int = 150) -> str:
    """A GBNF grammar for KaLMA answers whose every sentence ends with a citation of a retrieved
    triple or ``[NA]``: constrained decoding makes even a tiny model cite only real triples."""
    import json

    cites = [f"[{s}, {r}: {v}]" for s, r, v in sorted(graph.keys)] + ["[NA]"]
    return (
        f'root ::= sentence (" " sentence){{0,{max_sentences - 1}}}\n'
        'sentence ::= text " " cite "."\n'
        f"text ::= [^\\[\\]\\n.]{{5,{max_chars}}}\n"
        "cite ::= " + " | ".join(json.dumps(c, ensure_ascii=False) for c in cites) + "\n"
    )


def quote_system(n: int) -> str:
    """EWEK-QA §A.4's instruction, with the number of quotes actually given."""
    return (
        f"Given the following quotes answer the question. You are given {n} quotes with their numbers. "
        "Each quote used in the answer should be cited with [ and ] symbols and the number of the quote in between."
    )


def quote_prompt(question: str, quotes: list[str]) -> str:
    """EWEK-QA §A.4's user turn: the question, then ``n: quote`` lines (the KG triples come first)."""
    listed = "\n".join(f"{i}: {q}" for i, q in enumerate(quotes, 1))
    return f"Question: {question}\n\nQuotes:\n{listed}\n\nAnswer:"


def quote_grammar(n_quotes: int, *, max_sentences: int = 3, max_chars: int = 160) -> str:
    """GBNF for answers whose every sentence ends with quote citations ``[1]``…``[n]``."""
    numbers = " | ".join(f'"{i}"' for i in range(1, n_quotes + 1))
    return (
        f'root ::= sentence (" " sentence){{0,{max_sentences - 1}}}\n'
        'sentence ::= text " " cite cite? "."\n'
        f"text ::= [A-Z] [^\\[\\]\\n.:]{{4,{max_chars}}}\n"  # a capital first: no "1: " echo of the quote list
        f'cite ::= "[" ({numbers}) "]"\n'
    )
