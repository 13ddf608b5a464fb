"""``python -m nested_span_f1.cli``: the ``nested-span-f1`` command."""
import sys

from .main import main

sys.exit(main())
