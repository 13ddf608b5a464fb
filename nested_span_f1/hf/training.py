"""What the fine-tuning scripts share: an offline tiny model, and a log of every evaluation.

Offline by default (nothing loads from the Hub): :func:`word_tokenizer` builds a
BERT word-piece tokenizer whose vocabulary is the training data's words (as BERT's
own normaliser and pre-tokenizer split them), and :func:`tiny_bert_config` a small
randomly initialised BERT. transformers is imported inside the functions.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def word_tokenizer(sentences: Iterable[Iterable[str]], directory: str | Path) -> Any:
    """A ``BertTokenizerFast`` whose vocabulary holds every piece of the given words.

    The vocabulary is written to ``directory/vocab.txt`` (transformers 5 reads a
    vocabulary only through ``from_pretrained`` of a folder), then the tokenizer is
    saved there too, so ``directory`` can be passed to ``from_pretrained`` later.
    """
    # transformers 5 defines it as an alias that type checkers do not see
    from transformers import BertTokenizerFast  # type: ignore[attr-defined]

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "vocab.txt").write_text("\n".join(SPECIAL_TOKENS) + "\n", encoding="utf-8")
    splitter = BertTokenizerFast.from_pretrained(str(directory)).backend_tokenizer
    pieces: set[str] = set()
    for words in sentences:
        for word in words:
            normal = splitter.normalizer.normalize_str(word)
            pieces.update(piece for piece, _ in splitter.pre_tokenizer.pre_tokenize_str(normal))
    vocabulary = [*SPECIAL_TOKENS, *sorted(pieces - set(SPECIAL_TOKENS))]
    (directory / "vocab.txt").write_text("\n".join(vocabulary) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast.from_pretrained(str(directory))
    tokenizer.save_pretrained(str(directory))
    return tokenizer


def tiny_bert_config(vocab_size: int, **overrides: Any) -> Any:
    """A small BERT configuration (one layer, hidden size 32) that trains in seconds on a CPU."""
    from transformers import BertConfig

    settings = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 64,
                "max_position_embeddings": 512, **overrides}
    return BertConfig(vocab_size=vocab_size, **settings)


def evaluation_log() -> Any:
    """A ``TrainerCallback`` that keeps the metrics of every evaluation, with its step and epoch, in
    ``.evaluations``. It prints nothing: Trainer prints them already."""
    from transformers import TrainerCallback

    class EvaluationLog(TrainerCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.evaluations: list[dict[str, Any]] = []

        def on_evaluate(self, args: Any, state: Any, control: Any, metrics: Mapping[str, Any] | None = None,
                        **kwargs: Any) -> None:
            del args, control  # TrainerCallback's signature; this callback reads the state and the metrics
            self.evaluations.append({"step": state.global_step, "epoch": state.epoch, **(metrics or {})})

    return EvaluationLog()


def splits(train: str | Path, validation: str | Path | None, test: str | Path | None) -> dict[str, str | Path]:
    """The file of each split: validation defaults to the training file, test to the validation file."""
    paths = {"train": train, "validation": validation or train}
    paths["test"] = test or paths["validation"]
    return paths


def write_json(data: Any, path: str | Path) -> None:
    """Write ``data`` as indented JSON."""
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
