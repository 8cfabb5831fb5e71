"""Reading a claim and its evidence as facts, on any graph (the structured evaluator's first half).

No graph is consulted and no word list names a relation: names are what a writer capitalises
(or writes as numbers and dates), the question's names are its topics, the names the answer
statement adds are its answers, and each evidence sentence links the names it states. What the
evidence is then reduces to a small graph of names — a chain from the topics to each answer, a
chain with a gap, another name where an answer should be, or no contact — which
:mod:`kgcite.evaluate.judges.structured` turns into features and a verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgcite.text.lexicon import PRONOUNS, QUESTION_WORDS, STOP, stem
from kgcite.text.values import normalize

#: Lower-case words that may stand inside a name ("Bank of England", "Seven Years in Tibet",
#: "Vincent van Gogh"); never "and", which lists names.
_INNER = frozenset(
    ["of", "the", "a", "an", "in", "on", "at", "to", "for", "with", "from", "de", "la", "le", "du", "del", "der"]
    + ["von", "van", "da", "di", "y"]
)
#: A text's first word is a name's only if it is none of these (grammar, not any graph's vocabulary).
_OPENERS = (
    STOP
    | QUESTION_WORDS
    | PRONOUNS
    | frozenset(["given", "among", "in", "on", "at", "yes", "no", "so", "there", "name"])
)
_FUNCTION = STOP | QUESTION_WORDS | PRONOUNS
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th|s)?\b|\w+(?:[-'’]\w+)*|[^\w\s]")
_CITATION = re.compile(r"\[(\d+)\]\s*")
_SENTENCE = re.compile(r"(?<=[a-z0-9)])[.!?]\s+(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class Token:
    raw: str
    norm: str  # normalised (lower case, accents folded, digits without separators)
    kind: str  # "cap", "num", "low" or "punct"


def tokenize(text: str) -> list[Token]:
    """Words, numbers and punctuation; a possessive ``'s`` is dropped ("Bird's genre" → Bird, genre)."""
    text = re.sub(r"(\w)['’]s\b", r"\1", text)
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group()
        if raw[0].isdigit():
            out.append(Token(raw, raw.replace(",", ""), "num"))
        elif raw[0].isalpha() or raw[0] == "_":
            norm = normalize(raw).replace(" ", "")
            out.append(Token(raw, norm, "cap" if raw[0].isupper() else "low"))
        else:
            out.append(Token(raw, raw, "punct"))
    return out


Key = tuple[str, ...]


def key_of(tokens: list[Token]) -> Key:
    """A name's identity: its content words, normalised."""
    return tuple(t.norm for t in tokens if t.kind != "punct" and t.norm not in STOP)


def name_runs(tokens: list[Token]) -> list[tuple[int, int]]:
    """Spans of capitalised words and numbers ("The Grey Harbour", "June 2, 1999", "Bank of
    England"); lower-case joining words only between two such words; a comma only between numbers."""
    spans: list[tuple[int, int]] = []
    i = 0
    n = len(tokens)

    def strong(j: int) -> bool:
        t = tokens[j]
        if t.kind == "num":
            return True
        if t.kind != "cap":
            return False
        return not (j == 0 and t.norm in _OPENERS)

    while i < n:
        if not strong(i):
            i += 1
            continue
        j = i + 1
        while j < n:
            t = tokens[j]
            if strong(j):
                j += 1
                continue
            nxt = j + 1 < n and strong(j + 1)
            if t.kind == "low" and t.norm in _INNER:
                k = j
                while k < n and tokens[k].kind == "low" and tokens[k].norm in _INNER:
                    k += 1
                if k < n and strong(k):  # "A Prayer for the Dying"
                    j = k
                    continue
                break
            if t.raw == "," and nxt and _day_comma(tokens, j):
                j += 1
                continue
            if t.raw == "." and nxt and len(tokens[j - 1].raw) <= 2 and tokens[j - 1].kind == "cap":
                j += 1  # an initial: "B.Z. Goldberg", "David O. Selznick"
                continue
            break
        if key_of(tokens[i:j]):
            spans.append((i, j))
        i = j
    return spans


def _day_comma(tokens: list[Token], j: int) -> bool:
    """The comma of "June 2, 1999": a day after a month's name, then a year."""
    day, year = tokens[j - 1], tokens[j + 1]
    return (
        j >= 2
        and tokens[j - 2].kind == "cap"
        and day.kind == "num"
        and day.norm.isascii()
        and day.norm.isdigit()
        and int(day.norm) <= 31
        and year.kind == "num"
        and len(year.norm) in (3, 4)
    )


def content_stems(tokens: list[Token]) -> set[str]:
    return {stem(t.norm) for t in tokens if t.kind != "punct" and t.norm not in _FUNCTION}


def split_evidence(evidence: str) -> list[str]:
    """Citation sentences: ``[1] … [2] …`` by their markers, else by sentence breaks."""
    if _CITATION.search(evidence):
        parts = _CITATION.split(evidence)
        return [p.strip() for i, p in enumerate(parts) if i % 2 == 0 and p.strip()] or [evidence.strip()]
    return [s.strip() for s in _SENTENCE.split(evidence) if s.strip()]


def _occurs(key: Key, words: list[str]) -> int:
    """Where ``key`` first stands in ``words`` (content words), -1 if nowhere."""
    return next(iter(_positions(key, words)), -1)


def _positions(key: Key, words: list[str]) -> list[int]:
    """Where ``key`` stands in ``words``; a long word may differ by one typo ("Bakrey", "Bakery")."""
    k = len(key)
    if not k:
        return []
    return [i for i in range(len(words) - k + 1) if all(_same(a, b) for a, b in zip(key, words[i : i + k]))]


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1 or a.isdigit() or b.isdigit():
        return False
    return _one_edit(a, b)


def _one_edit(a: str, b: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours."""
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :])
    return a[i:] == b[i + 1 :]


@dataclass
class SentenceReading:
    """One citation sentence: the claim's names it states, the other names, its other words."""

    text: str
    topics: list[int] = field(default_factory=list)  # indexes into ClaimReading.topics
    answers: list[int] = field(default_factory=list)  # indexes into ClaimReading.answers
    others: list[Key] = field(default_factory=list)  # names the claim does not mention
    words: set[str] = field(default_factory=set)  # stems of the words outside any name
    numbers: set[str] = field(default_factory=set)
    tail: str = ""  # a lower-case last word the claim does not use: perhaps a value ("… was monarch.")


@dataclass
class ClaimReading:
    """The question's names (topics), the names the answer statement adds (answers), and the
    question's other words (what it asks)."""

    topics: list[Key]
    answers: list[Key]
    asked: set[str]  # stems of the question's words outside its names
    question_stems: set[str]
    statement_stems: set[str]
    answer_kinds: list[str]  # "num" or "cap" per answer
    pieces: dict[Key, list[Key]] = field(default_factory=dict)  # an answer run cut at joining words


def read_claim(question: str, statement: str) -> ClaimReading:
    q = tokenize(question)
    s = tokenize(re.sub(r"\((?=[a-z])[^)]*\)", " ", statement))  # "(the question asked for X too)"
    q_stems = content_stems(q)
    q_words = {t.norm for t in q}
    topics: list[Key] = []
    for a, b in name_runs(q):
        topics.append(key_of(q[a:b]))
    answers: list[Key] = []
    kinds: list[str] = []
    pieces: dict[Key, list[Key]] = {}
    q_names = list(topics)
    for a, b in name_runs(s):
        k = key_of(s[a:b])
        # part of a name the question holds is another entity ("Varnholm", "University of Varnholm")
        part = any(len(k) < len(n) and _occurs(k, list(n)) >= 0 for n in q_names) and not any(
            _occurs(n, list(k)) >= 0 for n in q_names
        )
        if not part and all(w in q_words or stem(w) in q_stems or any(_same(w, x) for x in q_words) for w in k):
            topics.append(k)  # a name the question holds, cased better by the statement
        else:
            answers.append(k)
            kinds.append("num" if any(t.kind == "num" for t in s[a:b]) else "cap")
            pieces[k] = _pieces(s[a:b])
    if not answers:  # lower-case values ("male", "politician"): the statement's runs of new words
        run: list[Token] = []
        for t in [*s, Token(".", ".", "punct")]:
            if t.kind == "low" and t.norm not in STOP and t.norm not in q_words and stem(t.norm) not in q_stems:
                run.append(t)
            elif run:
                answers.append(key_of(run))
                kinds.append("low")
                run = []
    topics = _distinct(topics)
    named = {w for k in topics for w in k}
    asked = {stem(t.norm) for t in q if t.kind == "low" and t.norm not in _FUNCTION}
    asked -= {stem(w) for w in named}
    answers, kinds = _distinct_with(answers, kinds)
    pieces = {k: v for k, v in pieces.items() if len(v) > 1}
    return ClaimReading(topics, answers, asked, q_stems, content_stems(s), kinds, pieces)


#: Joining words that may stand inside a title ("Seven Years in Tibet") or between two names
#: ("discovered by Nell Ashgrove with the Great Selby Telescope"): the evidence decides which.
_BETWEEN = frozenset(["in", "on", "at", "to", "for", "with", "from"])


def _pieces(tokens: list[Token]) -> list[Key]:
    """A name run cut at its joining words: the names it may be if the evidence never states it whole."""
    out: list[Key] = []
    start = 0
    for i, t in enumerate(tokens):
        if t.kind == "low" and t.norm in _BETWEEN:
            out.append(key_of(tokens[start:i]))
            start = i + 1
    out.append(key_of(tokens[start:]))
    return [k for k in out if k]


def _distinct(keys: list[Key]) -> list[Key]:
    """Distinct names; a name inside a longer one ("Bird" in "Bird Song") is kept apart only when
    the longer one is not also listed."""
    out: list[Key] = []
    for k in sorted(set(keys), key=len, reverse=True):
        if k and not any(_occurs(k, list(o)) >= 0 for o in out):
            out.append(k)
    return out


def _distinct_with(keys: list[Key], kinds: list[str]) -> tuple[list[Key], list[str]]:
    seen: dict[Key, str] = {}
    for k, kind in zip(keys, kinds, strict=True):
        if k and k not in seen:
            seen[k] = kind
    return list(seen), list(seen.values())


def read_sentence(text: str, claim: ClaimReading, tokens: list[Token] | None = None) -> SentenceReading:
    """``tokens``: the sentence's, when the caller has them already."""
    tokens = tokenize(text) if tokens is None else tokens
    content = list(key_of(tokens))
    out = SentenceReading(text)
    taken: set[int] = set()  # positions in ``content`` already read as a name
    named = [(k, i, out.answers) for i, k in enumerate(claim.answers)] + [
        (k, i, out.topics) for i, k in enumerate(claim.topics)
    ]
    named.sort(key=lambda n: -len(n[0]))  # the longest name first: "Patricia Heaton", then "Heaton"
    for k, i, into in named:
        free = [p for p in _positions(k, content) if not taken & set(range(p, p + len(k)))]
        if free:
            into.append(i)
            taken |= {j for p in free for j in range(p, p + len(k))}
    out.answers.sort()
    out.topics.sort()
    used = {content[j] for j in taken}
    for a, b in name_runs(tokens):
        k = key_of(tokens[a:b])
        if k and not set(k) <= used and not _overlaps(k, claim):
            out.others.append(k)
            used |= set(k)
    out.words = {stem(t.norm) for t in tokens if t.kind == "low" and t.norm not in STOP and t.norm not in used}
    last = [t for t in tokens if t.kind != "punct" and t.norm not in STOP]
    if last and last[-1].kind == "low" and stem(last[-1].norm) not in claim.statement_stems | claim.question_stems:
        out.tail = last[-1].norm
    out.numbers = {t.norm for t in tokens if t.kind == "num"}
    return out


def read_evidence(evidence: str, claim: ClaimReading) -> list[SentenceReading]:
    """Each citation sentence read; a lower-case value that ends one sentence and stands in another
    ("Henry VII's occupation was monarch." … "held the position of monarch") links them as a name.
    The claim's answers are updated in place where the evidence states only their pieces."""
    texts = split_evidence(evidence)
    tokens = [tokenize(x) for x in texts]  # once per sentence
    _split_answers(claim, [list(key_of(t)) for t in tokens])
    sentences = [read_sentence(x, claim, t) for x, t in zip(texts, tokens, strict=True)]
    for s in sentences:
        if s.tail and any(o is not s and stem(s.tail) in o.words for o in sentences):
            for o in sentences:
                if stem(s.tail) in o.words and (s.tail,) not in o.others:
                    o.others.append((s.tail,))
    return sentences


def _split_answers(claim: ClaimReading, contents: list[list[str]]) -> None:
    """An answer run the evidence never states whole but states a piece of is those pieces
    ("Nell Ashgrove with the Great Selby Telescope" → two answers)."""
    answers, kinds = [], []
    for k, kind in zip(claim.answers, claim.answer_kinds, strict=True):
        parts = claim.pieces.get(k, [])
        whole = any(_occurs(k, c) >= 0 for c in contents)
        if parts and not whole and any(_occurs(p, c) >= 0 for p in parts for c in contents):
            answers += parts
            kinds += [kind] * len(parts)
        else:
            answers.append(k)
            kinds.append(kind)
    claim.answers, claim.answer_kinds = answers, kinds


def _overlaps(k: Key, claim: ClaimReading) -> bool:
    """One of the claim's names written shorter: one of its words ("Quenby" for Marla Quenby). Two
    words or more name another entity ("Stuart Little" is not "Stuart Little 2")."""
    return len(k) == 1 and any(_occurs(k, list(c)) >= 0 for c in (*claim.topics, *claim.answers))
