"""Sub-commands of the ``nested-span-f1`` CLI, one module each (``add_parser`` + ``run``)."""
