"""`shogi-robot analyse RECORD [--engine NAME] [--time-ms N] [--mistake-cp N] [-o OUT]`: engine analysis.

Every position of the record's main line is searched (`--time-ms` per position, default 500); each move gets
a `**解析` comment with the evaluation (sente's point of view), the engine's best move and its line, and moves
that lose at least `--mistake-cp` centipawns (default 300) are flagged `悪手`. The annotated record is written
to OUT (any record extension; default RECORD's name + `-analysis.kifu`). The engine is fairy-stockfish unless
`--engine` names another (`gpsusi`, or a path to any USI engine).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli.errors import CommandError

if TYPE_CHECKING:
    from controller.engines import EngineSpec
    from controller.engines.analysis import MoveAnalysis
    from controller.rules.types import GameRecord


def register(subparsers: Any) -> None:
    """Add `analyse`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "analyse",
        help="engine evaluation of every move of a recorded game, written as record comments",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("record", metavar="RECORD", help="record to analyse (.kif .kifu .ki2 .csa .jkf .usi)")
    parser.add_argument("--engine", default="fairy-stockfish", help="engine name or path (default fairy-stockfish)")
    parser.add_argument("--time-ms", type=_positive, default=500, help="thinking time per position (ms)")
    parser.add_argument("--mistake-cp", type=_positive, default=300, help="drop that flags a mistake (cp)")
    parser.add_argument("-o", "--output", metavar="OUT", help="annotated record to write")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    """Read RECORD, analyse it with the engine, write OUT and print the mistakes."""
    import asyncio

    from controller.engines import EngineError, EngineLimits, EngineSpec
    from controller.engines.analysis import annotate
    from controller.records.errors import RecordError
    from controller.records.io import format_of, read_record, write_record

    output = (
        Path(args.output) if args.output else Path(args.record).with_name(Path(args.record).stem + "-analysis.kifu")
    )
    format_of(output)
    try:
        record = read_record(args.record)
    except RecordError as exc:
        raise CommandError(f"{args.record}: {exc}") from exc
    spec = EngineSpec(args.engine, limits=EngineLimits(time_ms=args.time_ms))
    try:
        analyses = asyncio.run(_analyse(spec, record, args.mistake_cp))
    except EngineError as exc:
        raise CommandError(f"engine {args.engine}: {exc}") from exc
    write_record(annotate(record, analyses), output)
    for item in analyses:
        if item.mistake:
            print(f"ply {item.ply}: {item.played} loses {item.drop_cp} cp (best {item.best})")
    flagged = sum(item.mistake for item in analyses)
    print(f"{args.record}: {len(analyses)} moves analysed, {flagged} mistakes -> {output}")
    return 0


async def _analyse(spec: EngineSpec, record: GameRecord, mistake_cp: int) -> list[MoveAnalysis]:
    from controller.engines import SupervisedEngine
    from controller.engines.analysis import analyse_record

    engine = SupervisedEngine(spec)
    await engine.start()
    try:
        await engine.new_game()
        return await analyse_record(record, engine.play, mistake_cp=mistake_cp)
    finally:
        await engine.quit()
