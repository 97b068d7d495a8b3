"""Fray: an offline combat tracker and rules engine for tabletop role-playing games.

The engine is pure Python (standard library only). It runs the same in CPython (tests, the
command line) and in Pyodide (the page). Nothing here imports ``js`` or ``pyscript``: the
browser layer lives in ``fray.web``.
"""

__version__ = "0.1.0"
