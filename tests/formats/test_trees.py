"""NLTK chunk trees read as they come (nested_span_f1.formats.trees), and scored as ``nltk.chunk.ChunkScore``
scores them: the same true positives, false positives and false negatives, the same precision, recall and IOB
accuracy to the last digit, and F1 the same up to the order of its operations (ChunkScore computes
``1 / (0.5 / p + 0.5 / r)``, this package ``2 * p * r / (p + r)`` as scikit-learn and seqeval do). On the book's
RegexpParser grammars (chapter 7) over the shipped CoNLL-2000-format sample, on a real chunker's output for the
CoNLL-2000 test set (../shared/data/conll2000), and on generated trees."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

nltk = pytest.importorskip("nltk")
from nltk import Tree
from nltk.chunk import ChunkScore, conlltags2tree, tree2conlltags

from nested_span_f1 import sample_path, score_exact, score_nested
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.formats.trees import trees_to_corpus

# chapter 7 of the NLTK book: the regular-expression NP chunker (7.3) and the cascaded chunker (7.4)
BOOK_NP = r"NP: {<[CDJNP].*>+}"
BOOK_CASCADE = r"""
  NP: {<DT|JJ|NN.*>+}
  PP: {<IN><NP>}
  VP: {<VB.*><NP|PP|CLAUSE>+$}
  CLAUSE: {<NP><VP>}
  """
SEVERAL_TYPES = r"""
  NP: {<DT|PRP\$|POS|CD|JJ.*|NN.*>+}
  PP: {<IN|TO>}
  VP: {<MD>?<VB.*>+}
  """


def chunked_sample(types=None):
    """The shipped sample's sentences as ``conll2000.chunked_sents(chunk_types=types)`` reads the corpus: a tree a
    sentence, the chunk tags of other types read as O (nltk's ConllChunkCorpusReader calls conlltags2tree so)."""
    rows = read_columns(sample_path("chunks.conll")).rows
    return [conlltags2tree([(w, pos, tag if types is None or tag[2:] in types else "O") for w, pos, tag in sentence])
            for sentence in rows]


def chunk_score(gold, guessed, **options):
    score = ChunkScore(**options)
    for correct, guess in zip(gold, guessed):
        score.score(correct, guess)
    return score


def assert_same_numbers(ours, theirs):
    """``ours``: a result with overall_precision/recall/f1; ``theirs``: a ChunkScore."""
    assert ours["overall_precision"] == theirs.precision()
    assert ours["overall_recall"] == theirs.recall()
    p, r = theirs.precision(), theirs.recall()
    assert ours["overall_f1"] == (2 * p * r / (p + r) if p + r else 0.0)
    assert math.isclose(ours["overall_f1"], theirs.f_measure(), rel_tol=1e-15, abs_tol=0.0)


def counts(result):
    return result["tp"], result["fp"], result["fn"]


def nltk_counts(score):
    return len(score.correct()) - len(score.missed()), len(score.incorrect()), len(score.missed())


def iob(trees):
    return [[tag for _, _, tag in tree2conlltags(tree)] for tree in trees]


def test_the_books_np_chunker_scores_as_chunkscore():
    test_sents = chunked_sample(["NP"])
    chunker = nltk.RegexpParser(BOOK_NP)
    guessed = [chunker.parse(tree.leaves()) for tree in test_sents]
    theirs = chunker.accuracy(test_sents)  # the book's chunker.evaluate(test_sents)
    assert (theirs.precision(), theirs.recall()) == (0.84, 0.8076923076923077)  # the chunker errs
    ours = score_nested(trees_to_corpus(guessed).entities, trees_to_corpus(test_sents).entities)
    assert_same_numbers(ours, theirs)
    assert counts(ours) == nltk_counts(theirs) == (21, 4, 5)
    tags = score_exact(iob(guessed), iob(test_sents))
    assert_same_numbers(tags, theirs)
    assert tags["overall_accuracy"] == theirs.accuracy()


def test_per_type_equals_chunkscore_with_its_chunk_label():
    test_sents = chunked_sample(["NP", "VP", "PP"])
    chunker = nltk.RegexpParser(SEVERAL_TYPES)
    guessed = [chunker.parse(tree.leaves()) for tree in test_sents]
    ours = score_nested(trees_to_corpus(guessed).entities, trees_to_corpus(test_sents).entities, zero_division=0)
    assert sorted(label for label in ours if label.isupper()) == ["NP", "PP", "VP"]
    for label in ("NP", "VP", "PP"):
        theirs = chunk_score(test_sents, guessed, chunk_label=label)
        assert ours[label]["precision"] == theirs.precision() and ours[label]["recall"] == theirs.recall()
        assert math.isclose(ours[label]["f1"], theirs.f_measure(), rel_tol=1e-15)
        assert ours[label]["number"] == len(theirs)
    assert_same_numbers(ours, chunk_score(test_sents, guessed))


def test_a_cascade_nests_chunks_which_chunkscore_reads_at_the_top_only():
    test_sents = chunked_sample(["NP", "VP", "PP"])
    chunker = nltk.RegexpParser(BOOK_CASCADE)
    guessed = [chunker.parse(tree.leaves()) for tree in test_sents]
    assert any(isinstance(child, Tree) for tree in guessed for chunk in tree if isinstance(chunk, Tree)
               for child in chunk)  # the cascade nests
    gold = trees_to_corpus(test_sents).entities
    top = score_nested(trees_to_corpus(guessed, nested=False).entities, gold, zero_division=0)
    assert_same_numbers(top, chunk_score(test_sents, guessed))
    every = trees_to_corpus(guessed)
    assert sum(map(len, every.entities)) > sum(map(len, trees_to_corpus(guessed, nested=False).entities))
    assert score_nested(every.entities, gold, zero_division=0)["tp"] > top["tp"]


def test_a_real_chunkers_output_on_conll2000(shared_data):
    """A real system's CoNLL-2000 test output (ExplainaBoard's) against the gold, both as trees built by nltk's
    conlltags2tree (the files hold no part-of-speech column: the leaves' tags are empty). The 5 sentences whose
    predicted file lost its '#' tokens cannot be paired and are left out, as PROVENANCE.md says."""
    folder = shared_data / "conll2000"
    if not (folder / "test.gold.tsv").is_file():
        pytest.skip(f"no CoNLL-2000 test files in {folder}")
    gold, pred = (read_columns(folder / f"test.{side}.tsv", "\t").rows for side in ("gold", "pred"))
    pairs = [(g, p) for g, p in zip(gold, pred) if len(g) == len(p)]
    assert (len(gold), len(pairs)) == (2012, 2007)
    correct = [conlltags2tree([(w, "", tag) for w, tag in g]) for g, _ in pairs]
    guessed = [conlltags2tree([(w, "", tag) for w, tag in p]) for _, p in pairs]
    theirs = chunk_score(correct, guessed)
    ours = score_nested(trees_to_corpus(guessed).entities, trees_to_corpus(correct).entities)
    assert_same_numbers(ours, theirs)
    assert counts(ours) == nltk_counts(theirs) and len(theirs) == 23791
    assert round(ours["overall_f1"], 4) == 0.9612
    tags = score_exact(iob(guessed), iob(correct))
    assert_same_numbers(tags, theirs)
    assert tags["overall_accuracy"] == theirs.accuracy()


LABELS = st.sampled_from(["NP", "VP", "PP"])


@st.composite
def flat_tree(draw, n):
    """A sentence tree over ``n`` leaves ``("w{i}", "T")``: runs of leaves, each a chunk or bare leaves."""
    children, i = [], 0
    while i < n:
        size = draw(st.integers(1, n - i))
        leaves = [(f"w{k}", "T") for k in range(i, i + size)]
        label = draw(st.one_of(st.none(), LABELS))
        children.extend(leaves if label is None else [Tree(label, leaves)])
        i += size
    return Tree("S", children)


@st.composite
def nested_tree(draw, n, start=0, depth=0):
    """A tree over leaves ``start..start+n-1`` whose chunks may hold chunks."""
    children, i = [], start
    while i < start + n:
        size = draw(st.integers(1, start + n - i))
        label = draw(st.one_of(st.none(), LABELS))
        if label is None:
            children.extend((f"w{k}", "T") for k in range(i, i + size))
        elif depth < 2 and size > 1 and draw(st.booleans()):
            children.append(Tree(label, list(draw(nested_tree(size, i, depth + 1)))))
        else:
            children.append(Tree(label, [(f"w{k}", "T") for k in range(i, i + size)]))
        i += size
    return Tree("S", children)


@st.composite
def corpora(draw, tree):
    lengths = draw(st.lists(st.integers(1, 10), min_size=1, max_size=6))
    return [draw(tree(n)) for n in lengths], [draw(tree(n)) for n in lengths]


@given(corpora(flat_tree))
def test_answers_flat_trees_score_as_chunkscore(sides):
    gold, guessed = sides
    theirs = chunk_score(gold, guessed)
    ours = score_nested(trees_to_corpus(guessed).entities, trees_to_corpus(gold).entities, zero_division=0)
    assert_same_numbers(ours, theirs)
    assert counts(ours) == nltk_counts(theirs)
    tags = score_exact(iob(guessed), iob(gold), zero_division=0)
    assert counts(tags) == counts(ours) and tags["overall_accuracy"] == theirs.accuracy()


def flattened(tree):
    """``tree`` with each top-level chunk holding its leaves only (the chunks inside it dropped)."""
    return Tree(tree.label(), [Tree(c.label(), c.leaves()) if isinstance(c, Tree) else c for c in tree])


@given(corpora(nested_tree))
def test_answers_nested_trees_score_as_chunkscore_at_the_top(sides):
    """ChunkScore compares a top-level chunk with everything inside it, so that an NP holding another NP is not
    the NP of the same leaves; nested=False compares (start, end, label), ChunkScore's numbers once the chunks
    inside the top-level ones are dropped, and never fewer true positives than ChunkScore finds."""
    gold, guessed = sides
    theirs = chunk_score([flattened(t) for t in gold], [flattened(t) for t in guessed])
    ours = score_nested(trees_to_corpus(guessed, nested=False).entities,
                        trees_to_corpus(gold, nested=False).entities, zero_division=0)
    assert_same_numbers(ours, theirs)
    assert counts(ours) == nltk_counts(theirs)
    assert ours["tp"] >= nltk_counts(chunk_score(gold, guessed))[0]
    every = trees_to_corpus(gold)
    assert every.tokens == trees_to_corpus(gold, nested=False).tokens
    assert sum(map(len, every.entities)) == sum(len(list(tree.subtrees())) - 1 for tree in gold)


def test_the_shapes_a_chunker_returns():
    tree = Tree("S", [Tree("NP", [("The", "DT"), ("cat", "NN")]), ("sat", "VBD"),
                      Tree("PP", [("on", "IN"), Tree("NP", [("the", "DT"), ("mat", "NN")])])])
    one = trees_to_corpus(tree)
    assert one.tokens == [["The", "cat", "sat", "on", "the", "mat"]]
    assert one.entities == [[(0, 2, "NP"), (3, 6, "PP"), (4, 6, "NP")]]
    assert trees_to_corpus(tree, nested=False).entities == [[(0, 2, "NP"), (3, 6, "PP")]]
    assert trees_to_corpus([tree, tree]).entities == one.entities * 2
    words = Tree("S", [Tree("NP", ["the", "cat"]), "sat"])  # leaves that are words alone
    assert trees_to_corpus(words).entities == [[(0, 2, "NP")]]
    flat = Tree("S", [Tree("NP", [("The", "DT"), ("cat", "NN")]), ("sat", "VBD")])
    triples = tree2conlltags(flat)
    assert triples == [("The", "DT", "B-NP"), ("cat", "NN", "I-NP"), ("sat", "VBD", "O")]
    assert trees_to_corpus(triples).entities == trees_to_corpus([triples]).entities == [[(0, 2, "NP")]]
    # conlltags2tree's rule, conlleval's: an I- that continues no chunk of its type starts one
    assert trees_to_corpus([("a", "DT", "I-NP"), ("b", "NN", "I-VP")]).entities == [[(0, 1, "NP"), (1, 2, "VP")]]
    assert trees_to_corpus([]).tokens == [] and trees_to_corpus([Tree("S", [])]).tokens == [[]]


def test_what_is_no_chunker_output_is_refused_by_sentence_and_leaf():
    with pytest.raises(TypeError, match=r"^trees, sentence 1, leaf 1: expected a word or a \(word, tag\) pair, "
                                        r"got 3$"):
        trees_to_corpus([Tree("S", ["a"]), Tree("S", ["a", 3])])
    with pytest.raises(ValueError, match=r"^trees, sentence 0: chunk NP at leaf 1 holds no leaf$"):
        trees_to_corpus(Tree("S", ["a", Tree("NP", [])]))
    with pytest.raises(TypeError, match=r"^trees, sentence 0: the chunk at leaf 0 has label 7, not a string$"):
        trees_to_corpus(Tree("S", [Tree(7, ["a"])]))
    with pytest.raises(ValueError, match=r"^trees, sentence 0, token 1: IOB tag 'NP' is not B-TYPE, I-TYPE or O$"):
        trees_to_corpus([("a", "DT", "B-NP"), ("b", "NN", "NP")])
    with pytest.raises(TypeError, match=r"^trees, sentence 1, token 0: expected a \(word, tag, iob\) triple as "
                                        r"tree2conlltags writes it, got \('a', 'DT'\)$"):
        trees_to_corpus([[("a", "DT", "O")], [("a", "DT")]])
    with pytest.raises(TypeError, match=r"^chunker: expected a list of sentences .*, got set"):
        trees_to_corpus({Tree("S", ["a"]).freeze()}, source="chunker")
