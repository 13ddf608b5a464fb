"""The ``nested-span-f1`` command line: :mod:`.main` parses, one module a sub-command in ``commands/``."""
