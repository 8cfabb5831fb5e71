"""Which words state a relation: the relation lexicon the judge reads sentences with.

A property is stated by a lemma of its own content words ("directed" for ``directed_by``,
"religion" for ``religion``) or by a paraphrase people use for it ("born" for *place of birth*,
"wife" for *spouse*, "stars" for *starred actors*). kgcite ships paraphrases for common
Wikidata and film properties; any other graph's relations get their own words, so the lexicon
extends to a graph by its relation names alone (:meth:`Lexicon.extended`).

Words are compared by a small suffix stemmer: "realist", "realism" → "real"; "directed",
"director" → "direct". It is deliberately crude and symmetric: both sides are stemmed alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from itertools import dropwhile, takewhile
from typing import Literal

from kgcite.kg.keys import property_key, relation_words
from kgcite.text.values import normalize

#: Function words: never a cue, skipped when asking what stands between two words.
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "or",
        "and",
        "by",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "with",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "its",
        "it",
        "his",
        "her",
        "their",
        "this",
        "that",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "whose",
        "also",
        "both",
        "then",
        "than",
        "s",
    ]
)
#: Words that ask rather than name: never a relation word of a question.
QUESTION_WORDS = frozenset(
    ["what", "when", "where", "why", "how", "which", "who", "whom", "whose", "do", "does", "did"]
)
#: Personal pronouns: a pronoun names no entity, and in a sentence it may stand for the subject.
PRONOUNS = frozenset(["he", "she", "his", "her", "him", "hers", "they", "their", "them", "it", "its"])
ARTICLES = frozenset(["the", "a", "an"])
PREPOSITIONS = frozenset(["in", "on", "at", "by", "for", "with", "from", "of", "about", "under", "into", "as", "to"])
#: Words that frame a question rather than name what it asks ("can you tell me", "I would like to know").
FRAMING = frozenset(
    ["can", "could", "would", "will", "please", "tell", "give", "know", "like", "say", "show", "find", "me", "you", "i"]
)
#: Words that stand for an entity and say nothing of how it relates ("whatever lists X as
#: spouse", "anything having a mother in common with X"): no hop is left to them.
PLACEHOLDERS = frozenset(
    ["whatever", "anything", "something", "anyone", "someone", "entity", "entities", "thing", "things", "person"]
)
#: Auxiliaries before a subject that does the verb after it ("whom *does* X coach", "what *did* X
#: design"): the topic there is the verb's doer.
DOER_AUXILIARIES = frozenset(["do", "does", "did", "has", "have", "had", "will", "would", "can", "could"])
#: The verb "be": before a subject and a participle it makes the passive ("Where *was* X trained?").
BE = frozenset(["is", "was", "are", "were", "be", "been", "being"])
#: Words before the noun a question counts or measures ("how many theatres", "how much honey").
COUNTING = frozenset(["many", "much"])
#: Words of property names that say nothing about the relation on their own.
GENERIC = frozenset(["date", "place", "has", "number", "type", "main", "value", "name", "point", "time"])
#: Heads of a name that say a thing's identifier (``ROUTE_NUMBER``, ``accession.code``): the word
#: before names the thing that has it, as "label" does for ``labelHeadquarters``.
ID_HEADS = frozenset(["number", "code", "id", "no", "ref", "reference"])

_INFLECTIONS = ("ing", "ed", "es", "ly", "s")
_DERIVATIONS = ("ically", "ations", "ation", "istic", "ism", "ist", "ic", "al", "er", "or")


def _strip(word: str, suffixes: tuple[str, ...]) -> str:
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


#: Short or irregular forms the suffix rules cannot reach.
_IRREGULAR = {
    "died": "die",
    "dies": "die",
    "dying": "die",
    "wrote": "writ",
    "written": "writ",
    "writes": "writ",
    "write": "writ",
    # "ment" would end "department", "instrument", "tournament"; "tut" begins "tutti"
    **dict.fromkeys(["mentor", "mentors", "mentored", "mentoring"], "mentor"),
    **dict.fromkeys(["mentee", "mentees"], "mentee"),
    **dict.fromkeys(["tutor", "tutors", "tutored", "tutoring"], "tutor"),
}


def stem(word: str) -> str:
    """A crude stem, the one every reader of questions and relation names uses: an inflection,
    then a derivation stripped; a final consonant-``y`` read as ``i``; a final ``e`` and a doubled
    consonant dropped."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.isdigit():
        return word
    if len(word) == 4 and word.endswith("y") and word[-2] not in "aeiou":  # "city" as "cities"
        return word[:-1] + "i"
    if len(word) <= 4:  # "pass" as "passed" ends: one stem for both
        return word[:-1] if len(word) == 4 and word[-1] == word[-2] and word[-1] not in "aeiou" else word
    word = _strip(_strip(word, _INFLECTIONS), _DERIVATIONS)
    if word.endswith("y") and word[-2] not in "aeiou":  # "marry" as "married", "company" as "companies"
        word = word[:-1] + "i"
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def stems(text: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in normalize(text).split())


#: Paraphrases by canonical property name (kg.keys.property_key). Words, or phrases of words.
LEXICON: dict[str, tuple[str, ...]] = {
    "place of birth": ("born", "birthplace", "native"),
    "date of birth": ("born", "birthday"),
    "place of death": ("die", "died", "dies", "death", "passed away"),
    "date of death": ("die", "died", "dies", "death", "passed away"),
    "cause of death": ("die", "died", "dies", "death", "due to"),
    "manner of death": ("die", "died", "death"),
    "place of burial": ("buried", "burial", "grave", "laid to rest"),
    "medical condition": ("suffered", "suffering", "diagnosed", "illness", "disease", "condition", "due to"),
    "sex or gender": ("male", "female", "man", "woman", "sex", "gender"),
    "country of citizenship": ("citizen", "citizenship", "national", "nationality"),
    "spouse": ("wife", "husband", "married", "spouse", "wed"),
    "child": ("son", "daughter", "child", "children", "father of", "mother of", "parent of"),
    "father": ("father", "dad", "son of", "daughter of", "child of"),
    "mother": ("mother", "mom", "son of", "daughter of", "child of", "born to"),
    "sibling": ("brother", "sister", "sibling"),
    "occupation": ("worked as", "profession", "occupation", "career", "job"),
    "alma mater": ("attended", "studied", "graduated", "educated", "alumnus", "student"),
    "educated at": ("attended", "studied", "graduated", "educated", "alumnus", "student"),
    "employer": ("worked for", "employed", "employer", "joined", "staff"),
    "notable works": ("wrote", "written", "author", "works", "known for", "created"),
    "award received": ("won", "awarded", "received", "award", "prize", "honoured", "honored", "recipient"),
    "nominated for": ("nominated", "nomination", "nominee"),
    "member of sports team": ("played for", "plays for", "team", "member", "joined", "signed"),
    "member of": ("member", "belonged", "belongs", "joined"),
    "member of political party": ("member", "party", "belonged", "joined"),
    "religion": ("religion", "religious", "faith", "practised", "practiced", "believer"),
    "movement": ("movement", "school", "part of"),
    "languages spoken": ("spoke", "speaks", "spoken", "language", "fluent"),
    "native language": ("native language", "mother tongue", "grew up speaking"),
    "residence": ("lived", "lives", "resided", "resides", "home"),
    "work location": ("worked in", "works in", "based in"),
    "position held": ("served as", "position", "office", "post", "held"),
    "doctoral advisor": ("advisor", "adviser", "supervisor", "supervised", "doctorate under", "phd under"),
    "doctoral student": ("supervised", "doctoral student"),
    "student of": ("studied under", "student of", "learned from", "pupil", "teacher", "taught by", "study under"),
    "inception": ("founded", "established", "formed", "started", "created"),
    "influenced by": ("influenced", "influence", "inspired"),
    "genre": ("genre", "style", "music"),
    "instrument": ("plays", "played", "instrument"),
    "record label": ("label", "signed", "recorded for"),
    "field of work": ("field", "worked in", "specialised", "specialized", "research"),
    "conflict": ("fought", "served in", "war", "battle"),
    "military branch": ("served in", "branch"),
    "participated in": ("took part", "participated", "competed"),
    # film graphs (MetaQA and the like)
    "directed by": ("directed", "director", "directs", "helmed"),
    "written by": ("written", "wrote", "writer", "screenplay", "script", "penned", "writes"),
    "starred actors": ("stars", "starring", "starred", "actor", "actress", "cast", "appears", "featuring"),
    "release year": ("released", "release", "came out", "premiered"),
    "in language": ("language", "spoken"),
    "has genre": ("genre",),
    "has tags": ("tagged", "tags", "tag", "about", "describe", "described", "describing", "terms", "words", "keywords"),
    "has imdb rating": ("rating", "rated", "imdb"),
    "has imdb votes": ("votes", "imdb"),
}


AnswerKind = Literal["date", "quantity", "place", "agent", "any"]

#: Words of a relation's name that say the kind of its values, not what it is about.
KIND_WORDS: dict[AnswerKind, frozenset[str]] = {
    "date": frozenset(["date", "year", "time", "day", "dob", "when"]),
    "quantity": frozenset(["count", "number", "num", "amount", "total", "no"]),
    "place": frozenset(["city", "place", "location", "country", "town", "site", "region", "where"]),
}
#: Nouns of a measure: "What is the *population* of X?" wants a number, so a relation whose
#: values are not numbers (X's county) is no answer however alike a model reads the two. Only
#: measures a graph gives as numbers ("size" and "age" are not: "large", a birth date).
MEASURE_NOUNS = frozenset(
    ["population", "area", "height", "elevation", "altitude", "length", "depth", "width", "weight", "mass", "capacity"]
)
#: Every kind word: what is left of a relation's name without them is what it is about.
KIND_MARKS = frozenset().union(*KIND_WORDS.values())
#: Units of time a duration's name may end in (``runtime_minutes``): what it is about is the
#: rest. (Lengths stay: ``length_m`` and ``route.length_km`` in one graph are a boat's and a
#: route's, and "long" would name both.)
UNITS = frozenset(["minutes", "mins", "hours", "seconds"])

#: How an event noun of a date's name is said of its subject: ``birth date`` → "X was born on …".
EVENT_VERBS: dict[str, str] = {
    "birth": "was born",
    "death": "died",
    "publication": "was published",
    "release": "was released",
    "founding": "was founded",
    "foundation": "was founded",
    "opening": "opened",
    "closing": "closed",
    "closure": "closed",
    "discovery": "was discovered",
    "construction": "was built",
    "completion": "was completed",
    "establishment": "was established",
    "inception": "was founded",
}

#: Past forms without "-ed" that name a relation by what its subject did ("Adela Korrin
#: *taught* Mira Voss").
IRREGULAR_PAST = frozenset(
    ["taught", "wrote", "built", "made", "led", "won", "sold", "held", "ran", "bought", "gave", "drew", "sang", "began"]
)
#: Verbs both ends of a relation do alike ("A married B" is "B married A"): no side to read.
SYMMETRIC = frozenset(["married", "met", "dated", "divorced", "fought", "played", "knew", "befriended", "partnered"])
#: Words saying that the answer shares a value with the topic ("films that share directors
#: with X"): the named relation is walked there and back.
SHARING = frozenset(["share", "shares", "shared", "same", "also", "other", "else", "co", "common", "together"])
#: The verb of sharing ("Which researchers *share* a department with X?").
SHARE_VERBS = frozenset(["share", "shares", "shared"])
#: Words that join two things asked of one topic ("the employer *and* the spouse of X"), where
#: without them the second is asked of the first ("the spouse of the employer of X").
CONJUNCTIONS = frozenset(["and", "or"])
#: Words of a relation that places a thing in a larger place (``located in``, ``station.town``,
#: ``in_region``): what is in a town is in the town's county, so "Which county is X in?" may
#: walk through them.
LOCATING = frozenset(
    ["located", "location", "situated", "based", "headquartered", "lies", "in", "within", "town", "city", "village"]
    + ["county", "region", "province", "district", "state", "country", "nation", "area", "site", "part", "of"]
)
#: Ranks of place from small to large (equal: one size): a place that lies in a county is no
#: county, and no region either.
RANK_ORDER = {
    "village": 0,
    "town": 1,
    "city": 1,
    "district": 2,
    "county": 3,
    "region": 4,
    "province": 4,
    "state": 4,
    "country": 5,
}
#: Rank words that say one rank ("What *nation* is X's home city in?" asks ``country``).
SAME_RANK = {"nation": "country"}
#: Ranks of place a question may ask for ("Which *county* is X in?"), as relation names say
#: them (``county``, ``town.region``, ``IN_COUNTRY``): a relation that names another rank reaches
#: no answer to it (:mod:`~kgcite.text.places`).
PLACE_RANKS = frozenset([*RANK_ORDER, *SAME_RANK])
#: Ranks nothing else is inside of: "Which country is X in?" is answered where the climb ends.
TOP_RANKS = frozenset(["country", "nation"])
#: Ranks asked loosely: "What town …" is answered by a city, or by a place that lies in a region.
SETTLEMENTS = frozenset(["village", "town", "city"])
#: Words of a relation's name that say it reaches a place (``birthplace``, ``home base``,
#: ``venue``), besides a last "at", "in" or "from" (``grown at``): the place a rank is asked of.
PLACING = PLACE_RANKS | frozenset(
    ["place", "birthplace", "home", "hometown", "base", "based", "site", "venue", "location", "located"]
    + ["situated", "address", "seat", "origin", "headquarters", "headquartered", "hq", "area", "lies"]
)
#: Nouns for people who share something with the topic ("X's *team-mates*", "X's *colleagues*"):
#: the answer is reached by going out along a relation and back along it.
PEERS = frozenset(["mates", "colleague", "colleagues", "coworkers", "peers", "teammates", "classmates", "bandmates"])
#: What a peer noun says the topic shares with its peers, in words a relation's name may hold:
#: "X's *classmates*" share the school X is ``enrolledAt``, not the doctor X is a ``patient of``.
_SCHOOLING = ("school", "class", "enrolled", "enrolment", "attends", "attended", "pupil", "student", "studies")
_WORKING = ("works", "work", "worked", "employer", "employed", "staff", "job", "department")
PEER_SHARES: dict[str, tuple[str, ...]] = {
    "classmates": _SCHOOLING,
    "teammates": ("team", "club", "squad", "plays", "played"),
    "bandmates": ("band", "group", "member"),
    **dict.fromkeys(["colleague", "colleagues", "coworkers"], _WORKING),
}
#: Past tenses a question's verb after "did" may need ("Where did X *study*?" → "where X studied").
PAST_OF = {
    "become": "became", "begin": "began", "build": "built", "buy": "bought", "come": "came", "do": "did",
    "draw": "drew", "eat": "ate", "fight": "fought", "find": "found", "fly": "flew", "get": "got",
    "give": "gave", "go": "went", "grow": "grew", "have": "had", "hold": "held", "keep": "kept",
    "know": "knew", "lead": "led", "leave": "left", "lose": "lost", "make": "made", "meet": "met",
    "pay": "paid", "ride": "rode", "run": "ran", "say": "said", "see": "saw", "sell": "sold",
    "send": "sent", "sing": "sang", "sit": "sat", "speak": "spoke", "spend": "spent", "take": "took",
    "teach": "taught", "tell": "told", "think": "thought", "wear": "wore", "win": "won", "write": "wrote",
}  # fmt: skip
#: Past participles without "-ed"/"-en" ("Where was the founder of X *born*?").
PARTICIPLES = (
    IRREGULAR_PAST
    | frozenset(PAST_OF.values())
    | frozenset(["born", "found", "set", "shot", "run", "hit", "seen", "known", "shown", "drawn", "grown", "flown"])
)


def participle(word: str) -> bool:
    """A past participle a passive question ends on ("born", "founded", "written", "built")."""
    return (len(word) > 4 and word.endswith(("ed", "en"))) or word in PARTICIPLES


#: Events that begin something, and those that end it: the date of one never says when the other
#: happened ("When did X die?" is not answered by X's birth year, nor "When did the circus go
#: bankrupt?" by its founding year), though a model reads both as "a date of X".
BEGINNINGS = frozenset(
    ["born", "birth", "founded", "founding", "established", "open", "opened", "opening", "started", "start", "began",
     "begin", "joined", "built", "created", "creation", "inception", "launched", "launch", "formed", "debut"]
)  # fmt: skip
ENDINGS = frozenset(
    ["die", "died", "death", "dead", "closed", "closing", "close", "bankrupt", "dissolved", "dissolution", "ended",
     "end", "retired", "retire", "retirement", "left", "leave", "demolished", "abolished", "collapsed", "sank",
     "scrapped", "disbanded", "defunct", "folded", "shut"]
)  # fmt: skip


def contrary(asked: Iterable[str], named: Iterable[str]) -> bool:
    """Whether the words asked say an event of one end (a beginning, an ending) and a relation's
    words the other ("when did X *die*" against ``birth year``)."""
    a, n = set(asked), set(named)
    return bool(
        (a & BEGINNINGS and n & ENDINGS and not a & ENDINGS) or (a & ENDINGS and n & BEGINNINGS and not a & BEGINNINGS)
    )


@cache
def _claims() -> dict[str, frozenset[str]]:
    """Each one-word paraphrase's stem → the shipped relations it asks."""
    out: dict[str, set[str]] = {}
    for key, said in LEXICON.items():
        for p in (*said, *QUESTION_CUES.get(key, ()), key):
            if " " not in p:
                out.setdefault(stem(p), set()).add(key)
    return {k: frozenset(v) for k, v in out.items()}


def claimed(word_stems: Iterable[str], named: Iterable[str] = ()) -> frozenset[str]:
    """The stems among ``word_stems`` that the shipped lexicon says ask a relation of its own
    ("married" asks a ``spouse``) that none of the ``named`` stems (a relation's words) asks too
    ("established" and "founded" both ask ``inception``): a relation no word of theirs names is
    not what they ask, however alike a model reads the two ("Whom is the founder of X married
    to?" is never her birthplace)."""
    claims = _claims()
    near = frozenset().union(*(claims.get(n, frozenset()) for n in named))
    return frozenset(w for w in word_stems if w in claims and not claims[w] & near)


#: The person a "… by" relation names: "Who is the founder of X?" asks X's ``founded by``.
AGENT_FORMS: dict[str, tuple[str, ...]] = {
    "founded": ("founder", "founders"),
    "written": ("author", "authors", "writer"),
    "edited": ("editor", "editors"),
    "directed": ("director",),
    "designed": ("designer", "architect"),
    "built": ("builder", "maker"),
    "owned": ("owner", "owners"),
    "discovered": ("discoverer",),
    "performed": ("performer", "performers", "artist", "artists"),
}
#: Words of a name for the one in charge of its subject (``chief physician``, ``headTeacher``,
#: ``mission_commander``), and the words people ask for that one with: "Who *leads* the hospital
#: where X works?", "Who is X's *boss*?", "Who is *in charge of* the cellar at X?".
LEADERS = frozenset(
    ["chief", "head", "director", "chair", "chairman", "chairwoman", "chairperson", "chaired", "leader", "led",
     "president", "principal", "captain", "commander", "manager", "boss", "ceo", "executive", "headteacher",
     "headmaster", "headmistress", "superintendent", "dean", "rector", "mayor", "warden", "coordinator",
     "organiser", "organizer", "administrator", "overseer", "convenor"]
)  # fmt: skip
#: ("heads" is left out: a word beginning another one names it, and "*head*quartered" asks no leader)
_LEADER_STEMS = frozenset(stem(w) for w in LEADERS)  # a title's first word (``head coach``)
LEADING = ("lead", "leads", "led", "leader", "runs", "ran", "boss", "charge", "chairs", "chaired", "manages", "managed")
#: The words people ask with for the head word of a name (its last content word; or a first
#: "chief"/"head": ``chief physician``; not ``captain hometown``).
HEAD_FORMS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(LEADERS, LEADING),
    "operator": ("runs", "ran"),  # "Which company runs the line?" asks its ``line operator``
    "operated": ("runs", "ran"),
    "managed": ("runs", "ran", "charge", "boss"),  # "Who runs X?" asks whom it is `managed by`
    # "What field is X trained in?", "Which subject is X an expert in?": her ``medical speciality``
    **dict.fromkeys(["speciality", "specialty", "specialises", "specializes"], ("field", "expert", "expertise")),
}
#: The words people ask with for a word of a relation's name: "When was X born?" asks its
#: birth date, "Where is X based?" its city of HQ. Keys are a name's words, values question words.
WORD_FORMS: dict[str, tuple[str, ...]] = {
    "birth": ("born",),
    "taught": ("teach", "teaches", "teaching"),
    "death": ("died", "die", "dies"),
    "publication": ("published", "publish", "came out", "come out", "released", "appeared"),
    "release": ("released", "came out", "come out"),
    "hq": ("based", "headquarters", "headquartered"),
    "headquarters": ("based", "headquartered", "hq"),
    "founded": ("started", "established", "set up", "formed", "created"),
    "established": ("founded", "started", "set up", "formed", "created"),
    "headquartered": ("based", "headquarters", "hq"),
    "discovery": ("discovered", "spotted", "found"),
    "discovered": ("spotted", "found"),
    "born": ("birthplace", "come from", "comes from", "came from", "hometown"),
    "founding": ("founded", "started", "established", "set up", "formed"),
    "opened": ("open", "opening"),
    "run": ("runs", "ran"),
    "presented": ("hosts", "host", "hosted", "presents"),  # a show's host is who presents it
    "presenter": ("host", "hosts", "hosted"),
    "runtime": ("running", "lasts", "last"),  # "the running time of X": its ``runtime``
    "performed": ("played",),
    "grown": ("grow", "grows", "produce", "produces", "produced"),
    "playwright": ("writer", "writers", "wrote", "write", "written"),
    "composer": ("wrote", "write", "writes", "written", "composed", "compose", "composes"),  # a piece's
    "composed": ("wrote", "write", "written"),
    "page": ("pages", "long"),
    "pages": ("long",),
    "written": ("wrote",),
    "donated": ("gave", "given", "give", "gift", "donor"),
    "organised": ("put together", "arranged", "organized", "staged"),
    "organized": ("put together", "arranged", "organised", "staged"),
    "made": ("created", "creator"),  # "Who created X?" asks what X was ``madeBy``
    "editor": ("edited", "edits"),
    "member": ("belong", "belongs", "belonged", "part of", "members"),
    "graduated": ("study", "studied", "studies", "educated", "alumni", "alumnus"),  # ``graduatedFrom``
    "practises": ("works", "work", "worked"),  # a doctor ``practises at`` the hospital she works at
    "practices": ("works", "work", "worked"),
    "won": ("award", "awards", "prize", "prizes", "awarded"),
    "award": ("won", "awarded", "prize"),
    "population": ("people", "inhabitants", "live", "lives", "residents"),
    "capacity": ("hold", "holds", "seats", "visitors"),
    "seats": ("hold", "holds", "capacity", "seat"),
    "elevation": ("high", "altitude"),
    "length": ("long",),
    "aperture": ("wide", "diameter"),
}

#: Teaching and learning (read by :mod:`kgcite.text.tutelage`): nouns for the one who teaches and
#: for the one who learns, verbs whose subject teaches ("X *trained* Y") and whose subject learns
#: ("Y *learned* from X"). "Supervised" and "advisor" ask only the relations whose names say
#: them (``doctoral advisor``): "Who supervised X's doctorate?" is no ``student of``.
TEACHERS = frozenset(
    ["mentor", "mentors", "teacher", "teachers", "tutor", "tutors", "trainer", "trainers", "coach", "coaches",
     "instructor", "instructors", "supervisor", "supervisors", "advisor", "advisors", "adviser", "advisers"]
)  # fmt: skip
LEARNERS = frozenset(
    ["pupil", "pupils", "student", "students", "apprentice", "apprentices", "trainee", "trainees", "protege",
     "proteges", "mentee", "mentees", "disciple", "disciples"]
)  # fmt: skip
TEACHING = frozenset(
    ["mentor", "mentors", "mentored", "mentoring", "train", "trains", "trained", "training", "teach", "teaches",
     "taught", "teaching", "coach", "coaches", "coached", "coaching", "tutor", "tutors", "tutored", "instruct",
     "instructs", "instructed"]
)  # fmt: skip
LEARNING = frozenset(["learn", "learns", "learned", "learnt", "apprenticed", "apprenticeship"])
#: Every word that asks a teaching bond ("Whom did X train?" asks ``mentored_by``).
TUTELAGE = frozenset(w for w in TEACHERS if not w.startswith(("supervis", "advis"))) | LEARNERS | TEACHING | LEARNING
#: Beginnings of the words of a name that make it a teaching bond.
_TEACHING_STEMS = ("mentor", "train", "teach", "taught", "coach", "tutor", "instruct", "supervis", "advis", "studied",
                   "apprentic", "pupil", "student", "protege", "mentee", "disciple")  # fmt: skip
#: After a teaching verb these make its subject the learner: "trained *under* X", "taught *by* X".
LEARNER_AFTER = frozenset(["under", "with", "from", "by", "alongside"])


@cache
def teacher_end(relation: str) -> Literal["subject", "object"] | None:
    """The end of ``relation`` that is the teacher, or None where it is no teaching bond:
    ``mentored_by``, ``TRAINED_UNDER``, ``apprenticed to``, ``student of``, ``coach``: the
    object; ``mentor of``, ``trained``, ``students``: the subject; ``trained at`` (a school): none."""
    said = property_key(relation).split()
    if not said or not any(w.startswith(_TEACHING_STEMS) for w in said) or said[-1] in ("at", "in", "on", "for"):
        return None
    if LEADERS & set(said):
        return None  # a school's ``head teacher`` leads it, teaches it nothing
    if said[-1] in LEARNER_AFTER or said[-1] == "to":
        return "object"
    if said[-1] == "of" and len(said) >= 2:
        return "subject" if said[-2] in TEACHERS else "object" if said[-2] in LEARNERS else None
    head = said[-1]
    if head in TEACHERS or head in LEARNING:
        return "object"  # X's mentor; X apprenticed (to someone)
    if head in LEARNERS or head in TEACHING:
        return "subject"  # X's students; X trained them
    return None


@cache
def teaches_at(relation: str) -> bool:
    """Whether ``relation`` places a teacher or learner (``instructorAt``, ``teaches at``, ``trained
    at``): "Where does X teach?" asks it, not whom X taught."""
    said = property_key(relation).split()
    return len(said) > 1 and said[-1] in ("at", "in", "for") and any(w.startswith(_TEACHING_STEMS) for w in said)


#: Words for the other end of a relation its subject's role names: X is a ``patient of`` her
#: *doctor*, an ``apprentice of`` his *master*. They ask the relation from the subject's side
#: ("X's doctor", "the physician of X"), where the role's own word asks it from the object's
#: ("the patients of Dr Y").
COUNTERPARTS: dict[str, tuple[str, ...]] = {
    "patient": ("doctor", "doctors", "physician", "physicians", "gp", "surgeon"),
    "pupil": ("teacher", "teachers", "tutor"),
    "apprentice": ("master", "teacher"),
    "trainee": ("trainer", "mentor"),
    "client": ("lawyer", "solicitor", "advisor", "adviser"),
}


def _about(relation: str) -> list[str]:
    """The words of a name that say what it is about: not function words, kind words ("date",
    "city") or units of time (``runtime_minutes``)."""
    return [w for w in property_key(relation).split() if w not in STOP | KIND_MARKS | UNITS]


def counterparts(relation: str) -> tuple[str, ...]:
    """The words for the other end of a relation named "<role> of" by its subject's role:
    "doctor" for ``patient of`` (:data:`COUNTERPARTS`); none for ``client`` (X's client)."""
    content = _about(relation)
    return COUNTERPARTS.get(content[0], ()) if len(content) == 1 and property_key(relation).endswith(" of") else ()


def counterpart(relation: str, word: str) -> bool:
    """Whether ``word`` names the other end of ``relation`` (:func:`counterparts`)."""
    return word in counterparts(relation)


#: Question words that ask for a relation without naming it (the question side of the lexicon):
#: "Who were X's kids?" asks ``child``. Read by the question analyser and the path scorer alike.
QUESTION_CUES: dict[str, tuple[str, ...]] = {
    "father": ("parent", "parents", "dad"),
    "mother": ("parent", "parents", "mom"),
    "child": ("kids", "son", "sons", "daughter", "daughters", "children"),
    "spouse": ("married", "wife", "husband"),
    "date of birth": ("birthday", "when was born"),
    "occupation": ("job", "do for a living", "profession"),
    "alma mater": ("study", "studied", "school", "university", "college", "educated"),
    "notable works": ("works", "wrote", "known for", "famous for", "books", "novels"),
    "doctoral advisor": ("advisor", "adviser", "supervisor"),
    "position played on team": ("what position",),
    "astronaut mission": ("mission", "missions", "space mission"),
    "cause of death": ("die of", "died of", "cause of death"),
    "position played": ("what position",),
    "member of sports team": ("which team", "what team", "which teams", "what teams"),
}


@dataclass(frozen=True)
class Lexicon:
    """Cue phrases (as stem tuples) per canonical property; built once, extended per graph."""

    cues: Mapping[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def default(cls) -> Lexicon:
        """The shipped lexicon, built once per process (every judge and analyser shares it)."""
        return _default()

    def extended(self, relations: Iterable[str] | Mapping[str, Iterable[str]]) -> Lexicon:
        """This lexicon plus relations (their own content words) and, from a mapping, their paraphrases."""
        paraphrases = relations if isinstance(relations, Mapping) else dict.fromkeys(relations, ())
        cues = {k: set(v) for k, v in self.cues.items()}
        for relation, extra in paraphrases.items():
            key = property_key(relation)
            own = {(s,) for s in name_stems(key)} | {stems(f) for f in name_forms(key) if stems(f)}
            cues.setdefault(key, set()).update(own | {stems(p) for p in extra if stems(p)})
        return Lexicon({k: frozenset(v) for k, v in cues.items()})

    def cues_of(self, relation: str) -> frozenset[tuple[str, ...]]:
        key = property_key(relation)
        return self.cues.get(key) or self.extended([relation]).cues[key]

    def relations(self) -> frozenset[str]:
        return frozenset(self.cues)


@cache
def _default() -> Lexicon:
    return Lexicon().extended(LEXICON)


#: Last words of a paraphrase that states its relation from the other side: "son of" and "born
#: to" state a ``father`` in a sentence about the child, but in a question ("Who is the father
#: of X?", "Who were X's sons?") the same words ask for X's ``father`` or X's ``child``.
CONVERSE = ("of", "to")


@cache
def question_phrases(relation: str) -> tuple[str, ...]:
    """The phrases a question may ask a relation with: the shipped paraphrases less their
    converse forms, then the question cues ("kids" for ``child``). The one list the question
    analyser and the path scorer read."""
    key = property_key(relation)
    said = [p for p in LEXICON.get(key, ()) if p.split()[-1] not in CONVERSE]
    return tuple(dict.fromkeys([*said, *QUESTION_CUES.get(key, ()), *name_forms(key)]))


def name_forms(relation: str) -> tuple[str, ...]:
    """The words people ask with for a name of one content word (:data:`WORD_FORMS`): "started"
    for ``founded by``, "born" for ``birth date``. Kind words ("date", "city") are not content."""
    content = _about(relation)
    # "Whom did X train?", "X's pupils": every word of teaching names ``mentored_by`` and its kin
    taught = (
        tuple(sorted(TUTELAGE)) if teacher_end(relation) else tuple(sorted(TEACHING)) if teaches_at(relation) else ()
    )
    heads = [*content[-1:], *(w for w in content[:1] if w in ("chief", "head"))]
    leads = tuple(
        dict.fromkeys(f for w in heads for f in HEAD_FORMS.get(w, ()))
    )  # "Who runs X?": its ``chief physician``
    if len(content) != 1:
        return leads + taught
    agent = AGENT_FORMS.get(content[0], ()) if property_key(relation).endswith(" by") else ()
    return WORD_FORMS.get(content[0], ()) + agent + leads + counterparts(relation) + taught


@cache
def paraphrases(relation: str) -> frozenset[tuple[str, ...]]:
    """The shipped paraphrases of a relation alone (stemmed), without the words of its name."""
    return frozenset(stems(p) for p in LEXICON.get(property_key(relation), ()) if stems(p))


def name_stems(relation: str, *, generic: bool = False) -> tuple[str, ...]:
    """The content words of a relation's name, stemmed; ``generic`` keeps words such as "date"
    and "place" that say nothing on their own."""
    return tuple(
        stem(w) for w in normalize(property_key(relation)).split() if w not in STOP and (generic or w not in GENERIC)
    )


def occurrences(words: Sequence[str], phrase: Sequence[str]) -> list[int]:
    """Where ``phrase`` starts in ``words`` (word for word). The first word is compared before
    any slice is made: a judge reads sentences listing hundreds of values."""
    n = len(phrase)
    if not n:
        return []
    first, target = phrase[0], tuple(phrase)
    return [i for i, w in enumerate(words) if w == first and tuple(words[i : i + n]) == target]


def said_once(text: str, mention: str) -> tuple[list[str], int, int] | None:
    """The text's words (normalised) and where the mention's words start and end, if the text
    says them exactly once: the readers of a question find its topic this one way."""
    words = normalize(text).split()
    said = normalize(mention).split()
    at = occurrences(words, said)
    return (words, at[0], at[0] + len(said)) if len(at) == 1 and said else None


def cue_positions(
    word_stems: Sequence[str], cues: Iterable[tuple[str, ...]], masked: AbstractSet[int] = frozenset()
) -> frozenset[int]:
    """The words the cues cover, leaving out any occurrence that touches ``masked`` positions."""
    out: set[int] = set()
    for cue in cues:
        for i in occurrences(word_stems, cue):
            covered = set(range(i, i + len(cue)))
            if not covered & masked:
                out |= covered
    return frozenset(out)


def opening_kind(words: Sequence[str]) -> int | None:
    """Where a question opening with "which"/"what" (or a preposition, then one) names the kind
    of answer it wants: "*Which town* is X twinned with?", "In *which city* is …" (the word's
    index), else None."""
    at = 1 if len(words) > 2 and words[0] in PREPOSITIONS else 0
    return at + 1 if len(words) > at + 1 and words[at] in ("which", "what") else None


def kind_positions(said: Sequence[str]) -> frozenset[int]:
    """Where a question says its answer's kind: the words (two at most) after its first "what"
    or "which" up to a function word ("Which *record company* is …", "What *label* …")."""
    start = next((i + 1 for i, w in enumerate(said) if w in ("what", "which")), len(said))
    stops = STOP | QUESTION_WORDS | FRAMING
    return frozenset(takewhile(lambda i: said[i] not in stops, range(start, min(start + 2, len(said)))))


@cache
def title_roles(relation: str) -> frozenset[str]:
    """The stems of a leader's title's role (``coach`` of ``headCoach``, ``conductor`` of
    ``principal conductor``): said alone, they ask the title ("Who *coaches* X?"). None for a name
    whose first word is no leader's ("the *garden* looked after by X" asks no ``greenhouseGarden``)."""
    if not modifiers(relation) & _LEADER_STEMS:
        return frozenset()
    return frozenset(name_stems(relation)) - modifiers(relation)


@cache
def modifiers(relation: str) -> frozenset[str]:
    """The stems of a compound name's words before its head ("label" of ``labelHeadquarters``):
    they say what the relation starts from, not what it is. A question whose answer's kind is
    one of them ("What *label* put out X's artists?") asks for such a thing, not the relation; so
    does the thing whose identifier a name is (``route number``: "Which *routes* …"). Empty
    where the head says only a kind or nothing (``release year``, ``birth place``), or a
    word before it is a verb's (``starred actors``). A name that is a role and a preposition
    (``hospital in``, ``a department of``: "X is a hospital in Y") starts from that role: "Which
    *hospital* does X's doctor work in?" asks for a hospital, not where one is."""
    said = normalize(property_label(relation)).split()
    head = list(takewhile(lambda w: w not in PREPOSITIONS, said))
    front = [w for w in head if w not in STOP]
    if len(front) == 1 and len(head) < len(said) and all(w in PREPOSITIONS for w in said[len(head) :]):
        by = said[len(head) :] == ["by"]  # "run by", "led by": a verb's, whoever did it
        return frozenset([stem(front[0])]) if _role_noun(front[0]) and not by else frozenset()
    if len(front) == 2 and front[-1] in ID_HEADS and not front[0].endswith(("ed", "ing")):
        return frozenset([stem(front[0])])  # ``ROUTE_NUMBER``: "Which *routes* …" asks for routes
    if len(front) < 2 or front[-1] in GENERIC | KIND_MARKS or any(w.endswith(("ed", "ing")) for w in front[:-1]):
        return frozenset()
    return frozenset(stem(w) for w in front[:-1]) - {stem(front[-1])}


def role_said(relation: str, said: Sequence[str], at: int) -> bool:
    """Whether the role a name starts from is said at ``at`` with a preposition after it, as its
    name has one ("a *hospital in* Wexmoor", "the *members of* X", "the *curator at* X"), or
    before another noun ("*member* theatres"): then the words name the relation.
    Said alone ("the *hospital* where X works", "*label*" of ``labelHeadquarters``) the role names
    the thing that has the relation, not the relation."""
    name = normalize(property_label(relation)).split()
    tail = list(dropwhile(lambda w: w not in PREPOSITIONS, name))
    role = [w for w in name[: len(name) - len(tail)] if w not in STOP]
    after = said[at + 1] if at + 1 < len(said) else ""
    if not tail or len(role) != 1:
        return False  # a compound's first word ("*farm* located in", "*label* headquarters") never names it
    if said[at] not in (role[0], role[0] + "s", role[0] + "es"):
        return True  # another word of the role's stem: "Who *edited* X?" asks ``editor_of``
    if not after:
        return False
    # "how many *member* theatres": the role said of another noun still names the relation
    noun = after != "x" and after not in STOP | QUESTION_WORDS | PREPOSITIONS | BE | DOER_AUXILIARIES
    return noun or after == tail[0] or (after in _PLACING and tail[0] in _PLACING)


#: Prepositions that place a role in what it belongs to, one for another ("curator *at*"/"*of*").
_PLACING = frozenset(["of", "at", "in", "for"])


def _role_noun(word: str) -> bool:
    """Whether the one word before a name's preposition is a role ("hospital", "member"), not a
    verb's form ("built", "runs", "born") nor a kind (``date of``)."""
    verb_like = word.endswith(("ed", "en", "ing")) or (word.endswith("s") and not word.endswith("ss"))
    past = IRREGULAR_PAST | set(PAST_OF.values()) | {"born", "grown", "found", "native"}
    return not verb_like and word not in past | GENERIC | KIND_MARKS


#: A relation id read as a property name: kgcite's one reader of identifiers (kg.keys).
property_label = relation_words
