"""A tiny static server for dist/, and for the tests and benches that serve it under a sub-path.

    python scripts/serve.py [--port 8000] [--mount /=dist]          # what `make serve` runs
    python scripts/serve.py --mount /fray/=dist --mount /bare/=bench/bare

Each --mount maps a URL prefix to a folder; any other path is a 404 (so a page that reaches
outside its sub-path fails the way it would on GitHub Pages). A prefix without its trailing
slash redirects to it. Responses carry ``Cache-Control: max-age=600`` as Pages does, so warm
boots here use the HTTP cache as they would there.

``start(mounts, port=0)`` runs the same server in a thread and returns it (tests, bench);
``Site(mounts, sub_path)`` does too, with its URL, until ``stop()`` (a real outage).
"""

from __future__ import annotations

import argparse
import http.server
import os
import posixpath
import sys
import threading
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class MountHandler(http.server.SimpleHTTPRequestHandler):
    mounts: dict[str, Path] = {}
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".toml": "text/plain", ".json": "application/json", ".py": "text/plain",
                      ".zip": "application/zip"}

    def _resolve(self) -> tuple[str, Path | None]:
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        for prefix in sorted(self.mounts, key=len, reverse=True):
            if path + "/" == prefix and prefix != "/":
                return "redirect", None
            if path.startswith(prefix):
                rest = posixpath.normpath(path[len(prefix):]) if path[len(prefix):] else ""
                if rest.startswith("..") or rest.startswith("/"):
                    return "404", None
                target = self.mounts[prefix] / (rest if rest not in ("", ".") else "")
                if path.endswith("/"):
                    target = target / "index.html"
                return "file", target
        return "404", None

    def send_head(self):
        kind, target = self._resolve()
        if kind == "redirect":
            self.send_response(301)
            self.send_header("Location", urllib.parse.urlsplit(self.path).path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if kind == "404" or target is None or not target.is_file():
            self.send_error(404, "Not found")
            return None
        try:
            f = open(target, "rb")
        except OSError:
            self.send_error(404, "Not found")
            return None
        fs = os.fstat(f.fileno())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(target)))
        self.send_header("Content-Length", str(fs.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(fs.st_mtime)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return f

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    verbose = False


def make_server(mounts: dict[str, Path | str], port: int = 0, host: str = "127.0.0.1", verbose=False) -> Server:
    handler = type("Handler", (MountHandler,), {"mounts": {k: Path(v).resolve() for k, v in mounts.items()}})
    srv = Server((host, port), handler)
    srv.verbose = verbose
    return srv


def start(mounts: dict[str, Path | str], port: int = 0) -> Server:
    """Serve in a daemon thread; ``srv.server_address[1]`` is the port; ``srv.shutdown()`` stops it."""
    srv = make_server(mounts, port)
    threading.Thread(target=srv.serve_forever, daemon=True, name="fray-serve").start()
    return srv


class Site:
    """``mounts`` served in a thread on a port of its own until ``stop()``, which closes the socket:
    then every connection is refused, a real outage (the tests' offline checks). ``.origin``;
    ``.url``: the origin and ``sub_path``."""

    def __init__(self, mounts: dict[str, Path | str], sub_path: str = "/"):
        self._srv = start(mounts)
        self.origin = f"http://127.0.0.1:{self._srv.server_address[1]}"
        self.url = self.origin + sub_path
        self.stopped = False

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self._srv.shutdown()
            self._srv.server_close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve dist/ (or other folders) on 127.0.0.1.")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--mount", action="append", default=[], metavar="PREFIX=DIR")
    args = ap.parse_args(argv)
    mounts = {}
    for m in args.mount or ["/=dist"]:
        prefix, _, d = m.partition("=")
        prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        mounts[prefix] = (ROOT / d) if not os.path.isabs(d) else Path(d)
    srv = make_server(mounts, args.port, verbose=True)
    for prefix, d in mounts.items():
        print(f"Serving {d} at http://127.0.0.1:{srv.server_address[1]}{prefix}  (Ctrl-C stops)", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
