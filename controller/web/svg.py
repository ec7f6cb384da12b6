"""The board as an SVG diagram: kanji pieces (gote's turned upside down), the last move highlighted, squares in
doubt outlined, both hands. Built from an SFEN, so it shows the position as the game knows it."""

from __future__ import annotations

from html import escape

from controller.rules.sfen import FILES, RANKS, Placement

KANJI = {
    "K": "玉", "R": "飛", "B": "角", "G": "金", "S": "銀", "N": "桂", "L": "香", "P": "歩",
    "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と",
}  # fmt: skip
CELL = 40
MARGIN = 24
HAND_H = 34


def square_xy(square: str) -> tuple[int, int]:
    """Top-left pixel of a square (`7g`) in the diagram, sente at the bottom."""
    col = FILES.index(square[0])
    row = RANKS.index(square[1])
    return MARGIN + col * CELL, HAND_H + MARGIN + row * CELL


def board_svg(sfen: str, last_move: str | None = None, doubtful: frozenset[str] = frozenset()) -> str:
    """The SVG text for a position."""
    placement = Placement.from_sfen(sfen)
    width = MARGIN * 2 + CELL * 9
    height = HAND_H * 2 + MARGIN * 2 + CELL * 9
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="board" role="img" '
        f'aria-label="board {escape(sfen)}">',
        f'<rect x="{MARGIN}" y="{HAND_H + MARGIN}" width="{CELL * 9}" height="{CELL * 9}" fill="#e8c27a"/>',
        *_highlights(last_move, doubtful),
        *_grid(),
        *_labels(),
        *(_piece(square, piece) for square, piece in sorted(placement.squares.items())),
        _hand(placement, "w", HAND_H - 8),
        _hand(placement, "b", height - 10),
        "</svg>",
    ]
    return "".join(parts)


def _highlights(last_move: str | None, doubtful: frozenset[str]) -> list[str]:
    out = []
    if last_move:
        for square in _move_squares(last_move):
            x, y = square_xy(square)
            out.append(f'<rect class="last" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f6e05e"/>')
    for square in sorted(doubtful):
        x, y = square_xy(square)
        out.append(
            f'<rect class="doubt" data-square="{square}" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
            f'height="{CELL - 4}" fill="none" stroke="#e53e3e" stroke-width="3"/>'
        )
    return out


def _move_squares(usi: str) -> list[str]:
    if len(usi) >= 4 and usi[1] == "*":
        return [usi[2:4]]
    return [usi[0:2], usi[2:4]] if len(usi) >= 4 else []


def _grid() -> list[str]:
    top = HAND_H + MARGIN
    lines = []
    for i in range(10):
        lines.append(f'<line x1="{MARGIN + i * CELL}" y1="{top}" x2="{MARGIN + i * CELL}" y2="{top + 9 * CELL}"/>')
        lines.append(f'<line x1="{MARGIN}" y1="{top + i * CELL}" x2="{MARGIN + 9 * CELL}" y2="{top + i * CELL}"/>')
    return ['<g stroke="#333" stroke-width="1">', *lines, "</g>"]


def _labels() -> list[str]:
    top = HAND_H + MARGIN
    out = ['<g font-size="12" fill="#555" text-anchor="middle">']
    for i, file in enumerate(FILES):
        out.append(f'<text x="{MARGIN + i * CELL + CELL // 2}" y="{top - 6}">{file}</text>')
    for i, rank in enumerate("一二三四五六七八九"):
        out.append(f'<text x="{MARGIN + 9 * CELL + 12}" y="{top + i * CELL + 25}">{rank}</text>')
    out.append("</g>")
    return out


def _piece(square: str, piece: str) -> str:
    x, y = square_xy(square)
    kind = piece.upper()
    gote = piece[-1].islower()
    colour = "#c53030" if kind.startswith("+") else "#1a202c"
    cx, cy = x + CELL // 2, y + CELL // 2
    turn = f' transform="rotate(180 {cx} {cy})"' if gote else ""
    return (
        f'<text class="piece" data-square="{square}" data-piece="{escape(piece)}" x="{cx}" y="{cy + 9}" '
        f'font-size="26" text-anchor="middle" fill="{colour}"{turn}>{KANJI[kind]}</text>'
    )


def _hand(placement: Placement, side: str, y: int) -> str:
    mark = "☗" if side == "b" else "☖"
    items = [f"{KANJI[k]}{n if n > 1 else ''}" for k in "RBGSNLP" if (n := placement.hands[side][k])]
    text = " ".join(items) or "なし"
    return f'<text class="hand" data-side="{side}" x="{MARGIN}" y="{y}" font-size="18">{mark} {escape(text)}</text>'
