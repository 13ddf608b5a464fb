"""Views of a result (formatting and drawing only, no arithmetic): tables, conlleval's text, plots."""
