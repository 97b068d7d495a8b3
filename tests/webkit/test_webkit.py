"""Fray in WebKit, the engine of every browser on an iPad: the GM's evening written once in
tests/webkit/flows.py (the Chromium suite runs the same bodies in tests/e2e/test_flows.py), here
in WebKitGTK through its WebDriver. WebKit boots Pyodide without JSPI (no
``WebAssembly.Suspending``), a path Chromium never takes."""

from __future__ import annotations

import flows


def test_boot(pg):
    flows.boot(pg, pg.site.url)
    # the path Chromium never takes: no JSPI, no navigator.storage here
    assert pg.js("return typeof WebAssembly.Suspending") == "undefined"


def test_strike_rank_round_undo_autosave_and_reload(pg):
    flows.strike_rank_round(pg, pg.site.url)


def test_tactical_round_on_a_tablet(pg):
    flows.tactical_round(pg, pg.site.url)


def test_range_band_round_on_a_tablet(pg):
    flows.range_band_round(pg, pg.site.url)


def test_players_window_follows_the_gm(pg):
    flows.players_window_follows(pg, pg.site.url)


def test_offline_reload_with_the_server_stopped(pg):
    flows.offline_reload(pg, pg.site.url, pg.site.stop)


def test_strike_rank_crossbow_on_a_tablet(pg):
    flows.strike_rank_crossbow_on_a_tablet(pg, pg.site.url)
