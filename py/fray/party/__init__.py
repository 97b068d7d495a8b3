"""The party outlives the fight (issue 35): characters that keep their wounds, fatigue and trauma from
one encounter to the next, and time between fights that heals them as the rules say.

A *character* is plain JSON data, kept beside the encounters (never inside one)::

    {"id": "k1", "ruleset": "strike-rank",
     "sheet": {...what the add form sends, without a position...},
     "carried": {...what the last fight left on it, per game (``carry``)...},
     "dead": false,
     "encounters": ["<encounter id>", ...],
     "kept_from": {"encounter": "<encounter id>", "combatant": "<combatant id>"}}  (kept from a fight)

* ``character``: making one (from the add form's sheet, a ready-made combatant, a bestiary template,
  or a combatant in a fight) and checking one.
* ``join``: the ``join_party`` action that puts characters into an encounter, each in formation and
  linked to its character, with what it carries; it is also the one check of a character's carried
  state (a wound on a location its body does not have is refused there, whatever it came from).
* ``carry``: what a fight leaves on each linked combatant, proposed for the GM to change.
* ``healing``: time passes (strike-rank Natural Healing and Treatment).
* ``campaign``: the campaign file: characters and the encounters they were in.
"""
