"""The opening book: config/book.yaml in, config/book.checked.json out.

source.py loads and validates the YAML, tree.py expands its lines into
positions (transpositions by position, left-right mirrors folded), check.py
and engine.py check every book move with Fairy-Stockfish (results cached
on disk), data.py writes the checked JSON, zh.py reads Chinese notation.
"""
