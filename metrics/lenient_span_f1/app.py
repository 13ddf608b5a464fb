"""The Hub Space of the metric script beside this file: ``python app.py`` serves it (the app is nested_span_f1/space/app.py).

The same file in every metric folder and in every Space folder ``nested-span-f1 space`` writes: it names no
metric, the app finds the folder's script and the metric its class names. A Space runs it from inside its
folder, where a metric script named like the ``nested_span_f1`` package (the nested metric's) would shadow the
package: the folder leaves ``sys.path`` before anything is imported. Without the packages the app needs, it says
which in one line, as the ``nested-span-f1`` command does, not in a traceback.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

try:
    from nested_span_f1.space.app import build_app, serve

    demo = build_app(HERE)
except ModuleNotFoundError as missing:
    needed = (missing.name or "nested_span_f1").partition(".")[0]
    print(f"app.py: error: this needs {needed}; install it in the clone with python -m pip install \".[app]\" "
          "(in a Space folder: pip install -r requirements.txt)", file=sys.stderr)
    sys.exit(2)

if __name__ == "__main__":
    serve(demo)  # stopped by SIGTERM as by Ctrl-C, so that nothing is left in the temporary folder
