"""What a question asks for: which relations, in which parts, or a summary.

An answer must state what was asked — every part of a two-part question, nothing padded — so
the relations are found before anything is retrieved, against the *whole* graph's relation
vocabulary (not only the one-hop around the entity): a relation the entity lacks is still
asked, and gets an ``[NA]`` sentence. A relation is asked when its words or a paraphrase from
the relation lexicon occur in the question ("born", "die", "wife", "directed"); the question
word narrows them (*when* → dates, *where* → places, *how* → causes); for a part no relation's
words match, an embedding match is the fallback when it is clear. "Who was X?", "Tell me about X" and questions naming no relation ask for a summary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import numpy as np

from kgcite.kg.keys import LABEL_PROPERTY, property_key
from kgcite.models.embed import Embedder
from kgcite.retrieve.reading import AskedPart, Reading
from kgcite.text import tutelage
from kgcite.text.forms import read_form
from kgcite.text.kinds import kind_match, may_answer, name_kind, says_the_same, wanted_kind
from kgcite.text.lexicon import (
    CONJUNCTIONS,
    COUNTING,
    PRONOUNS,
    QUESTION_WORDS,
    SHARING,
    STOP,
    AnswerKind,
    cue_positions,
    kind_positions,
    modifiers,
    name_stems,
    opening_kind,
    question_phrases,
    role_said,
    stem,
    stems,
    teacher_end,
    teaches_at,
    title_roles,
)
from kgcite.text.values import normalize

#: Question words for kinds of value, and the relation words that mark those kinds.
_KINDS: dict[str, tuple[str, ...]] = {  # what each question word wants (and, in _WRONG, does not)
    "when": ("date", "year", "time", "start", "end", "inception", "dissolved"),
    "where": (
        "place",
        "location",
        "country",
        "residence",
        "city",
        "burial",
        "located",
        "headquarters",
        "work location",
    ),
    "how": ("cause", "manner"),
}
#: Questions words that say which kind of value is wanted: the first that occurs in a part.
_WH = re.compile(r"\b(when|where|how|who|whom|what|which)\b", re.IGNORECASE)
_PARTS = re.compile(
    r"\?\s*|;\s*|,\s*and\s+|\s+and\s+(?=(?:when|where|how|who|whom|what|which|did|was|is|were|are|has|had)\b)",
    re.IGNORECASE,
)
_SUMMARY = re.compile(
    r"^\s*(?:tell\s+me\s+(?:about|more)|what\s+(?:do|does)\s+(?:you|the\s+graph)\s+know|describe\b|summari[sz]e\b)",
    re.IGNORECASE,
)
#: Words too general to ask for a relation on their own ("notable aspects of his life", "how did
#: his family background influence"): they count only as part of a relation's full name.
WEAK = frozenset(
    [
        "significant",
        "notable",
        "family",
        "influence",
        "influenced",
        "influences",
        "play",
        "played",
        "plays",
        "role",
        "roles",
        "work",
        "works",
        "known",
        "life",
        "career",
        "background",
        "music",
        "style",
        "held",
        "member",
        "branch",
        "field",
        "part",
        "home",
        "party",
        "post",
        "office",
        "position",
        "label",
        "team",
        "school",
        "condition",
        "death",
        "birth",
        "joined",
        "signed",
        "national",
        "native",
        "student",
        "won",
        "received",
        "award",
    ]
)
#: Never asked, never summarised: the label, and types every entity of a kind shares.
UNINFORMATIVE = frozenset(
    {
        LABEL_PROPERTY,
        "instance of",
        "sex or gender",
        "described by source",
        "topic's main category",
        "given name",
        "family name",
        "surname",
    }
)
#: Relations a summary prefers, in this order; others follow by name.
SUMMARY_ORDER = (
    "occupation",
    "date of birth",
    "place of birth",
    "date of death",
    "place of death",
    "notable works",
    "award received",
    "position held",
    "field of work",
    "member of political party",
    "spouse",
    "father",
    "mother",
    "directed by",
    "written by",
    "starred actors",
    "release year",
    "has genre",
    "in language",
)


_WEAK_STEMS = frozenset(stem(w) for w in WEAK)
#: Words that ask nothing by themselves: a part made only of these (and names) asks for a summary.
_NOT_CONTENT = (
    STOP
    | QUESTION_WORDS
    | frozenset(
        [
            "tell",
            "me",
            "about",
            "describe",
            "summarise",
            "summarize",
            "know",
            "you",
            "some",
            "anything",
            "something",
            "more",
            "please",
            "give",
            "can",
            "could",
            "would",
        ]
    )
)


_SUBJECT_WH = re.compile(r"^\s*(?:who|which|what)\b", re.IGNORECASE)
_AUX_START = re.compile(r"^\s*(?:did|was|is|were|are|has|had)\b", re.IGNORECASE)


def split_parts(question: str) -> list[str]:
    """ "When was X born and where did he die?" → ["When was X born", "where did he die"]; a
    second verb of the asked subject is one more condition, not a part: "Who plays for X and
    was born in Y?" asks one set of people."""
    out: list[str] = []
    for p in (p.strip(" ,.") for p in _PARTS.split(question) if p and p.strip(" ,.")):
        second = p.split()[1].lower() if len(p.split()) > 1 else ""
        if out and _AUX_START.match(p) and _SUBJECT_WH.match(out[-1]) and second not in PRONOUNS:
            out[-1] = f"{out[-1]} and {p}"
        else:
            out.append(p)
    return out


def _split_keeping(question: str, names: Sequence[str]) -> list[str]:
    """:func:`split_parts`, never inside an entity's name ("Was What! No Beer? directed by …")."""
    kept = {
        f"ENTITY{i}X": n
        for i, n in enumerate(sorted({n for n in names if n and _PARTS.search(n)}, key=len, reverse=True))
    }
    for token, name in kept.items():
        question = question.replace(name, token)
    parts = split_parts(question)
    for token, name in kept.items():
        parts = [p.replace(token, name) for p in parts]
    return parts


class QuestionAnalyzer:
    """Finds asked relations against a graph's relation vocabulary; built once per graph."""

    def __init__(
        self,
        relations: Iterable[str],
        *,
        embedder: Callable[[], Embedder] | None = None,
        min_similarity: float = 0.5,
        min_margin: float = 0.08,
    ) -> None:
        self.relations = sorted({r for r in relations if property_key(r) not in UNINFORMATIVE})
        self._names = {r: name_stems(r) for r in self.relations}
        self._cues = {
            r: frozenset(
                c
                for c in {stems(q) for q in question_phrases(r)}
                if c and not (len(c) == 1 and c[0] in _WEAK_STEMS and not teacher_end(r))  # "students" of X's
            )
            for r in self.relations
        }
        self._embedder_factory, self.min_similarity, self.min_margin = embedder, min_similarity, min_margin
        self._embedder: Embedder | None = None
        self._label_vecs: np.ndarray | None = None

    def analyse(self, question: str, names: Sequence[str] = ()) -> Reading:
        """``names``: entity mentions, whose words are not read as relation cues."""
        masked = {w for n in names for w in normalize(n).split()}
        parts, bare = [], False
        for text in _split_keeping(question, names) or [question]:
            wh_match = _WH.search(text)
            wh = wh_match.group(1).lower() if wh_match else None
            kind = wanted_kind(text)
            groups, unexplained, from_topic = self._read(text, wh, masked, kind, names)
            content = [w for w in normalize(text).split() if w not in masked and w not in _NOT_CONTENT]
            bare = bare or not content  # "Who was Stephen Crane": a summary is asked
            parts.append(
                AskedPart(
                    text,
                    groups,
                    wh,
                    open=bool(content) and not groups and bool(masked),
                    kind=kind,
                    rest=unexplained,
                    from_topic=from_topic,
                )
            )
        summary = bare or bool(_SUMMARY.match(question.strip())) or not any(p.groups or p.open for p in parts)
        if self._embedder_factory is not None:  # an open part may still name a relation in other words
            parts = [self._embedded(p, masked) if p.open else p for p in parts]
        form = read_form(question, names)
        if form.kind == "count":  # "How many employees …?" counts members unless a number is named ("page count")
            parts = [
                p if any(name_kind(r) == "quantity" for r in p.relations) else replace(p, kind="any") for p in parts
            ]
        if form.order is not None:  # "Who was born first?" compares dates: it asks a birth date
            wants: AnswerKind = "date" if form.order.kind == "date" else "quantity"
            parts = [
                replace(p, kind=wants, groups=self._relations(p.text, p.wh, masked, wants))
                if p.kind in ("any", "agent")
                else p
                for p in parts
            ]
        summary = summary and form.kind == "lookup"  # "Which is older, A or B?" names no relation and wants no summary
        return Reading(question, tuple(parts), summary, form)

    def _relations(
        self, text: str, wh: str | None, masked: set[str], kind: AnswerKind = "any"
    ) -> tuple[tuple[str, ...], ...]:
        return self._read(text, wh, masked, kind)[0]

    def _read(
        self, text: str, wh: str | None, masked: set[str], kind: AnswerKind = "any", names: Sequence[str] = ()
    ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[bool, ...]]:
        """The part's asked relations, grouped by the words that name them, in walking order
        (:func:`walking_order`), the content words no relation explains, and which groups are
        asked of the topic."""
        said = normalize(text).split()
        words = [w for w in said if w not in masked]
        named = [normalize(n).split() for n in names]  # where a name is said whole: "the" alone is no topic
        topic_at = sorted(
            {
                sum(w not in masked for w in said[:i])
                for i in range(len(said))
                for n in named
                if n and said[i : i + len(n)] == n
            }
        )
        word_stems = [stem(w) for w in words]
        # "how did these influence his work" asks for an explanation, not for "influenced by";
        # "how many musicians play in X" counts, and "play" names `plays in` there
        explain = wh == "why" or (wh == "how" and not (len(words) > 1 and words[1] in COUNTING))
        whole = {r: _all_of(word_stems, self._names[r], weak_ok=not explain) for r in self.relations}
        said_whole = frozenset().union(*whole.values()) if whole else frozenset()
        if (opening := opening_kind(words)) is not None:  # "Which *winemakers* …": the answer's kind
            said_whole |= {opening}
        found = {
            r: pos
            for r in self.relations
            if (
                pos := cue_positions(word_stems, self._cues[r])
                | whole[r]
                | kind_match(words, r, kind)
                | _head_of(word_stems, r, said_whole)
            )
        }
        # "Which *hospital* does X's doctor work in?", "Who leads the *hospital* where X works?": the
        # role `hospital in` starts from, said without its "in", is a hospital, not where one is
        found = {
            r: p
            for r, p in found.items()
            if not (all(word_stems[i] in modifiers(r) for i in p) and not any(role_said(r, words, i) for i in p))
            or teacher_end(r)  # "X's *students*" asks `student of` from the teacher's side
        }
        found = {r: p for r, p in found.items() if may_answer(r, kind)}  # "Who founded X?": not `year founded`
        # "X's *mentor*" in a graph with `mentored_by` and `trainedBy` is the one the word names
        own = {r: p for r, p in found.items() if teacher_end(r) and p & _all_of(word_stems, self._names[r])}
        found = {
            r: p for r, p in found.items() if r in own or not (teacher_end(r) and any(p <= q for q in own.values()))
        }
        # "Where does X teach?" asks where X `teaches at`; "Whom did X teach?" whom X taught
        place = kind == "place" or tutelage.asks_place(words)
        at, bond = [p for r, p in found.items() if teaches_at(r)], [p for r, p in found.items() if teacher_end(r)]
        rival, dropped = (at, teacher_end) if place else (bond, teaches_at)
        found = {r: p for r, p in found.items() if not (dropped(r) and any(p <= q for q in rival))}
        # "When was X founded?" names `founded by` and `year founded`: the kind asked picks the date
        # (only where both name the same words: "When was the founder of X born?" walks `founded by`)
        of_kind = {r: p for r, p in found.items() if kind != "any" and name_kind(r) == kind}
        # "In what year was X built?" says `built year` whole, and `rescue.year` only in part
        of_kind = {r: p for r, p in of_kind.items() if not any(p < q for q in of_kind.values())}
        if len({frozenset(p) for p in of_kind.values()}) > 1:
            # two places ask the kind ("When was the person who *founded* X *born*?"): one is a hop
            # on the way, so where another relation is named by the same words, it is that one
            hop = {r: p for r, p in found.items() if r not in of_kind}
            of_kind = {r: p for r, p in of_kind.items() if not any(p & q for q in hop.values())} or of_kind
        # … and a name that asks the same place without saying it is kept with it: a graph holding
        # `birthPlace` and `born in` answers "Where was X born?" from either (a date or a number is
        # never the value of a name that does not say so: `discovered` holds no year)
        same = {
            r: p
            for r, p in found.items()
            if kind == "place" and any(p & q and says_the_same(k, r) for k, q in of_kind.items())
        }
        taken = frozenset().union(*of_kind.values()) if of_kind else frozenset()
        found = {r: p for r, p in found.items() if r in of_kind or r in same or not p & taken}
        if len(found) > 1 and wh in _KINDS:
            other = [k for w, ks in _KINDS.items() if w != wh and w != "how" for k in ks]
            found = {r: p for r, p in found.items() if not any(k in property_key(r) for k in other)} or found
            by_name = {r: p for r, p in found.items() if any(k in property_key(r) for k in _KINDS[wh])}
            near = frozenset().union(*by_name.values()) if by_name else frozenset()
            found = {r: p for r, p in found.items() if r in by_name or r in same or not p & near}
        elif len(found) > 1 and wh in ("who", "whom"):
            kinds = (*_KINDS["when"], *_KINDS["where"], *_KINDS["how"])
            people = {r: p for r, p in found.items() if not any(k in property_key(r) for k in kinds)}
            found = people or found
        # "doctoral advisor" asks for that, not for every relation that shares the word "doctoral"
        found = {r: p for r, p in found.items() if not any(p < q for q in found.values())}
        groups: dict[frozenset[int], list[str]] = {}
        for r, p in sorted(found.items(), key=lambda rp: (min(rp[1]), -len(rp[1]))):
            groups.setdefault(frozenset(p), []).append(r)
        covered = frozenset().union(*found.values()) if found else frozenset()
        # "Which *town* is X twinned with?", "In which *city* is …": the kind of answer, not a relation
        if (kind_at := opening_kind(words)) is not None and words[kind_at] not in SHARING:
            covered |= {kind_at}
        rest = tuple(w for i, w in enumerate(words) if i not in covered and w not in _NOT_CONTENT)
        spans = list(groups)
        order = walking_order(spans, topic_at, words)
        return tuple(tuple(groups[spans[k]]) for k, _ in order), rest, tuple(t for _, t in order)

    def _embedded(self, part: AskedPart, masked: set[str]) -> AskedPart:
        """The relation whose name is closest to the part's words (MiniLM), if clearly closest:
        similarity >= ``min_similarity`` and ahead of the next by ``min_margin``."""
        if not self.relations or self._embedder_factory is None:
            return part
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        if self._label_vecs is None:
            self._label_vecs = self._embedder.encode([property_key(r) for r in self.relations])
        text = " ".join(w for w in normalize(part.text).split() if w not in masked)
        sims = self._label_vecs @ self._embedder.encode([text])[0]
        # "Who founded X?" is never `year founded`, however alike
        sims = np.where([may_answer(r, part.kind) for r in self.relations], sims, -1.0)
        order = np.argsort(-sims)
        best, second = float(sims[order[0]]), float(sims[order[1]]) if len(order) > 1 else -1.0
        if best < self.min_similarity or best - second < self.min_margin:
            return part
        said = normalize(part.text).split()
        relation = self.relations[int(order[0])]
        if any(stem(said[i]) in modifiers(relation) for i in kind_positions(said)):
            return part  # "What *label* put out X's artists?" asks for a label, not its headquarters
        return replace(part, groups=((relation,),), open=False, guessed=True)


def walking_order(
    spans: Sequence[frozenset[int]], topic_at: Sequence[int], words: Sequence[str]
) -> list[tuple[int, bool]]:
    """The groups' walking order (indexes into ``spans``, which are in the question's order) and,
    for each, whether it is asked of the topic. Groups joined by "and"/"or" or by the topic named
    again are each asked of the topic ("the employer and the spouse of X", "Where
    was X born, where did X die"); otherwise one walks on from the one before: those said before
    the topic nearest it first ("the phone number *of* the founder of X": the founder, then her
    phone number), then those said after it in their order ("Where was the author of X *born*?",
    "X's father's birthplace"). ``topic_at``: where the topic stands among ``words``, each time
    it is named (none: no topic in the part, the question's order)."""
    if not topic_at or len(spans) < 2:
        return [(k, True) for k in range(len(spans))]
    runs: list[list[int]] = []
    for k, span in enumerate(spans):
        last = max(spans[runs[-1][-1]]) if runs else -1
        between = set(words[last + 1 : min(span)])
        again = runs and any(t <= min(spans[runs[-1][0]]) for t in topic_at)  # the run has had its topic
        if runs and not between & CONJUNCTIONS and not (again and any(last < t <= min(span) for t in topic_at)):
            runs[-1].append(k)
        else:
            runs.append([k])
    out: list[tuple[int, bool]] = []
    for run in runs:
        at = next((t for t in topic_at if t > min(spans[run[0]])), None)
        before = [k for k in run if at is not None and min(spans[k]) < at]
        walk = before[::-1] + [k for k in run if k not in before]
        out += [(k, i == 0) for i, k in enumerate(walk)]
    return out


def _head_of(word_stems: list[str], relation: str, taken: frozenset[int]) -> frozenset[int]:
    """Where the question says the role of a leader's title alone ("Who *coaches* X?", "X's
    *coach*" for ``headCoach``, "the *keeper* of X" for ``head keeper``), except at ``taken``
    positions: where another relation's whole name is said ("X's *coach*" asks ``coach`` in a
    graph holding both) or the answer's kind ("Which *winemakers* learned from X?" asks no
    ``head winemaker``). The path scorer's reading counts the head named there too; the two
    readers must agree on what is asked."""
    roles = title_roles(relation)
    return frozenset(i for i, w in enumerate(word_stems) if w in roles and i not in taken)


def _all_of(word_stems: list[str], name: tuple[str, ...], *, weak_ok: bool = True) -> frozenset[int]:
    if not name or not all(n in word_stems for n in name) or (not weak_ok and all(n in _WEAK_STEMS for n in name)):
        return frozenset()
    return frozenset(i for i, w in enumerate(word_stems) if w in name)


def summary_relations(relations: Iterable[str], k: int = 5) -> list[str]:
    """The most informative relations of an entity, at most ``k``: a summary's bounded set."""
    keyed = {property_key(r): r for r in relations if property_key(r) not in UNINFORMATIVE}
    ordered = [keyed[r] for r in SUMMARY_ORDER if r in keyed]
    ordered += sorted(r for key, r in keyed.items() if key not in SUMMARY_ORDER)
    return ordered[:k]
