"""Hub Space for lenient_span_f1: paste CoNLL columns or JSON, upload a file or load an example; ``python app.py`` serves it.

A Space runs this file from inside its folder, where a metric script named like
the ``nested_span_f1`` package (the nested metric's) would shadow it: the folder
leaves ``sys.path`` before anything is imported. Without the packages the app needs,
it says which in one line, as the ``nested-span-f1`` command does, not in a traceback.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

try:
    from nested_span_f1.space.app import build_app, serve

    demo = build_app(HERE, "lenient")
except ModuleNotFoundError as missing:
    print(f"app.py: error: this needs {(missing.name or 'nested_span_f1').partition('.')[0]}; install it with "
          'pip install "nested-span-f1[app]" (in a Space folder: pip install -r requirements.txt)', file=sys.stderr)
    sys.exit(2)

if __name__ == "__main__":
    serve(demo)  # stopped by SIGTERM as by Ctrl-C, so that nothing is left in the temporary folder
