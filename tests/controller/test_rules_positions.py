"""Starting positions: SFEN validation with clear errors, handicap names."""

from __future__ import annotations

import pytest

from controller.rules.errors import PositionError
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN, handicap_for_sfen, resolve_start


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", "9 ranks"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", "covers 8 files"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGXGSNL b - 1", "unknown piece letter 'X'"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1", "one sente king"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", "side to move"),
        ("4k4/9/9/9/9/9/9/9/3+GK4 b - 1", "cannot be promoted"),
        ("nonsense", "not an SFEN"),
    ],
)
def test_bad_sfen_is_named(text: str, message: str) -> None:
    """It should refuse a bad SFEN and say what is wrong."""
    with pytest.raises(PositionError, match=message):
        resolve_start(text)


def test_names_resolve() -> None:
    """It should accept startpos, English and Japanese handicap names, and `sfen ...`."""
    assert resolve_start("startpos") == STARTPOS_SFEN
    assert resolve_start("角落ち") == HANDICAPS["bishop"].sfen
    assert resolve_start(f"sfen {STARTPOS_SFEN}") == STARTPOS_SFEN
    assert handicap_for_sfen(HANDICAPS["two"].sfen.replace(" 1", " 7")) == HANDICAPS["two"]
