"""Hub Space for lenient_span_f1: paste CoNLL columns or JSON, upload a file or load an example; ``python app.py`` serves it.

A Space runs this file from inside its folder, where a metric script named like
the ``nested_span_f1`` package (the nested metric's) would shadow it: the folder
leaves ``sys.path`` before anything is imported.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from nested_span_f1.space.app import build_app

demo = build_app(HERE, "lenient_span_f1")

if __name__ == "__main__":
    demo.launch()
