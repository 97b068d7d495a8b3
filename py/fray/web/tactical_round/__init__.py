"""tactical-round's parts of the page that live beside its panel (tactical_round_panel.py)."""
