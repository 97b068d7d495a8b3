"""The browser layer: the only code that touches the DOM. ``render`` and ``store`` are pure and
testable in CPython; ``app`` wires the page's controls to the engine."""
