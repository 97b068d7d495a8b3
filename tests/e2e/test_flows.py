"""The GM's evening of tests/webkit/flows.py, in Chromium: the same test bodies the WebKit lane
(tests/webkit/) runs in WebKitGTK, here through Playwright and this suite's watched ``page``
(console errors, page errors, failed requests and requests to another origin fail the test)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "webkit"))
import flows  # noqa: E402
from fraypage import FrayPage, PlaywrightBackend  # noqa: E402


def _pg(page) -> FrayPage:
    return FrayPage(PlaywrightBackend(page))


def test_boot(page, app_url):
    flows.boot(_pg(page), app_url)


def test_strike_rank_round_undo_autosave_and_reload(page, app_url):
    flows.strike_rank_round(_pg(page), app_url)


def test_tactical_round_on_a_tablet(page, app_url):
    flows.tactical_round(_pg(page), app_url)


def test_range_band_round_on_a_tablet(page, app_url):
    flows.range_band_round(_pg(page), app_url)


def test_players_window_follows_the_gm(page, app_url):
    flows.players_window_follows(_pg(page), app_url)


def test_offline_reload_with_the_server_stopped(page, outage_server):
    page.watch.origin = outage_server.origin  # the page's own origin is the outage server's
    flows.offline_reload(_pg(page), outage_server.url, outage_server.stop)


def test_strike_rank_crossbow_on_a_tablet(page, app_url):
    flows.strike_rank_crossbow_on_a_tablet(_pg(page), app_url)
