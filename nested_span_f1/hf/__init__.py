"""Hugging Face glue: the evaluate modules' base class and input kinds, Trainer factories, training helpers.

Imports of evaluate, datasets, torch and transformers stay inside the functions
that need them, so this folder costs nothing until it is used.
"""
