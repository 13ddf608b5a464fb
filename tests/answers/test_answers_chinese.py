"""Language models' answers in Chinese typography (issue 48, item 9), read as the ASCII shapes are.

The thirteen kinds of answer the issue found (ten unreadable, one read as one LOC mention, one as an entity named
无, one a list whose Chinese keys were not read), each with its exact mentions and shape; ordinary Chinese prose read
as no mention; placement's fallback folding full-width ASCII and the middle dots of names; and an answers file
scored end to end against a Chinese gold.
"""
from __future__ import annotations

import json

import pytest

from nested_span_f1.answers import score_answers
from nested_span_f1.answers.locate import locate
from nested_span_f1.answers.parse import NOTHING_FOUND, parse_answer

TEXT = "周杰伦和林俊杰在台湾的ＩＢＭ大楼见面，安倍・晋三也来了。"
CODES = {"PER", "LOC", "ORG"}
CHINESE = {"人名", "地名", "机构名"}
TWO = [("周杰伦", "PER"), ("台湾", "LOC")]
TWO_CHINESE = [("周杰伦", "人名"), ("台湾", "地名")]


def read(text, labels):
    answer = parse_answer(text, document=TEXT, labels=labels)
    return answer.shape, [(m.text, m.label) for m in answer.mentions]


@pytest.mark.parametrize("text, labels, shape, mentions", [
    pytest.param("周杰伦（PER）\n台湾（LOC）", CODES, "parentheses", TWO, id="1-full-width-parentheses"),
    pytest.param("1. 周杰伦（人名）\n2. 台湾（地名）", CHINESE, "parentheses", TWO_CHINESE, id="2-numbered-chinese-types"),
    pytest.param("周杰伦：PER\n台湾：LOC", CODES, "colon", TWO, id="3-full-width-colon"),
    pytest.param("人名：周杰伦，林俊杰\n地名：台湾", CHINESE, "type_lines",
                 [("周杰伦", "人名"), ("林俊杰", "人名"), ("台湾", "地名")], id="4-full-width-comma"),
    pytest.param("人名：周杰伦、林俊杰\n地名：台湾；北京", CHINESE, "type_lines",
                 [("周杰伦", "人名"), ("林俊杰", "人名"), ("台湾", "地名"), ("北京", "地名")], id="5-enumeration-comma"),
    pytest.param("（周杰伦，PER）\n（台湾，LOC）", CODES, "tuples", TWO, id="6-full-width-tuples"),
    pytest.param("无", CODES, "empty", [], id="7-none"),
    pytest.param("没有实体", CODES, "empty", [], id="8-no-entity"),
    pytest.param("无。", CODES, "empty", [], id="9-none-full-stop"),
    pytest.param("| 实体 | 类型 |\n| --- | --- |\n| 周杰伦 | PER |\n| 台湾 | LOC |", CODES, "table", TWO,
                 id="10-chinese-table-headers"),
    pytest.param('[{"实体": "周杰伦", "类型": "PER"}, {"实体": "台湾", "类型": "LOC"}]', CODES, "list", TWO,
                 id="11-chinese-keys"),
    # was one LOC mention '周杰伦 (PER)、台湾'
    pytest.param("周杰伦 (PER)、台湾 (LOC)", CODES, "parentheses", TWO, id="12-two-mentions-enumeration-comma"),
    # was an entity named 无
    pytest.param("人名: 无\n地名: 台湾", CHINESE, "type_lines", [("台湾", "地名")], id="13-type-with-none"),
    # more of the same typography
    pytest.param("周杰伦（PER）、台湾（LOC）", CODES, "parentheses", TWO, id="full-width-parentheses-on-one-line"),
    pytest.param("人名：无\n地名：台湾", CHINESE, "type_lines", [("台湾", "地名")], id="type-with-none-full-width"),
    pytest.param('{"人名": ["周杰伦"], "地名": "无"}', CHINESE, "object", [("周杰伦", "人名")], id="object-none"),
    pytest.param("以下是文本中的命名实体：\n周杰伦（PER）\n台湾（LOC）", CODES, "parentheses", TWO, id="lead-in"),
    pytest.param("答案：周杰伦（PER）", CODES, "parentheses", [("周杰伦", "PER")], id="announced"),
    pytest.param("文本中没有任何命名实体。", CODES, "empty", [], id="the-text-has-none"),
    pytest.param("未发现实体", CODES, "empty", [], id="none-found"),
])
def test_chinese_typography_is_read_as_its_ascii_shape(text, labels, shape, mentions):
    assert read(text, labels) == (shape, mentions)


def test_what_is_not_read_is_counted():
    answer = parse_answer("以下是识别出的实体：\n周杰伦（PER）\n林俊杰（不是实体）\n注：台湾是地名。", labels=CODES)
    assert answer.mentions[0].text == "周杰伦" and len(answer.mentions) == 1
    assert answer.skipped == ("以下是识别出的实体：", "注：台湾是地名。")
    assert answer.declined == ("林俊杰（不是实体）",)
    # a corrected list, announced in Chinese, replaces the first
    answer = parse_answer("周杰伦（PER）\n最终答案：\n周杰伦（PER）\n台湾（LOC）", labels=CODES)
    assert [(m.text, m.label) for m in answer.mentions] == TWO and answer.corrected == ("周杰伦（PER）",)


@pytest.mark.parametrize("text", [
    "周杰伦出生于台湾。",
    "我认为文本中的人名是周杰伦，地名是台湾。",
    "周杰伦（台湾著名歌手）",  # a parenthesis that is no type the gold uses
    "注：周杰伦是歌手。",
    "以下是文本中的实体：",
    "实体：周杰伦，类型：人名",  # 'entity: ..., type: ...' is prose, as 'Entity: Paris, Type: LOC' is
])
def test_chinese_prose_is_no_mention(text):
    answer = parse_answer(text, labels=CODES | CHINESE)
    assert (answer.shape, answer.mentions, answer.error) == ("unparseable", (), NOTHING_FOUND)


def test_a_chinese_type_is_read_only_where_the_gold_uses_it():
    """Without spaces or case nothing tells 人名 from prose: it is a type when the gold (or the label map) names it."""
    assert read("周杰伦（人名）", CODES)[1] == [] and read("周杰伦（人名）", CHINESE)[1] == [("周杰伦", "人名")]


@pytest.mark.parametrize("mention, category, found", [
    ("周杰伦", "exact", "周杰伦"),
    ("IBM", "normalized", "ＩＢＭ"),  # full-width ASCII in the text
    ("ｉｂｍ", "normalized", "ＩＢＭ"),
    ("安倍·晋三", "normalized", "安倍・晋三"),  # the Chinese middle dot for the Japanese one
    ("安倍･晋三", "normalized", "安倍・晋三"),  # the half-width katakana one
    ("安倍晋三", "not_in_text", None),
])
def test_placement_folds_full_width_ascii_and_middle_dots(mention, category, found):
    placed = locate(TEXT, [(mention, "X")])
    assert placed.categories == [category]
    if found is not None:
        start, end, _ = placed.spans[0]
        assert TEXT[start:end] == found  # the text's own characters: offsets never move


def test_locate_full_width_parentheses_inside_a_name():
    """A name the answer wrote with ASCII parentheses where the text has full-width ones is placed on the text's."""
    text = "中国（北京）有限公司成立了"
    assert locate(text, [("中国(北京)有限公司", "ORG")]).spans == [(0, 10, "ORG")]


def test_an_answers_file_scored_against_a_chinese_gold(tmp_path):
    gold = {"id": "d1", "text": TEXT, "entities": [
        {"start": 0, "end": 3, "label": "PER"}, {"start": 4, "end": 7, "label": "PER"},
        {"start": 8, "end": 10, "label": "LOC"}, {"start": 11, "end": 14, "label": "ORG"},
        {"start": 19, "end": 24, "label": "PER"}]}
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(gold, ensure_ascii=False) + "\n", encoding="utf-8")
    answer = "以下是识别出的实体：\n人名：周杰伦、林俊杰、安倍·晋三\n地名：台湾\n机构名：IBM"
    result = score_answers([{"id": "d1", "output": answer}], str(path), metric="exact", zero_division=0,
                             label_map={"人名": "PER", "地名": "LOC", "机构名": "ORG"})
    located, report = result["located"], result["answers"]
    assert (located["tp"], located["fp"], located["fn"]) == (5, 0, 0)
    assert (report["exact"], report["normalized"], report["skipped_lines"]) == (3, 2, 1)
    assert report["shapes"] == {"type_lines": 1} and report["unparseable"] == 0
    # the string protocol compares UniversalNER's normalised strings: IBM is not ＩＢＭ there, nor · ・
    assert (result["strings"]["tp"], result["strings"]["fp"], result["strings"]["fn"]) == (3, 2, 2)
