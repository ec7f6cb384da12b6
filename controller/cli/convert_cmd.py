"""`shogi-robot convert IN OUT [--encoding ENC]`: convert a game record between formats, chosen by extension.

Formats: .kif (KIF, Shift_JIS unless the file says UTF-8), .kifu (KIF, UTF-8), .ki2/.ki2u (KI2), .csa (CSA;
V2.2 and V3.0 read, V3.0 written), .jkf (JSON Kifu Format), .usi (one line `startpos moves ...`).
`--encoding` overrides the input file's encoding. A malformed input is reported with its line number (exit 1)
and nothing is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from controller.cli.errors import CommandError


def register(subparsers: Any) -> None:
    """Add `convert`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert",
        help="convert a game record (KIF, KI2, CSA, JKF, USI) by file extension",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", metavar="IN", help="record to read (.kif .kifu .ki2 .ki2u .csa .jkf .usi)")
    parser.add_argument("output", metavar="OUT", help="record to write; the extension picks the format")
    parser.add_argument(
        "--encoding", metavar="ENC", help="encoding of IN (e.g. utf-8, shift_jis), overriding the default"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read IN, write OUT, print a one-line summary."""
    from controller.records.errors import RecordError
    from controller.records.io import format_of, read_record, write_record

    source, target = format_of(args.input), format_of(args.output)
    try:
        record = read_record(args.input, encoding=args.encoding)
    except RecordError as exc:
        raise CommandError(f"{args.input}: {exc}") from exc
    try:
        write_record(record, args.output)
    except RecordError as exc:
        raise CommandError(f"{args.output}: {exc}") from exc
    result = record.result.termination.value if record.result else "no result"
    print(f"{args.input} ({source.value}) -> {args.output} ({target.value}): {len(record.moves)} moves, {result}")
    return 0
