"""tactical-round's parts of the page that live beside its panel (``panel``)."""
