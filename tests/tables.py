"""The corpora the Arrow and Spark tests score as tables: CoNLL-2003 test with its two real system outputs, GENIA
with seeded predictions, and a random corpus whose sentences are often empty."""
from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa

from nested_span_f1.formats import read_corpus

CONLL_SYSTEMS = ("elmo", "flair")
SPAN = pa.struct([("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())])


def read_tags(path: Path) -> list[list[str]]:
    """The last column of a token-per-line file, one list a sentence (blank lines between sentences)."""
    sentences: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            sentences[-1].append(line.split("\t")[-1])
        elif sentences[-1]:
            sentences.append([])
    return [s for s in sentences if s]


def conll2003(shared_data: Path) -> dict[str, list[list[str]]]:
    """Tags of the CoNLL-2003 test gold ("gold") and of the two systems, by name."""
    folder = shared_data / "conll2003"
    return {name: read_tags(folder / f"test.{name}.conll") for name in ("gold", *CONLL_SYSTEMS)}


def span_column(sentences: list[list[tuple[int, int, str]]]) -> pa.Array:
    return pa.array([[{"start": b, "end": e, "label": lab} for b, e, lab in spans] for spans in sentences],
                    pa.list_(SPAN))


def perturbed(sentences: list[list[tuple[int, int, str]]], lengths: list[int], seed: int,
              labels: tuple[str, ...]) -> list[list[tuple[int, int, str]]]:
    """A seeded "system output": spans kept, dropped, relabelled, their ends moved, and spurious ones added."""
    rng = random.Random(seed)
    out = []
    for spans, length in zip(sentences, lengths):
        kept = []
        for b, e, lab in spans:
            roll = rng.random()
            if roll < 0.15:
                continue
            if roll < 0.25:
                lab = rng.choice(labels)
            elif roll < 0.35 and e < length:
                e += 1
            kept.append((b, e, lab))
        if length and rng.random() < 0.2:
            b = rng.randrange(length)
            kept.append((b, rng.randint(b + 1, length), rng.choice(labels)))
        out.append(list(dict.fromkeys(kept)))  # no duplicates: they are tested on the random corpus
    return out


def genia(shared_data: Path) -> tuple[list[list[str]], list[list[tuple[int, int, str]]], list[list[tuple[int, int, str]]]]:
    """GENIA test (document split): tokens, gold spans and seeded predictions."""
    corpus = read_corpus(shared_data / "genia" / "genia-docsplit.test.jsonl")
    gold = [list(spans) for spans in corpus.entities]
    labels = tuple(sorted({lab for spans in gold for _, _, lab in spans}))
    return [list(t) for t in corpus.tokens], gold, perturbed(gold, list(corpus.lengths), 7, labels)


TAGS = ("O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG", "E-ORG", "S-MISC")


def random_corpus(seed: int, sentences: int = 600) -> dict[str, list]:
    """Tags (malformed-free, any prefix mix), spans with duplicates and nesting, sentence lengths; a third of the
    sentences empty."""
    rng = random.Random(seed)
    lengths = [0 if rng.random() < 0.33 else rng.randint(1, 12) for _ in range(sentences)]
    gold_tags = [[rng.choice(TAGS) for _ in range(n)] for n in lengths]
    pred_tags = [[t if rng.random() < 0.8 else rng.choice(TAGS) for t in s] for s in gold_tags]

    def spans(n: int) -> list[tuple[int, int, str]]:
        out = []
        for _ in range(rng.randint(0, 4) if n else 0):
            b = rng.randrange(n)
            out.append((b, rng.randint(b + 1, n), rng.choice("ABC")))
        return out

    gold = [spans(n) for n in lengths]
    pred = [[s for s in g if rng.random() < 0.6] + spans(n) + g[:1] * (rng.random() < 0.1) for g, n in zip(gold, lengths)]
    return {"lengths": lengths, "gold_tags": gold_tags, "pred_tags": pred_tags, "gold": gold, "pred": pred}


def table(corpus: dict[str, list]) -> pa.Table:
    """A random corpus as one table: tags, spans and tokens columns."""
    return pa.table({
        "pred_tags": pa.array(corpus["pred_tags"], pa.list_(pa.string())),
        "gold_tags": pa.array(corpus["gold_tags"], pa.list_(pa.string())),
        "pred": span_column(corpus["pred"]),
        "gold": span_column(corpus["gold"]),
        "tokens": pa.array([["w"] * n for n in corpus["lengths"]], pa.list_(pa.string())),
    })


def spark_layout(folder: Path, data: dict[str, list]) -> dict[str, list]:
    """The rows of ``data`` (columns ``pred_tags``, ``gold_tags``) as a folder that Spark and Hive write, and the rows
    that Spark's reader reads from it: files named ``part-00000-<id>.c000.snappy.parquet``, ``part-00001-<id>.c000``
    (no suffix), ``000000_0`` and ``000001_0`` (Hive), an empty file; beside them what Spark skips,
    holding rows it must not count: ``_SUCCESS``, ``_temporary/``, ``.part-00002.crc``, ``part-00003._COPYING_``."""
    import pyarrow.parquet as pq

    whole = pa.table({"pred_tags": pa.array(data["pred_tags"], pa.list_(pa.string())),
                      "gold_tags": pa.array(data["gold_tags"], pa.list_(pa.string()))})
    cut = [whole.num_rows * k // 5 for k in range(6)]
    part = [whole.slice(cut[k], cut[k + 1] - cut[k]) for k in range(5)]
    folder.mkdir()
    (folder / "_temporary" / "0").mkdir(parents=True)
    pq.write_table(part[0], folder / "part-00000-abc.c000.snappy.parquet", row_group_size=50)
    pq.write_table(part[1], folder / "part-00001-abc.c000")
    pq.write_table(part[2], folder / "000000_0")
    pq.write_table(part[3], folder / "000001_0")
    (folder / "part-00004-abc.c000").write_bytes(b"")
    (folder / "_SUCCESS").write_bytes(b"")
    for skipped in ("_temporary/0/part-00009.parquet", ".part-00002.crc", "part-00003._COPYING_"):
        pq.write_table(part[4], folder / skipped)
    read = part[0].num_rows + part[1].num_rows + part[2].num_rows + part[3].num_rows
    return {key: values[:read] for key, values in data.items()}
