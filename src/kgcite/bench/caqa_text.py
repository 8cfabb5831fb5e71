"""The text of CAQA-style samples: human names, several phrasings per relation, declarative answers.

A benchmark whose citations all read "anna_of_holstein-gottorp's children is …" teaches an
evaluator the surface of one graph. Here labels that look like identifiers are humanised, each
relation is said in one of several phrasings of its grammatical form (sampled per sample with the
sample's own seeded RNG, so a build is byte-identical for a seed), and the answer statement is a
declarative made from the question by rules ("who directed X?" → "A directed X."), with a plain
"The answer to … is …" only where no rule applies.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kgcite.generate.verbalize import pattern, speak
from kgcite.kg.keys import property_key
from kgcite.kg.model import Triple
from kgcite.models.tags import tagging_pipeline
from kgcite.text.inflect import past, plural
from kgcite.text.lexicon import PREPOSITIONS, property_label
from kgcite.text.values import join

# -- labels ---------------------------------------------------------------------------------------

_SMALL = frozenset(
    [
        "of",
        "the",
        "and",
        "de",
        "da",
        "di",
        "du",
        "del",
        "von",
        "van",
        "der",
        "den",
        "la",
        "le",
        "y",
        "in",
        "on",
        "at",
        "for",
        "to",
        "a",
        "an",
    ]
)
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
#: Titles after a name take a comma: "Enno III, Count of Ostfriesland".
_TITLES = frozenset(
    [
        "count",
        "countess",
        "duke",
        "duchess",
        "earl",
        "king",
        "queen",
        "prince",
        "princess",
        "baron",
        "baroness",
        "lord",
        "lady",
        "margrave",
        "elector",
        "emperor",
        "empress",
        "marquess",
        "viscount",
        "archduke",
    ]
)


def looks_like_id(label: str) -> bool:
    """A label written as an identifier: ``enno_iii_count_of_ostfriesland``, ``rudolf_christian``."""
    return "_" in label and " " not in label.strip()


def id_style(labels: Iterable[str]) -> bool:
    """Whether a graph writes its labels as identifiers (a third or more of a sample of them)."""
    sample = list(itertools.islice(labels, 2000))
    return bool(sample) and sum(map(looks_like_id, sample)) >= len(sample) / 3


def humanise(label: str, *, ids: bool = False) -> str:
    """A name as people write it; labels that are already names are left alone. ``ids``: the
    graph writes identifiers, so a lone lower-case word is one too (``stockholm`` → ``Stockholm``)."""
    if not (looks_like_id(label) or (ids and label.isalpha() and label.islower())):
        return label
    words = [w for w in label.strip("_").split("_") if w]
    out: list[str] = []
    for i, w in enumerate(words):
        low = w.lower()
        if _ROMAN.match(low) and i > 0:
            word = low.upper()
        elif low in _SMALL and i > 0:
            word = low
        else:
            word = "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
        if low in _TITLES and i > 0 and i + 1 < len(words) and words[i + 1].lower() == "of":
            out[-1] += ","
        out.append(word)
    return " ".join(out)


def spoken_name(label: str, *, ids: bool = False) -> str:
    """How a sample's text names a node: identifiers humanised, ISO dates spoken."""
    return speak(humanise(label, ids=ids))


_ID_WORD = re.compile(r"[\w.-]*_[\w.-]*")


def humanise_text(text: str) -> str:
    """Every identifier-like word of a text humanised ("the son of anna_of_holstein-gottorp")."""
    return _ID_WORD.sub(lambda m: humanise(m.group(0)), text)


# -- relation phrasings ---------------------------------------------------------------------------

#: Participles whose past tense differs: the active phrasing of "written by" is "wrote".
_IRREGULAR_PAST = {
    "written": "wrote",
    "sung": "sang",
    "taken": "took",
    "given": "gave",
    "drawn": "drew",
    "known": "knew",
    "chosen": "chose",
    "driven": "drove",
    "spoken": "spoke",
    "begun": "began",
    "ridden": "rode",
    "shown": "showed",
    "made": "made",
    "led": "led",
    "held": "held",
    "built": "built",
    "taught": "taught",
    "won": "won",
    "founded": "founded",
}
#: More phrasings of the hand-written patterns (generate.verbalize.TEMPLATES) and MetaQA's relations.
_MORE: dict[str, tuple[str, ...]] = {
    "place of birth": ("{s} is a native of {o}.", "{s}'s birthplace is {o}."),
    "place of death": ("{s}'s place of death was {o}.",),
    "date of birth": ("{s}'s date of birth is {o}.", "{s}'s birthday is {o}."),
    "date of death": ("{s}'s date of death is {o}.", "{s} passed away on {o}."),
    "place of burial": ("{s} is buried at {o}.", "{s}'s resting place is {o}."),
    "occupation": ("{s} worked as {o}.", "The occupation of {s} was {o}."),
    "country of citizenship": ("{s} held citizenship of {o}.", "{s} was a national of {o}."),
    "educated at": ("{s} was educated at {o}.",),
    "alma mater": ("{s}'s alma mater is {o}.", "{s} was educated at {o}."),
    "award received": ("{s} was awarded the {o}.", "{s} won the {o}."),
    "member of sports team": ("{s} was a player for {o}.",),
    "employer": ("{s} was employed by {o}.", "{s}'s employer was {o}."),
    "languages spoken": ("{s} could speak {o}.",),
    "residence": ("{s} resided in {o}.",),
    "starred actors": ("{o} starred in {s}.", "{o} appears in {s}.", "{o} is in the cast of {s}."),
    "release year": ("{s} came out in {o}.",),
    "has tags": ("{s} has the tag {o}.",),
    "has imdb rating": ("{s} is rated {o} on IMDb.",),
    "has imdb votes": ("{s} has {o} votes on IMDb.",),
    "in language": ("{s} is in {o}.",),
}
_PASSIVE = re.compile(r"^\{s\} was (\w+) (by) \{o\}\.$")
_VERB = re.compile(r"^\{s\} (\w+ed) \{o\}\.$")
_NOUN = re.compile(r"^\{s\}'s (.+) is \{o\}\.$")
_NOUNS = re.compile(r"^\{s\}'s (.+) include \{o\}\.$")


@lru_cache(maxsize=4096)
def phrasings(relation: str) -> tuple[str, ...]:
    """Sentence patterns (``{s}``, ``{o}``) for one value of a relation: the verbaliser's own
    pattern first, then other phrasings of the same grammatical form."""
    base, _ = pattern(relation)
    out = [base]
    if m := _PASSIVE.match(base):
        participle = m.group(1)
        active = _IRREGULAR_PAST.get(participle, participle if participle.endswith("ed") else "")
        if active:
            out.append("{o} " + active + " {s}.")
        out.append("{s} is " + participle + " by {o}.")
    elif m := _VERB.match(base):
        out.append("{o} was " + m.group(1) + " by {s}.")
    elif m := _NOUN.match(base):
        noun = m.group(1)
        out += ["The " + noun + " of {s} is {o}.", "{o} is the " + noun + " of {s}."]
    elif m := _NOUNS.match(base):
        noun = m.group(1)
        out += ["The " + noun + " of {s} include {o}.", "{o} is one of the " + noun + " of {s}."]
    out += _MORE.get(property_key(relation), ())
    return tuple(dict.fromkeys(out))


def phrase(subject: str, relation: str, value: str, rng: random.Random) -> str:
    """One sentence for one triple, its phrasing drawn from ``rng`` (dates spoken)."""
    text = rng.choice(phrasings(relation)).format(s=subject, o=speak(value))
    return text[:1].upper() + text[1:]


def restriction(relation: str, other: str, answer_is_subject: bool) -> str:
    """The relative clause that narrows answers to those with ``relation`` to ``other``:
    "whose language is Macedonian", "that was written by Craig Harrison", "that starred in X"."""
    forms = phrasings(relation)
    if answer_is_subject:
        base = forms[0]
        if base.startswith("{s}'s "):
            return "whose " + base[len("{s}'s ") :].rstrip(".").format(o=other)
        return "that " + _plural_verb(base[len("{s} ") :].rstrip(".").format(o=other))
    for f in forms:
        if f.startswith("{o} "):
            return "that " + _plural_verb(f[len("{o} ") :].rstrip(".").format(s=other))
    if forms[0].endswith(" {o}.") and not forms[0].startswith("{s}'s "):  # "that X was born on"
        return "that " + forms[0][: -len(" {o}.")].format(s=other)
    return f"that are the {property_label(relation)} of {other}"


def _plural_verb(clause: str) -> str:
    """ "was written by X" → "were written by X": the clause's subject is "those"."""
    first, _, rest = clause.partition(" ")
    return " ".join([{"was": "were", "is": "are", "has": "have"}.get(first, first), rest]).strip()


def lower_wh(question: str) -> str:
    """A question inside a sentence: "Which are …" → "which are …" (names keep their capital)."""
    first = question.split(" ", 1)[0].lower()
    return (
        question[:1].lower() + question[1:]
        if first in ("what", "which", "who", "whom", "whose", "where", "when", "how")
        else question
    )


def lower_first(text: str) -> str:
    """A sentence inside another: "The genre of X …" → "the genre of X …", but "The Quiet Earth …" stays."""
    words = text.split(" ", 2)
    if len(words) > 1 and words[0] in ("The", "Those") and words[1][:1].islower():
        return text[:1].lower() + text[1:]
    return text


# -- answer statements ----------------------------------------------------------------------------

_WH = r"(?:what|which|who|whom|whose)"
_BE = {"is", "are", "was", "were"}
_BE_PLURAL = {"is": "are", "was": "were"}
_BE_SINGULAR = {"are": "is", "were": "was"}
_DO = {"do", "does", "did"}
_MODALS = {"can", "could", "will", "would", "should", "may", "might", "has", "have", "had"}
_GIVEN = re.compile(r"^given that (?P<fact>.+?), (?P<rest>.+)$", re.IGNORECASE)
_AMONG = re.compile(r"^(?P<rest>.+?), among those (?P<cond>.+)$", re.IGNORECASE)
_AND_FOR = re.compile(r"^(?P<rest>.+?)\?? and for (?P<other>.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    text: str
    rule: str  # which rule made it: copula, subject, do, where-when, in-situ or fallback


def _agree(be: str, n: int) -> str:
    return _BE_PLURAL.get(be, be) if n > 1 else _BE_SINGULAR.get(be, be)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


#: Past tenses that are not regular, by base form ("did X write" → "X wrote").
_PAST = {
    "write": "wrote",
    "speak": "spoke",
    "fall": "fell",
    "make": "made",
    "take": "took",
    "give": "gave",
    "win": "won",
    "lead": "led",
    "teach": "taught",
    "hold": "held",
    "begin": "began",
    "sing": "sang",
    "go": "went",
    "come": "came",
    "see": "saw",
    "know": "knew",
    "have": "had",
    "be": "was",
    "build": "built",
    "bear": "bore",
    "find": "found",
    "bring": "brought",
    "leave": "left",
    "tell": "told",
    "choose": "chose",
}


def _past_of(verb: str) -> str:
    return _PAST.get(verb, past(verb))


def _core(question: str, answer: str, n: int) -> Statement | None:
    """The declarative of a plain wh-question, or None where no rule fits."""
    words = question.split()
    low = [w.lower() for w in words]
    if not words:
        return None
    if low[-1] in _BE and len(words) > 2:  # "X's director was" → "X's director was A"
        return Statement(f"{_cap(question)} {answer}.", "copula")
    if low[0] in ("where", "when") and len(words) >= 3 and low[1] in _BE | _DO:
        prep = "in" if low[0] == "where" or re.fullmatch(r"\d{3,4}", answer) else "on"
        rest = words[2:]
        if low[1] in _BE:  # "where was X born" → "X was born in A"
            return _be_where(rest, low[1], prep, answer)
        return _do_support(rest, low[1], f"{prep} {answer}", "where-when")
    if not re.fullmatch(_WH, low[0]):
        return _in_situ(words, answer)
    # the wh-phrase: the wh-word and the nouns after it, up to the verb
    i = 1
    while i < len(words) and low[i] not in _BE | _DO | _MODALS and not _is_verb(words, i):
        i += 1
    if i >= len(words):
        return None
    rest = words[i + 1 :]
    be, noun = low[i], " ".join(words[1:i])
    if be in _BE:
        if rest and rest[0].lower() == "those":  # "which are those that X was born on" → "Those that … are A"
            return Statement(f"{_cap(' '.join(rest))} are {answer}.", "copula")
        if len(rest) > 1 and low[-1] in PREPOSITIONS:  # "what languages are the films of X in"
            np_ = rest[:-1]
            k = next((k for k, w in enumerate(np_) if k > 0 and w.lower() in ("the", "a", "an")), 0)
            if k:  # "what was X the manager of" → "X was the manager of A"
                return Statement(f"{_cap(' '.join(np_[:k]))} {be} {' '.join(np_[k:])} {low[-1]} {answer}.", "copula")
            return Statement(f"{_cap(' '.join(np_))} {be} {low[-1]} {answer}.", "copula")
        if rest and rest[0].lower() in ("the", "a", "an"):  # "what is the genre of X" → "The genre of X is A"
            subject = f"the {noun} of {' '.join(rest)}" if noun else " ".join(rest)
            return Statement(f"{_cap(subject)} {be} {answer}.", "copula")
        return Statement(f"{answer} {_agree(be, n)} {' '.join(rest)}.", "copula")
    if be in _MODALS:  # "which films can be described with X" → "A can be described with X"
        return Statement(f"{answer} {' '.join(words[i:])}.", "subject")
    if low[i] in _DO:  # "which films did X act in" → "X acted in A"
        return _do_support(rest, low[i], answer, "do")
    return Statement(f"{answer} {' '.join(words[i:])}.", "subject")  # "who directed X" → "A directed X"


def _in_situ(words: list[str], answer: str) -> Statement | None:
    """A wh-phrase inside the question takes the answer's place: "X appears in what films" → "X appears in A"."""
    low = [w.lower() for w in words]
    at = [k for k, w in enumerate(low) if w in ("which", "what", "who", "whom") and k > 0]
    if len(at) != 1:
        return None
    k = at[0]
    end = k + 2 if k + 1 < len(words) and low[k] != "who" and words[k + 1].islower() else k + 1
    return Statement(_cap(" ".join([*words[:k], answer, *words[end:]])) + ".", "in-situ")


def _be_where(rest: list[str], be: str, prep: str, answer: str) -> Statement | None:
    if len(rest) < 2:
        return None
    return Statement(f"{_cap(' '.join(rest[:-1]))} {be} {rest[-1]} {prep} {answer}.", "where-when")


def _is_verb(words: list[str], i: int) -> bool:
    tags = _tags(" ".join(words))
    return i < len(tags) and tags[i] in ("VBD", "VBZ", "VBP") and i > 0


#: Tags already computed, by text (:func:`prime_tags` fills it a batch at a time).
_TAGGED: dict[str, tuple[str, ...]] = {}
#: While :func:`prime_tags` reads questions: the texts their rules would tag (answered untagged).
_WANTED: set[str] | None = None


def _tags(text: str) -> tuple[str, ...]:
    """Penn tags per whitespace word (spaCy's tokens merged back onto the words)."""
    if text in _TAGGED:
        return _TAGGED[text]
    if _WANTED is not None:
        _WANTED.add(text)
        return ()
    return _tag_all([text])[0]


def _tag_all(texts: Sequence[str]) -> list[tuple[str, ...]]:
    out = []
    for text, doc in zip(texts, tagging_pipeline().pipe(list(texts), batch_size=256), strict=True):
        tags: list[str] = []
        for t in doc:
            if not tags or t.idx == 0 or text[t.idx - 1] == " ":
                tags.append(t.tag_)
        out.append(tuple(tags))
    if len(_TAGGED) > 200_000:
        _TAGGED.clear()
    _TAGGED.update(zip(texts, out, strict=True))
    return out


def prime_tags(questions: Iterable[str]) -> None:
    """Tag, in batches, every text :func:`declarative` would tag for these questions: one spaCy
    call a question was most of ``kgcite build caqa``'s time. The texts a rule tags depend on
    the tags before them, so the questions are read until they ask for no new text."""
    global _WANTED
    questions = list(dict.fromkeys(questions))
    for _ in range(5):
        _WANTED = set()
        try:
            for q in questions:
                declarative(q, ["x"])
        finally:
            wanted, _WANTED = sorted(_WANTED), None
        if not wanted:
            return
        _tag_all(wanted)


def _do_support(rest: list[str], do: str, tail: str, rule: str) -> Statement | None:
    """``S V X`` after do/does/did: the last base-form verb (tagged after the auxiliary, or else
    the last lower-case word before trailing prepositions) splits subject from predicate."""
    if len(rest) < 2:
        return None
    tags = _tags(" ".join([do, *rest]))[1:]
    verbs = [j for j, t in enumerate(tags) if t in ("VB", "VBP") and j > 0]
    if not verbs:
        j = len(rest) - 1
        while j > 0 and rest[j].lower() in PREPOSITIONS:
            j -= 1
        if j == 0 or not rest[j].islower():
            return None
        verbs = [j]
    j = verbs[-1]
    verb = rest[j].lower()
    inflected = _past_of(verb) if do == "did" else plural(verb) if do == "does" else verb
    predicate = " ".join([inflected, *rest[j + 1 :], tail])
    return Statement(f"{_cap(' '.join(rest[:j]))} {predicate}.", rule)


def declarative(question: str, answers: Sequence[str]) -> Statement:
    """The answer statement of a (possibly extended) question with its answers, by rules:
    "Given that F, Q?" → "Given that F, D."; "Q, among those whose R is V?" → "Among those whose R
    is V, D."; "Q? And for E?" → D of Q with E's answers joined in; a question no rule reads gets
    "The answer to “Q” is A."."""
    answer = join([speak(a) for a in answers]) if answers else "nothing"
    q = question.strip().rstrip("?").strip()
    prefix = suffix = ""
    if m := _GIVEN.match(q):
        prefix, q = f"Given that {m['fact']}, ", m["rest"]
    if m := _AND_FOR.match(q):
        q, suffix = m["rest"].rstrip("? "), f" (the question asked for {m['other'].rstrip('? ')} too)"
    if m := _AMONG.match(q):
        prefix, q = prefix + f"Among those {m['cond'].rstrip('? ')}, ", m["rest"]
    core = _core(q, answer, len(answers))
    if core is None:
        return Statement(_cap(f"{prefix}the answer to “{q}?” is {answer}{suffix}."), "fallback")
    text = core.text[:-1]  # the rule's own full stop; an answer may end in one ("What If...")
    if prefix:
        text = prefix + lower_first(text)
    return Statement(_cap(text) + suffix + ".", core.rule)


def phrase_triple(t: Triple, rng: random.Random) -> str:
    """:func:`phrase` for a :class:`Triple`, both names humanised."""
    return phrase(humanise(t.subject_label), t.relation, humanise(t.object_value), rng)
