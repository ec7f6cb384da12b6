"""Known differences between real engines and the USI text, and how the client works around them.

Owns: recognising an engine from its `id name`, the option-name aliases (fairy-stockfish advertises `Hash` and
`Ponder` where USI says `USI_Hash` and `USI_Ponder`), and adapting `go` limits to what an engine accepts.
Verified by hand against Debian's engines:
- gpsusi (gpsshogi r3033) aborts (SIGABRT, "unknown option in go ...") on `go ponder`, `go movetime`, `go nodes`,
  `go depth` and `binc`/`winc`; answers `go infinite` with an immediate `bestmove` (or `resign`); reports a mate
  as a huge `score cp` (1148897 for a mate in one, 856743 for a won ending) rather than `score mate`; and after
  answering `go mate` with `checkmate`, it never answers the next `go` (not even after `isready`), so it is
  restarted after every mate search.
- fairy-stockfish 11.1 answers `go mate` with `bestmove` (it reads the number as a mate distance in moves and
  searches until stopped), not with `checkmate`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.engines.errors import EngineUnsupported
from controller.engines.protocol import GoLimits

OPTION_ALIASES: dict[str, tuple[str, ...]] = {
    "USI_Hash": ("Hash",),
    "USI_Ponder": ("Ponder",),
    "Hash": ("USI_Hash",),
    "Ponder": ("USI_Ponder",),
    "Skill Level": ("SkillLevel",),
    "SkillLevel": ("Skill Level",),
    "USI_MultiPV": ("MultiPV",),
    "MultiPV": ("USI_MultiPV",),
}
"""Names that mean the same option on different engines; tried in order when the given name is not offered."""

GPS_MATE_CP = 500_000
"""gpsusi scores at least this large (in absolute value) are read as mates of unknown distance."""


@dataclass(frozen=True)
class EngineQuirks:
    """What one engine does differently.

    Attributes:
        family: a short name for logs (`fairy-stockfish`, `gpsshogi`, `generic`).
        go_fixed_limits: `go movetime/nodes/depth` are accepted.
        go_increment: `binc`/`winc` are accepted (otherwise the increment is sent as byoyomi).
        go_infinite: `go infinite` searches until `stop`.
        go_ponder: `go ponder` is safe to send (also requires a `USI_Ponder`/`Ponder` option).
        mate_answers_bestmove: `go mate` is answered by `bestmove` (and needs `stop`), not `checkmate`.
        mate_cp_threshold: a `score cp` this large is a mate (None: the engine uses `score mate`).
        restart_after_mate: the engine is unusable after `go mate` and must be restarted.
    """

    family: str = "generic"
    go_fixed_limits: bool = True
    go_increment: bool = True
    go_infinite: bool = True
    go_ponder: bool = True
    mate_answers_bestmove: bool = False
    mate_cp_threshold: int | None = None
    restart_after_mate: bool = False

    def adapt(self, limits: GoLimits) -> GoLimits:
        """`limits` rewritten into a form this engine accepts.

        Raises:
            EngineUnsupported: the engine cannot search under such a limit at all.
        """
        if limits.infinite and not self.go_infinite:
            raise EngineUnsupported(f"{self.family} does not support `go infinite`")
        if not self.go_fixed_limits:
            if limits.nodes is not None or limits.depth is not None:
                raise EngineUnsupported(f"{self.family} does not support `go nodes`/`go depth`; use a time limit")
            if limits.movetime_ms is not None:
                return GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=limits.movetime_ms)
        if not self.go_increment and (limits.binc_ms is not None or limits.winc_ms is not None):
            inc = min(limits.binc_ms or 0, limits.winc_ms or 0)
            return replace(limits, binc_ms=None, winc_ms=None, byoyomi_ms=inc)
        return limits


GENERIC = EngineQuirks()
FAIRY_STOCKFISH = EngineQuirks(family="fairy-stockfish", mate_answers_bestmove=True)
GPSSHOGI = EngineQuirks(
    family="gpsshogi",
    go_fixed_limits=False,
    go_increment=False,
    go_infinite=False,
    go_ponder=False,
    mate_cp_threshold=GPS_MATE_CP,
    restart_after_mate=True,
)


def quirks_for(id_name: str) -> EngineQuirks:
    """The quirks of the engine that calls itself `id_name`."""
    lowered = id_name.lower()
    if lowered.startswith("gpsshogi"):
        return GPSSHOGI
    if lowered.startswith("fairy-stockfish"):
        return FAIRY_STOCKFISH
    return GENERIC
