"""The strike-rank panel's parts, one module per thing a GM looks at: the option lists and helpers
they share (``common``), the declaration forms and the SR order (``declare``), the attack panel
(``attack``), the exchange result and the GM's questions (``questions``), the combatant card's extras
(``card``), the add dialog's body / armour / weapons section (``add_form``), and the readers that
turn a submitted form into one ``sr.*`` action (``parse``). ``fray.games.strike_rank.web.panel`` puts them
together as the ``PANEL`` the ruleset names. Every part builds its markup with ``fray.web.html``
(``h``, ``html``, ``block``), so a name or any other text of the fight is escaped wherever it goes."""
