"""Command line: ``python -m fray replay FILE.json`` (see docs/scenarios.md)."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import FrayError
from .scenario import result_json, run_scenario


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fray", description="Fray's rules engine, headless.")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="apply a scenario's actions and print the encounter and events as JSON")
    r.add_argument("file", help="scenario JSON file, or - for standard input")
    args = p.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        print(f"fray: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"fray: {args.file} is not JSON: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"fray: {args.file} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}", file=sys.stderr)
        return 2
    try:
        h, events = run_scenario(data)
    except FrayError as e:
        print(f"fray: {args.file}: {e}", file=sys.stderr)
        return 2
    json.dump(result_json(h, events), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
