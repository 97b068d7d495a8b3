"""What the page asks when an imported file is an encounter already kept in this browser (issue
10: "Importing the same file twice makes two identical entries (offer replace or keep both)")."""

from __future__ import annotations

from .html import Markup, html
from .render import button


def _changes(n: int) -> str:
    return f"{n} change{'s' if n != 1 else ''}"


def duplicate_dialog(name: str, filename: str, verdict: str, n: int) -> Markup:
    """``verdict`` and ``n`` are ``savefile.compare_histories(kept, imported)``."""
    said = {
        "same": "It is the same fight, change for change: importing it again adds nothing.",
        "ahead": f"The file is the same fight {_changes(n)} further on.",
        "behind": f"The one here is the same fight {_changes(n)} further on than the file.",
        "different": "It is a different fight (or the two went separate ways) with the same name.",
    }[verdict]
    loses = {
        "same": "nothing is lost",
        "ahead": "nothing is lost: the file holds all of it and more",
        "behind": "its last change is lost" if n == 1 else f"its last {n} changes are lost",
        "different": "the one here is lost",
    }[verdict]
    primary = "import-keep" if verdict in ("different", "behind") else "import-replace"
    keep = button("Keep both", "import-keep", "primary" if primary == "import-keep" else "secondary")
    replace = button(f"Replace the one here ({loses})", "import-replace",
                     "primary" if primary == "import-replace" else "secondary danger")
    return html('<div class="import-dup"><h2 id="dlg-title">{name} is already here</h2>'
                '<p>{file} holds the encounter <strong>{name}</strong>, which this browser already keeps. {said}</p>'
                '<p class="hint">Keep both: the file is added as a second encounter, named with “(2)”. '
                'Replace: the file takes the place of the one here.</p>'
                '<div class="dlg-actions">{cancel}{keep}{replace}</div></div>',
                name=name, file=filename, said=said, cancel=button("Cancel", "import-cancel", "secondary"), keep=keep,
                replace=replace)


def second_name(name: str, taken: set[str]) -> str:
    """"Wolf fight (2)", or (3) and on while that is taken, within the 60 characters of a name."""
    k = 2
    while True:
        suffix = f" ({k})"
        candidate = name[:60 - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        k += 1
