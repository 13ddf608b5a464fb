"""Renderings of a result, formatting and drawing only (no arithmetic): report tables, conlleval's text, Trainer's
flat dict, plots, precision-recall curves, a benchmark's bars and steps and their colours, a language model's answers
under both protocols."""
