"""Record headers of a game from its journal header: players, time control, handicap, impasse rule, start time.

Owns: the mapping from `JournalHeader` to `GameRecord.headers` (canonical `HeaderKey` names), shared by the
journal's resume and the live KIF/CSA files, so both carry the same headers.
"""

from __future__ import annotations

from controller.game.entries import JournalHeader
from controller.game.settings import Mode, OpponentKind
from controller.rules.positions import handicap_for_sfen
from controller.rules.types import Color, HeaderKey


def record_headers(header: JournalHeader) -> dict[str, str]:
    """Canonical headers for the game's record."""
    settings = header.settings
    headers = {
        HeaderKey.IMPASSE_RULE.value: settings.impasse.value,
        HeaderKey.TIME_CONTROL.value: settings.clock.describe(),
    }
    if settings.clock.byoyomi_s > 0 and not settings.clock.untimed:
        headers[HeaderKey.BYOYOMI.value] = f"{settings.clock.byoyomi_s:g}"
    if header.started:
        headers[HeaderKey.START_TIME.value] = header.started
    handicap = handicap_for_sfen(settings.start_sfen)
    if handicap is not None and handicap.name != "even":
        headers[HeaderKey.HANDICAP.value] = handicap.name
    if settings.mode is Mode.PLAY and settings.opponent_side is not None:
        fallback = "engine" if settings.opponent is OpponentKind.ENGINE else "remote"
        name = str(header.engine.get("name", fallback))
        human = HeaderKey.BLACK if settings.opponent_side is Color.WHITE else HeaderKey.WHITE
        engine = HeaderKey.WHITE if human is HeaderKey.BLACK else HeaderKey.BLACK
        headers[engine.value] = name
        headers[human.value] = str(header.engine.get("local_name", "human"))
    return headers
