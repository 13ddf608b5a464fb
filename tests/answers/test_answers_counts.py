"""An answer system's counts add across batches, round-trip through JSON and refuse other settings."""
from __future__ import annotations

import json
import random

import pytest

from nested_span_f1.answers.counts import AnswerCounter, AnswerCounts, PlaceTally
from nested_span_f1.answers.locate import CATEGORIES
from nested_span_f1.answers.parse import parse_answer

TEXT = "Barack Obama met Angela Merkel in Berlin . Obama flew home to Washington ."
GOLD = [(0, 12, "PER"), (17, 30, "PER"), (34, 40, "LOC"), (43, 48, "PER"), (62, 72, "LOC")]
ANSWERS = [
    '[["Barack Obama", "PER"], ["Angela Merkel", "PER"], ["Berlin", "LOC"], ["Obama", "PER"], ["Washington", "LOC"]]',
    '[["Barack Obama", "PER"], ["Merkel", "ORG"], ["Rome", "LOC"], ["Berlin", "LOC"], ["Berlin", "LOC"]]',
    "Sorry, I cannot help with that.",
    '{"PER": ["obama", "OBAMA"], "LOC": ["washington"]}',
    "<PER>Barack Obama</PER> met <PER>Angela Merkel</PER> in <LOC>Berlin</LOC> . Obama flew home to Washington .",
    "",
]


def test_place_tally_fields_are_the_categories():
    assert tuple(PlaceTally.__dataclass_fields__)[1:-1] == CATEGORIES


def counted(answers, **options):
    counter = AnswerCounter(**options)
    spans = [counter.add(f"d{k}", TEXT, GOLD, [(None, parse_answer(a))]).spans for k, a in enumerate(answers)]
    return counter.counts(), spans


def test_hand_counted_documents():
    counts, spans = counted(ANSWERS)
    assert spans[0] == GOLD
    # what could not be placed (Rome: nowhere; the second Berlin: it occurs once) is a span past the text's end
    n = len(TEXT)
    assert spans[1] == [(0, 12, "PER"), (24, 30, "ORG"), (34, 40, "LOC"), (n + 1, n + 5, "LOC"), (n + 6, n + 12, "LOC")]
    assert spans[2] == [] and spans[5] == []
    assert spans[3] == [(7, 12, "PER"), (43, 48, "PER"), (62, 72, "LOC")]
    assert spans[4] == [(0, 12, "PER"), (17, 30, "PER"), (34, 40, "LOC")]
    assert counts.answers == {"list": 2, "unparseable": 1, "object": 1, "tags": 1, "empty": 1}
    assert counts.unparseable_ids == ("d2",)
    assert counts.unparseable == {"PER": 3, "LOC": 2}
    assert counts.placement["PER"] == PlaceTally(mentions=8, markup=2, exact=4, normalized=2, spans=8)
    # LOC: d0 Berlin, Washington; d1 Rome (nowhere), Berlin, Berlin (it occurs once); d3 washington; d4 Berlin
    assert counts.placement["LOC"] == PlaceTally(mentions=7, markup=1, exact=3, normalized=1, not_in_text=1,
                                                 excess=1, spans=5)
    assert counts.placement["ORG"] == PlaceTally(mentions=1, exact=1, spans=1)
    # strings, per document as sets: d0 5/5 (Obama counts once: the gold set holds "obama" and "barack obama"),
    # d1 PER 1 of 1 predicted, LOC 1 of 2 ("rome" wrong), d3 PER {"obama"} 1 of 1, LOC {"washington"} 1 of 1
    assert counts.strings.labels["PER"].tp == 3 + 1 + 0 + 1 + 2 + 0
    assert counts.strings.labels["PER"].predicted == 3 + 1 + 0 + 1 + 2 + 0
    assert counts.strings.labels["PER"].gold == 3 * 6


def test_counts_of_batches_add_to_the_counts_of_the_whole():
    rng = random.Random(0)
    answers = [rng.choice(ANSWERS) for _ in range(40)]
    whole, _ = counted(answers)
    parts = [counted(answers[k:k + 7])[0] for k in range(0, 40, 7)]
    total = sum(parts)
    assert total.strings == whole.strings and total.placement == whole.placement
    assert total.unparseable == whole.unparseable and total.answers == whole.answers
    assert len(total.unparseable_ids) == len(whole.unparseable_ids)


def test_counts_round_trip_through_json():
    counts, _ = counted(ANSWERS, normalization="lowercase", multiset=True, policy="every", fallback=False)
    again = AnswerCounts.from_dict(json.loads(json.dumps(counts.to_dict())))
    assert again == counts
    assert again.normalization == "lowercase" and again.policy == "every" and again.multiset


@pytest.mark.parametrize("option", [{"normalization": "none"}, {"multiset": True}, {"policy": "every"},
                                    {"fallback": False}, {"inner_last": False}])
def test_counts_made_with_other_settings_do_not_add(option):
    name = next(iter(option))
    with pytest.raises(ValueError, match=f"made with {name}="):
        counted(ANSWERS[:1])[0] + counted(ANSWERS[:1], **option)[0]


def test_unknown_policy_is_refused_when_counting_starts():
    with pytest.raises(ValueError, match="policy must be one of kth, every"):
        AnswerCounter(policy="all")
