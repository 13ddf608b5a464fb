"""The evaluate metric modules, shipped as package data (see ``nested_span_f1.metric_path``)."""
