"""Hub Space for span_f1: paste tag sequences, get entity-level scores."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from nested_span_f1.space import build_app  # noqa: E402

EXAMPLE = (
    [["O", "B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]],
    [["O", "B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]],
    {"mode": None, "scheme": None, "zero_division": 0},
)
demo = build_app(str(HERE), "span_f1: exact-match entity F1", EXAMPLE)

if __name__ == "__main__":
    demo.launch()
