"""Answers written an entity a line, as prompted models write them, with the prose around them counted.

Each line is read as one of these shapes (tried in this order), after a list
marker (``-``, ``*``, ``•``, ``1.``, ``1)``) and bold, italics, backticks or
quotes around the line or its parts are taken off:

============== =============================================== ==========================================
shape          a line                                          mentions
============== =============================================== ==========================================
``table``      ``| Paris | LOC |`` (a Markdown table)           the entity column's cell, the type column's
``tuples``     ``(Paris, LOC)``, ``("Paris", "LOC"), ...``     each pair
``parentheses````Paris (LOC)``                                  the string, the last parentheses' type
``type_lines`` ``LOC: Paris, Rome; Lyon``                      each item, of the type before the colon
``colon``      ``Paris: LOC``                                  the string before the last colon
``dash``       ``Paris - LOC`` (or an en or em dash)           the string before the last dash
============== =============================================== ==========================================

Also read: ``Paris [LOC]`` and ``Paris (LOC, 0.98)`` (a confidence after the type)
and ``Paris (LOC) - a city`` (an explanation after a type the gold uses, or one word
in capitals) as ``parentheses``; a sentence naming several ``Paris (LOC)`` when every
parenthesis in it holds such a type (:func:`_in_prose`), else skipped;
``**LOC:** Paris``, ``LOC: ["Paris", "Rome"]`` (a JSON or Python list) and a
heading ``LOC:`` or ``### LOC`` over list items as ``type_lines``.

A type is one to four words of letters, digits and ``_ - . / & '``, starting with a
letter, at most 40 characters (:func:`type_like`); a type of several words must be
one the gold uses (``labels``) or be capitalised ("Cell Line"), so that "(one per
line)" stays prose; after a colon or a dash, one word or a type the gold uses. A table is read by its header:
the column named as in :data:`ENTITY_COLUMNS` and the one named as in
:data:`TYPE_COLUMNS`. ``A: B`` is ``type_lines`` when ``A`` is a type known from
the gold (``labels``) or ``B`` lists several items (``,`` or ``;``) or says none,
and ``colon`` when ``B`` is a known type; otherwise the line goes the way the
answer's other colon lines went, and ``colon`` when none tells.

What is not an entity is never made one:

- a line whose type slot says the string is no entity (``X (no entity, as methods
  are not included)``, ``X (no label)``, ``X (O)``, ``X - none``) is **declined**;
- a line of no shape (a lead-in such as "Here is the answer:", an explanation, a
  note) is **skipped**; so is a colon line whose first part is a word of prose
  (:data:`PROSE`: "Note: ...", "Explanation: ...");
- a line that says there is no entity ("None", "No entities") names none;
- a **correction**: a line that announces an answer ("Answer:", "Final answer:",
  "the corrected answer would be:") after lines that named entities starts a new
  list; the last list is kept, the earlier one's lines are counted as corrected.

An answer whose lines name no entity and decline none is not read as lines
(unless a line says there is none): prose alone is unparseable, never an empty
answer.

Chinese typography is read as its ASCII counterpart (:data:`FULL_WIDTH`): the
full-width ``（`` ``）`` around a type, ``：`` after a string or a type, and ``，``
``、`` ``；`` between items or mentions (``周杰伦（PER）``, ``人名：周杰伦、林俊杰``,
``（周杰伦，PER）``, ``周杰伦 (PER)、台湾 (LOC)``); ``无``, ``没有实体``, ``无。`` and the
like say there is none (``人名：无``: the type has none); a table's Chinese headers
(``| 实体 | 类型 |``) name its columns. A type written in Chinese or Japanese
(``人名``) is read only where the gold (or the label map) uses it: without spaces
or case, nothing else tells it from prose.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

from .mention import Answer, Mention
from .values import literal

LINE_SHAPES = ("table", "tuples", "parentheses", "type_lines", "colon", "dash")
"""The shapes of an answer read a line an entity."""

ENTITY_COLUMNS = ("entity", "entities", "entity name", "name", "text", "span", "word", "mention", "string",
                  "实体", "实体名", "实体名称", "名称", "实体文本", "文本")
TYPE_COLUMNS = ("type", "label", "category", "entity type", "entity_type", "entity_group", "tag", "class",
                "类型", "实体类型", "类别", "标签")

PROSE = frozenset((
    "note", "notes", "explanation", "reasoning", "reason", "rationale", "analysis", "thought", "thoughts", "step",
    "example", "input", "text", "sentence", "context", "question", "instruction", "summary", "entity", "entity type",
    "type", "types", "label", "labels", "category", "categories", "word", "span", "however", "also",
    "注", "注意", "备注", "说明", "解释", "分析", "原因", "理由", "思考", "推理", "示例", "例如", "输入", "文本", "句子", "问题",
    "总结", "实体", "类型", "标签", "类别", "但是", "另外",
))
"""First parts of colon lines that are prose, never a type."""

ANNOUNCES = ("answer", "final answer", "corrected answer", "correct answer", "revised answer", "updated answer",
             "output", "response", "result", "results", "entities", "named entities", "corrected", "correction",
             "revised list", "updated list", "corrected list", "let me revise", "let me correct",
             "let me correct that", "let me revise that", "答案", "最终答案", "回答", "结果", "识别结果", "输出", "命名实体")
"""A line starting ``<one of these>:`` announces an answer; what follows the colon is read as a line."""

_ANNOUNCED = ("answer", "list", "version", "output")
_CORRECTING = re.compile(r"\b(?:corrected|correct|final|revised|updated)\Z")
_ANNOUNCE = re.compile(rf"(?:{'|'.join(ANNOUNCES)})\s*:\s*(.*)", re.I | re.S)
_MARKER = re.compile(r"(?:[-*•+]|\d{1,3}[.)])\s+")
_WRAPS = ("**", "__", "*", "_", "`", '"', "'", "“")
_CLOSE = {"“": "”"}
_WRAP_STARTS = frozenset(wrap[0] for wrap in _WRAPS)
_WRAP_ENDS = frozenset(_CLOSE.get(wrap, wrap)[-1] for wrap in _WRAPS)
_MARKER_STARTS = frozenset("-*•+0123456789")
NONE_STARTS = frozenset("aAnNtTiI无没未不该文句") | _WRAP_STARTS
"""The first characters of an answer or a line that may say there is no entity (:func:`says_none`)."""
_TYPE = re.compile(r"[A-Za-z][\w\-./&']*(?: [A-Za-z0-9][\w\-./&']*){0,3}")
_DECLINED = re.compile(r"(?:o|none|n/a|null|无|非实体)|(?:no|not|none)\s.*|不是.*", re.I | re.S)
_WHERE = r"(?: in (?:this|the)(?: given| provided| input)? (?:sentence|text|input|passage|document))"
_SEEN = r"(?: (?:were |was |are |is )?(?:found|detected|identified|present|mentioned|listed))"
_NONE = re.compile(
    rf"(?:(?:final )?answer\s*:\s*)?(?:(?:none|n/?a|null|nil|nothing){_SEEN}?{_WHERE}?|-+|–|—|"
    rf"(?:there (?:are|is) |i (?:found|find) )?no (?:\w+ )?entit(?:y|ies)"
    rf"(?: (?:of (?:the )?types? [\w\- ]+))?{_SEEN}?{_WHERE}?|"
    rf"(?:there (?:are|is) |i (?:found|find) )?no (?:[\w\-]+ ){{0,2}}[\w\-]+s(?:{_SEEN}{_WHERE}?|{_WHERE})|"
    r"(?:the|this) (?:given |provided |input )?(?:text|sentence|passage|input|document) (?:does not|doesn't|did not) "
    r"(?:contain|mention|include|have) any (?:[\w\-]+ ){0,2}?(?:entit(?:y|ies)|[\w\-]+s))|"
    r"无|没有|(?:(?:该|这个?)?(?:文本|句子|段落|输入)中?)?(?:没有|不存在|不包含|并无|无|未(?:发现|找到|识别出?|检测到|提及))"
    r"(?:找到|发现|识别出?|检测到|提及)?(?:任何)?(?:的)?(?:命名)?实体(?:名称)?",
    re.I)
"""A line (or an answer) saying there is no entity: "None", "none found", "-", "No organizations mentioned",
"There are no person names in the text", "The text does not contain any named entities", "无", "没有实体",
"未发现命名实体"; a plural noun after "no" only with a verb or a place after it, so that "No Doubt" stays a
name."""
_PAREN = re.compile(r"(.+?)\s*\(([^()]*)\)")
_PAREN_ITEMS = re.compile(r"\s*([^()]+?)\s*\(([^()]*)\)\s*(?:[,;]|$)")
_NAMED = re.compile(r"(?<![\w\-])((?:[A-Z][\w.&'\-]*\s+){0,5}[A-Z][\w.&'\-]*)\s*\(\s*([^()]*?)\s*\)")
_INNER = re.compile(r"\(\s*([^()]*?)\s*\)[,;]?\s")
"""A parenthesised part followed by a space: a type in the middle of a sentence ("Barack Obama (PER), Berlin")."""
_BRACKET_TYPE = re.compile(r"(.+?)\s*\[([^\[\]]*)\]")
_EXPLAINED = re.compile(r"(.+?)\s*\(([^()]*)\)\s*(?::|-+|–|—)\s+\S.*", re.S)
_SCORE = re.compile(r"\s*,\s*(?:0?\.\d+|1(?:\.0+)?|\d{1,3}(?:\.\d+)?%)\s*")
_DASH = re.compile(r"(.+)\s+(?:-+|–|—)\s+(.+)")
_QUOTED = r"\"([^\"]*)\"|'([^']*)'|([^,()'\"]+?)"
_TUPLE = re.compile(rf"\(\s*(?:{_QUOTED})\s*,\s*(?:{_QUOTED})\s*\)")
_SEPARATOR_ROW = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_ITEMS = re.compile(r"\s*[;,]\s*")
_PROSE_START = frozenset(("here", "the", "these", "this", "there", "i", "we", "my", "sure", "following", "below",
                          "above", "in", "for", "all"))
MAX_WORDS = 20
"""A string of more words is a sentence of prose, not an entity."""
FULL_WIDTH = str.maketrans({"（": "(", "）": ")", "：": ": ", "，": ", ", "、": ", ", "；": "; "})
"""Chinese typography's separators as the ASCII ones the shapes are read by (a colon, comma or semicolon with a
space after it, as ASCII text writes it)."""
_FULL_WIDTH = re.compile("[（）：，、；]")


def ascii_separators(line: str) -> str:
    """``line`` with Chinese typography's separators as ASCII ones (:data:`FULL_WIDTH`).

    >>> ascii_separators("人名：周杰伦、林俊杰")
    '人名: 周杰伦, 林俊杰'
    """
    return line if line.isascii() else line.translate(FULL_WIDTH)


def unwrap(text: str) -> str:
    """``text`` without bold, italics, backticks or quotes around it (as often as they wrap it)."""
    text = text.strip()
    if not text or text[0] not in _WRAP_STARTS or text[-1] not in _WRAP_ENDS:
        return text
    changed = True
    while changed and len(text) > 1:
        changed = False
        for wrap in _WRAPS:
            close = _CLOSE.get(wrap, wrap)
            if len(text) > 2 * len(wrap) and text.startswith(wrap) and text.endswith(close):
                text, changed = text[len(wrap):-len(close)].strip(), True
                break
    return text


def type_like(text: str) -> bool:
    """Whether ``text`` can be a type (see the module docstring)."""
    return len(text) <= 40 and _TYPE.fullmatch(text) is not None


def says_none(text: str) -> bool:
    """Whether ``text`` (an answer, or one of its lines) says there is no entity ("None", "N/A", "No entities",
    "There are no named entities in this sentence.")."""
    return _NONE.fullmatch(unwrap(text).rstrip(".!。！").strip()) is not None


def _string(text: str) -> str | None:
    text = unwrap(text)
    return text if text and len(text.split()) <= MAX_WORDS else None


class _Line:
    """One line as read: its kind (``mentions``, ``declined``, ``colon``, ``none``, ``announces``, ``prose``), the
    shape and mentions it gave, and for a colon line both readings."""

    __slots__ = ("colon", "kind", "mentions", "shape", "text", "vote")

    def __init__(self, text: str, kind: str, shape: str = "", mentions: tuple[Mention, ...] = ()) -> None:
        self.text, self.kind, self.shape, self.mentions = text, kind, shape, mentions
        self.colon: tuple[tuple[Mention, ...] | None, tuple[Mention, ...] | None] = (None, None)
        self.vote = 0


def _known(text: str, labels: Collection[str]) -> bool:
    return text in labels or text.lower() in labels


def _typed(string: str, kind: str, line: str, shape: str, labels: Collection[str]) -> _Line:
    """The line of one mention ``string`` of type ``kind`` (declined when the type slot says no entity)."""
    kind = unwrap(kind)
    if "," in kind:
        scored = _SCORE.search(kind)  # "Barack Obama (PER, 0.98)": a confidence after the type
        kind = kind[:scored.start()] if scored and scored.end() == len(kind) else kind
    if _DECLINED.fullmatch(kind):
        return _Line(line, "declined", shape)
    text = _string(string)
    if text is None or not _typelike(kind, labels):
        return _Line(line, "prose")
    return _Line(line, "mentions", shape, (Mention(text, kind),))


def _tuples(line: str, raw: str, labels: Collection[str]) -> _Line | None:
    pairs = list(_TUPLE.finditer(line))
    if not pairs or _TUPLE.sub("", line).strip(" ,;"):
        return None
    read = []
    for pair in pairs:
        groups = pair.groups()
        string = next(g for g in groups[:3] if g is not None)
        kind = next(g for g in groups[3:] if g is not None)
        read.append(_typed(string, kind, raw, "tuples", labels))
    if any(line.kind == "prose" for line in read):
        return None
    mentions = tuple(m for line in read for m in line.mentions)
    return _Line(raw, "mentions" if mentions else "declined", "tuples", mentions)


def _colon(line: str, raw: str, labels: Collection[str]) -> _Line | None:
    """A ``TYPE: a, b`` or ``string: TYPE`` line, with both readings when both are possible."""
    if ": " not in line and not line.endswith(":"):
        return None
    first, _, rest = line.partition(":")
    first, rest = unwrap(first), rest.strip()
    if not rest or first.lower() in PROSE:
        return _Line(raw, "prose")
    before, _, last = line.rpartition(":")
    before, last = unwrap(before), unwrap(last)
    type_first = _type_first(first, rest, labels)
    # the string first: a type after the last colon
    string_first = None
    if _short_type(last, labels) and not _DECLINED.fullmatch(last):
        string = _string(before)
        if string is not None:
            string_first = (Mention(string, last),)
    elif _DECLINED.fullmatch(last) and _string(before) is not None and type_first is None:
        return _Line(raw, "declined", "colon")
    if type_first is None and string_first is None:
        return _Line(raw, "prose")
    read = _Line(raw, "colon")
    read.colon = (type_first, string_first)
    if type_first is not None and string_first is not None:
        read.vote = _vote(first, last, rest, labels)
    else:
        read.vote = 1 if type_first is not None else -1
    return read


def _type_first(first: str, rest: str, labels: Collection[str]) -> tuple[Mention, ...] | None:
    """A colon line read with the type first (a type before the first colon, items after it), or None when
    ``first`` cannot be a type or an item is no string."""
    words = first.split()
    if not (_known(first, labels) or (type_like(first) and len(words) <= 3 and words[0].lower() not in _PROSE_START)):
        return None
    listed = _listed_value(rest)
    items = listed if listed is not None else [] if says_none(rest) else [unwrap(item) for item in _ITEMS.split(rest)]
    strings = [_string(item) for item in items if item and not says_none(item)]
    if all(s is not None for s in strings) and all(len(s.split()) <= 12 for s in strings):  # type: ignore[union-attr]
        return tuple(Mention(s, first) for s in strings)  # type: ignore[arg-type]
    return None


def _listed_value(rest: str) -> list[str] | None:
    """The strings of a JSON or Python list after a type, ``PER: ["Barack Obama", "Angela Merkel"]`` (``[]``: none),
    or None when ``rest`` is no such list."""
    if not (rest.startswith("[") and rest.endswith("]")):
        return None
    try:
        value = literal(rest)
    except ValueError:
        return None
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        return None
    return [item.strip() for item in value]


def _vote(first: str, last: str, rest: str, labels: Collection[str]) -> int:
    """How a colon line that both readings fit reads by itself: 1 the type first, -1 the string first, 0 as the
    answer's other colon lines go (by the gold's types, then a list of items, then case)."""
    if _known(first, labels) != _known(last, labels):
        return 1 if _known(first, labels) else -1
    if _ITEMS.search(rest) or says_none(rest):
        return 1
    if (last.isupper() and not first.isupper()) or (_common(last) and not _common(first)):
        return -1
    if (first.isupper() and not last.isupper()) or (_common(first) and not _common(last)):
        return 1
    return 0


def _typelike(text: str, labels: Collection[str]) -> bool:
    """A type in a type slot: a known type, or a type of one word or of capitalised words ("(one per line)" is
    prose, "(Cell Line)" a type)."""
    return _known(text, labels) or (type_like(text) and (" " not in text or text.title() == text or text.isupper()))


def _short_type(text: str, labels: Collection[str]) -> bool:
    """A type after a colon or a dash: a known type, or one word (a phrase there is prose: "Note - this matters")."""
    return _known(text, labels) or (type_like(text) and " " not in text)


def _common(text: str) -> bool:
    """A lower-case word, as open types are written ("person"), where names are capitalised ("Barack Obama")."""
    return text.islower() and " " not in text


def _row(line: str) -> list[str]:
    return [unwrap(cell) for cell in line.strip().strip("|").split("|")]


def _table(rows: list[tuple[str, str]], labels: Collection[str]) -> list[_Line]:
    """The lines of one Markdown table (``(cleaned, as written)`` per row)."""
    header = [cell.lower() for cell in _row(rows[0][0])]
    entity = next((k for k, name in enumerate(header) if name in ENTITY_COLUMNS), None)
    kind = next((k for k, name in enumerate(header) if name in TYPE_COLUMNS), None)
    # the header is the table's own line, not prose; a table of no known columns is prose
    out = [_Line(rows[0][1], "prose" if entity is None or kind is None else "header")]
    for line, raw in rows[1:]:
        if _SEPARATOR_ROW.fullmatch(line.strip()):
            continue
        cells = _row(line)
        if entity is None or kind is None or max(entity, kind) >= len(cells):
            out.append(_Line(raw, "prose"))
        elif says_none(cells[entity]) or not cells[entity]:
            out.append(_Line(raw, "none"))
        else:
            out.append(_typed(cells[entity], cells[kind], raw, "table", labels))
    return out


def _line(line: str, raw: str, labels: Collection[str]) -> _Line:
    """One line of an answer (not a table row) as read."""
    if line[0] in NONE_STARTS and says_none(line):
        return _Line(raw, "none")
    if line.startswith("("):
        read = _tuples(line, raw, labels)
        if read is not None:
            return read
    read = _parenthesised(line.rstrip(".,;"), raw, labels)
    if read is not None:
        return read
    read = _colon(line, raw, labels)
    if read is not None:
        return read
    dash = _DASH.fullmatch(line)
    if dash:
        kind = unwrap(dash.group(2))
        if _short_type(kind, labels) or _DECLINED.fullmatch(kind):
            return _typed(dash.group(1), kind, raw, "dash", labels)
    return _Line(raw, "prose")


def _parenthesised(bare: str, raw: str, labels: Collection[str]) -> _Line | None:
    """A line with its type in parentheses or brackets: ``string (TYPE)``, several on one line, several in a
    sentence (:func:`_in_prose`), ``string [TYPE]``, ``string (TYPE) - explanation``; None for another line."""
    if bare.endswith(")"):
        paren = _PAREN.fullmatch(bare)
        if paren:
            if "), " in paren.group(1) or "); " in paren.group(1):
                # several on one line: "metabolic (QUALITY), food-web (QUALITY)"
                items = list(_PAREN_ITEMS.finditer(bare))
                if "".join(m.group(0) for m in items) == bare:
                    return _several([_typed(m.group(1), m.group(2), raw, "parentheses", labels) for m in items],
                                    raw)
            if "(" in paren.group(1) and any(_sure_type(kind, labels) for kind in _INNER.findall(paren.group(1))):
                return _in_prose(bare, raw, labels)
            return _typed(paren.group(1), paren.group(2), raw, "parentheses", labels)
    elif bare.endswith("]"):
        bracket = _BRACKET_TYPE.fullmatch(bare)  # "Barack Obama [PER]"
        if bracket and ":" not in bracket.group(1) and _sure_type(bracket.group(2).strip(), labels):
            return _typed(bracket.group(1), bracket.group(2), raw, "parentheses", labels)
    explained = _EXPLAINED.fullmatch(bare) if ")" in bare else None
    if explained and "(" not in explained.group(1) and _sure_type(unwrap(explained.group(2)), labels):
        return _typed(explained.group(1), explained.group(2), raw, "parentheses", labels)
    return None


def _sure_type(kind: str, labels: Collection[str]) -> bool:
    """A type written so that prose does not write it: one the gold uses (when the gold's types are known), else one
    word in capitals."""
    if labels:
        return _known(kind, labels)
    return type_like(kind) and " " not in kind and kind.isupper()


def _in_prose(line: str, raw: str, labels: Collection[str]) -> _Line:
    """A sentence naming several ``Name (TYPE)``, "The entities are Barack Obama (PER) and Berlin (LOC).": each
    capitalised name before a parenthesised type, when every parenthesised part of the line is a type the gold uses
    (or one word in capitals) and follows such a name; prose otherwise (skipped, never a mention of the sentence)."""
    named = _NAMED.findall(line)
    if not named or len(named) != line.count("(") or not all(_sure_type(kind, labels) for _, kind in named):
        return _Line(raw, "prose")
    return _several([_typed(name, kind, raw, "parentheses", labels) for name, kind in named], raw)


def _several(read: list[_Line], raw: str) -> _Line:
    """One line of several ``string (TYPE)`` items: their mentions (prose when one is not an item)."""
    if any(line.kind == "prose" for line in read):
        return _Line(raw, "prose")
    mentions = tuple(m for line in read for m in line.mentions)
    return _Line(raw, "mentions" if mentions else "declined", "parentheses", mentions)


def _clean(raw: str) -> str:
    """A line without the list marker and the emphasis or quotes around it."""
    line = unwrap(raw)
    marker = _MARKER.match(line) if line and line[0] in _MARKER_STARTS else None
    line = unwrap(line[marker.end():]) if marker else line
    bold = _BOLD_TYPE.match(line) if line[:1] in "*_" else None  # "**PER:** Barack Obama": the type in bold
    return f"{bold.group(2)}: {line[bold.end():]}" if bold else line


_BOLD_TYPE = re.compile(r"(\*\*|__|\*)([^*_:]{1,40}):\1\s*")
_HEADING = re.compile(r"#{1,6}\s+(.+?)\s*:?|(.+?)\s*:")


def _heading(line: str, labels: Collection[str]) -> str | None:
    """The type a line heads a list of (``PER:``, ``### PER``), or None."""
    found = _HEADING.fullmatch(line)
    kind = unwrap(found.group(1) or found.group(2)) if found else ""
    return kind if kind and _sure_type(kind, labels) else None


def _under_heading(heading: str | None, row: _Line, line: str, labels: Collection[str]) -> tuple[str | None, _Line]:
    """A line of prose read under a heading (:func:`_heading`): a heading starts a list of that type, and a list
    item of no shape under it is a mention of it (``PER:`` then ``- Barack Obama``); other lines end the list."""
    if row.kind != "prose":
        return (heading if row.kind in _READ else None), row
    kind = _heading(line, labels) if line[-1] == ":" or line[0] == "#" else None
    if kind is not None:
        return kind, row
    if heading is not None and _MARKER.match(row.text) and ":" not in line and "(" not in line:
        return heading, _typed(line, heading, row.text, "type_lines", labels)
    return None, row


def read_lines(text: str, labels: Collection[str] = ()) -> Answer | None:
    """An answer read a line an entity (see the module docstring); None when no line names or declines an entity
    and none says there is none."""
    read = _rows(text, labels)
    if not any(row.kind in _READ for row in read):
        return None
    _settle(read)
    # a list announced after lines that named entities replaces them: the last one is kept
    kept: list[_Line] = []
    corrected: list[str] = []
    listed = False
    for row in read:
        if row.kind == "announces" and listed:
            corrected += [k.text for k in kept if k.kind in _LISTED]
            kept = [k for k in kept if k.kind not in _LISTED]
            listed = False
        kept.append(row)
        listed = listed or row.kind in _LISTED
    if corrected and not listed:
        return _answer(read, ())  # an answer announced after the list that names nothing new: the list stands
    return _answer(kept, tuple(corrected))


def _rows(text: str, labels: Collection[str]) -> list[_Line]:
    """Every line of an answer as read, in order: a Markdown table's rows together, an announcement (``Answer:``,
    "the corrected answer would be:") apart from what follows it on its line."""
    read: list[_Line] = []
    table: list[tuple[str, str]] = []
    heading = None
    for raw in text.splitlines():
        stripped = raw.strip()
        line = _clean(ascii_separators(stripped)) if stripped and not stripped.startswith("```") else ""
        if line[:1] == "|" and line.count("|") >= 2:
            table.append((line, stripped))
            continue
        if table:
            read += _table(table, labels)
            table = []
        if not line:
            continue
        announced = _ANNOUNCE.fullmatch(line) if ":" in line else None
        if announced or corrects(line):
            read.append(_Line(stripped, "announces"))
            line = _clean(announced.group(1)) if announced else ""
            if not line:
                continue
        heading, row = _under_heading(heading, _line(line, stripped, labels), line, labels)
        if row.kind != "prose" or not read or read[-1].text is not stripped:  # "Answer: see above." skipped once
            read.append(row)
    if table:
        read += _table(table, labels)
    return read


_READ = frozenset(("mentions", "declined", "colon", "none"))
_LISTED = frozenset(("mentions", "declined"))


_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ``str.splitlines`` breaks lines at (the plain reader's lines); a plain line holds none of them."""
_NOT_PLAIN = rf"()*_`\"'“:|,;{_BREAKS}"
"""What a plain string holds none of: parentheses, wraps, quotes, colons, bars, commas, semicolons, line breaks."""
_PLAIN = rf"(?!\d{{1,3}}[.)]\s)([A-Za-z0-9](?:[^{_NOT_PLAIN}]*?[^{_NOT_PLAIN}\s])?)"
"""A plain string: it ends with no whitespace (the plain reader strips a string, a no-break space included)."""
_ONE_TYPE = r"(?!(?i:o|none|null|n/a)\b)([A-Za-z][\w\-./&']{0,39})"
_LISTED_AS = r"(?:(?:[-*•+]|\d{1,3}[.)])[ \t]+)?(\*\*|\*|__|`|)"
SIMPLE = {
    "parentheses": re.compile(rf"{_LISTED_AS}{_PLAIN}\1[ \t]+\({_ONE_TYPE}\)"),
    "tuples": re.compile(rf"\({_PLAIN}, {_ONE_TYPE}\)"),
    "colon": re.compile(rf"{_PLAIN}[ \t]*:[ \t]+{_ONE_TYPE}"),
    "dash": re.compile(rf"{_PLAIN}[ \t]+-[ \t]+{_ONE_TYPE}"),
    "type_lines": re.compile(rf"([A-Za-z][\w\-./&']{{0,39}}):[ \t]+([A-Za-z0-9][^()*_`\"'“:|{_BREAKS}]*)"),
}
"""Plain lines of the shapes read fast: a string with nothing to unwrap but bold, italics or backticks (after a
list marker, in ``parentheses`` lines), no colon, comma or parenthesis, and a one-word type that declines nothing;
``type_lines``: a type the gold uses, and items of that kind."""
_PARENTHESES = SIMPLE["parentheses"]
_DECLINED_PLAIN = re.compile(rf"(?:(?:[-*•+]|\d{{1,3}}[.)])[ \t]+)?[A-Za-z0-9][^{_NOT_PLAIN}]*?[ \t]+"
                             rf"\((?:(?i:o|none|null|n/a)|(?i:no|not)\s[^():{_BREAKS}]*)\)")
"""A plain ``string (no entity, ...)`` line: declined."""
_LEAD_IN = re.compile(rf"(?!\d{{1,3}}[.)]\s)[A-Za-z0-9][^:{_BREAKS}]*:")
"""A plain lead-in line ("Here is the answer:", "Answer:"): read as prose, skipped."""
_NOT_COLON_STRINGS = PROSE | frozenset(ANNOUNCES)


def simple_lines(text: str, labels: Collection[str] = ()) -> Answer | None:
    """The fast path of :func:`read_lines` for the commonest answers: plain lines of one of the shapes of
    :data:`SIMPLE` (``string: TYPE`` and ``TYPE: a, b`` only where the type is one the gold uses and the string
    is none), ``parentheses`` lines with declined ones among them, after a lead-in line or none, and nothing else
    (no other prose, no correction after the lead-in). It gives what :func:`read_lines` gives for such an answer
    (a test holds them equal), or None for any other answer (one written with Chinese typography among them)."""
    if not text.isascii() and _FULL_WIDTH.search(text):
        return None
    read = _plain_rows(text, labels)
    if read is None:
        return None
    mentions, shape, skipped, declined = read
    if not mentions or (declined and shape != "parentheses"):
        return None
    # a correction is announced after a list: in the lines after the lead-in (which cannot correct one)
    if corrects(text[text.find(skipped[0]) + len(skipped[0]):] if skipped else text):
        return None
    return Answer(tuple(mentions), shape, None, None, skipped, tuple(declined))  # type: ignore[arg-type]


def _plain_rows(text: str, labels: Collection[str]) -> tuple[list[Mention], str | None, tuple[str, ...],
                                                                list[str]] | None:
    """The lines of an answer :func:`simple_lines` reads: its mentions, their shape, the lead-in line and the
    declined lines; None at the first line of another kind."""
    mentions: list[Mention] = []
    skipped: tuple[str, ...] = ()
    declined: list[str] = []
    shape = None
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if (shape is None and line[-1] == ")" and line[0] != "(") or shape == "parentheses":
            # the commonest line, read without the general steps (the one candidate such a first line has)
            found = _PARENTHESES.fullmatch(line)
            if found is not None and len(found[2].split()) <= MAX_WORDS:
                mentions.append(Mention(found[2], found[3]))
                shape = "parentheses"
                continue
        elif shape is not None and _simple(shape, line, labels, mentions):
            continue
        if shape is None and line[-1] == ":":
            if skipped or declined or not _LEAD_IN.fullmatch(line):
                return None
            skipped = (line,)
        elif shape is None and (shape := next((name for name in _candidates(line)
                                              if _simple(name, line, labels, mentions)), None)) is not None:
            continue
        elif shape in (None, "parentheses") and _DECLINED_PLAIN.fullmatch(line):
            declined.append(line)
        else:
            return None
    return mentions, shape, skipped, declined


def corrects(text: str) -> bool:
    """Whether ``text`` (a line, or a whole answer) announces a corrected list: "corrected", "correct", "final",
    "revised" or "updated" before "answer", "list", "version" or "output" ("the corrected answer would be",
    "Final answer"). The second word is looked for first: it is rare in a list of entities."""
    lowered = text.lower()
    for word in _ANNOUNCED:
        start = lowered.find(word)
        while start >= 0:
            end = start + len(word)
            # a whole word, after whitespace; the word before it, with the character before that (a word boundary
            # there, or not): 10 characters at most
            if (start and lowered[start - 1].isspace() and not (end < len(lowered) and _word(lowered[end]))
                    and _CORRECTING.search(lowered[max(0, start - 80):start].rstrip()[-10:])):
                return True
            start = lowered.find(word, end)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _candidates(line: str) -> tuple[str, ...]:
    """The shapes of :data:`SIMPLE` other than ``parentheses`` (tried first) a line can be, by its ends: ``)`` ends
    tuples, a colon is in the colon shapes, a dash in the dash shape."""
    if line[-1] == ")":
        return ("tuples",) if line[0] == "(" else ()
    return ("colon", "type_lines") if ":" in line else ("dash",)


def _simple(shape: str, line: str, labels: Collection[str], mentions: list[Mention]) -> bool:
    """Whether ``line`` is a plain line of ``shape`` (see :func:`simple_lines`); its mentions added when it is."""
    found = SIMPLE[shape].fullmatch(line)
    if found is None:
        return False
    if shape == "type_lines":
        return _typed_items(found.group(1), found.group(2), labels, mentions)
    string, kind = found.groups()[-2:]
    if len(string.split()) > MAX_WORDS or (shape == "colon" and not (
            _known(kind, labels) and not _known(string, labels) and string.lower() not in _NOT_COLON_STRINGS)):
        return False
    mentions.append(Mention(string, kind))
    return True


def _typed_items(kind: str, items: str, labels: Collection[str], mentions: list[Mention]) -> bool:
    """A plain ``TYPE: a, b`` line read into ``mentions``, when it is one :func:`_colon` reads so for certain: a
    type the gold uses, items that are none of its types, none of them saying none; False otherwise."""
    if not _known(kind, labels) or _known(items.strip(), labels) or says_none(items) or "[" in items:
        return False
    strings = [item.strip() for item in _ITEMS.split(items)]
    if any(not s or len(s.split()) > 12 or says_none(s) for s in strings):
        return False
    mentions += [Mention(s, kind) for s in strings]
    return True


def _settle(read: list[_Line]) -> None:
    """Each colon line read one way: by its own vote, else as the answer's other colon lines went."""
    colons = [line for line in read if line.kind == "colon"]
    if not colons:
        return
    majority = 1 if sum(1 for c in colons if c.vote > 0) > sum(1 for c in colons if c.vote < 0) else -1
    for line in colons:
        type_first, string_first = line.colon
        vote = line.vote or majority
        if (vote > 0 and type_first is None) or (vote < 0 and string_first is None):
            vote = -vote
        line.shape = "type_lines" if vote > 0 else "colon"
        line.mentions = type_first if vote > 0 else string_first  # type: ignore[assignment]
        line.kind = "mentions" if line.mentions or line.shape == "colon" else "none"


def _answer(read: list[_Line], corrected: tuple[str, ...]) -> Answer:
    named = [line for line in read if line.kind == "mentions"]
    shapes = Counter(line.shape for line in named) if len({line.shape for line in named}) > 1 else None
    shape = max(shapes, key=lambda s: (shapes[s], -LINE_SHAPES.index(s))) if shapes else (
        named[0].shape if named else "empty")
    if not named and any(line.kind == "declined" for line in read):
        shape = Counter(line.shape for line in read if line.kind == "declined").most_common(1)[0][0]
    return Answer(tuple(m for line in named for m in line.mentions), shape,
                  skipped=tuple(line.text for line in read if line.kind in ("prose", "announces")),
                  declined=tuple(line.text for line in read if line.kind == "declined"), corrected=corrected)
