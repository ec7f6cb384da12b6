"""Header keys and values across formats: KIF/KI2/JKF Japanese keys, CSA `N±`/`$` keys, time and date values.

Owns: mapping format keys onto `HeaderKey` and back, and the canonical form of the values that need one:
- `time_control`: main time in seconds (`"600"`), with `"+N"` for a Fischer increment of N seconds
  (`"600+10"`); text that is not a time this package can read is kept verbatim.
- `byoyomi`: seconds (`"30"`); a zero byoyomi is dropped.
- `start_time` / `end_time`: `YYYY/MM/DD` with ` HH:MM[:SS]` when known (KIF weekdays are dropped).
Keys a format knows but `HeaderKey` does not are kept verbatim (CSA ones with their `$`). `handicap` is never
read from a header: the start position is authoritative, and writers derive `手合割`/`PI`/presets from it.
"""

from __future__ import annotations

import re

from controller.rules.types import HeaderKey

H = HeaderKey

KIF_KEY_OF: dict[str, str] = {
    H.BLACK: "先手",
    H.WHITE: "後手",
    H.EVENT: "棋戦",
    H.SITE: "場所",
    H.START_TIME: "開始日時",
    H.END_TIME: "終了日時",
    H.TIME_CONTROL: "持ち時間",
    H.BYOYOMI: "秒読み",
    H.OPENING: "戦型",
    H.IMPASSE_RULE: "持将棋規定",
}
"""Canonical key -> KIF key (JKF headers use the same keys)."""

_CANONICAL_OF_KIF: dict[str, str] = {
    **{kif: key for key, kif in KIF_KEY_OF.items()},
    "下手": H.BLACK,
    "上手": H.WHITE,
    "対局日": H.START_TIME,
}

CSA_KEY_OF: dict[str, str] = {
    H.EVENT: "$EVENT",
    H.SITE: "$SITE",
    H.START_TIME: "$START_TIME",
    H.END_TIME: "$END_TIME",
    H.OPENING: "$OPENING",
    H.IMPASSE_RULE: "$JISHOGI",
}
_CANONICAL_OF_CSA: dict[str, str] = {csa: key for key, csa in CSA_KEY_OF.items()}

_ASCII_DIGITS = str.maketrans("０１２３４５６７８９：", "0123456789:")
_KIF_TIME = re.compile(r"^(?:各)?\s*(?:(\d+)時間)?\s*(?:(\d+)分)?\s*(?:(\d+)秒)?\s*(?:（1手(\d+)秒加算）)?$")
_DATE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})(?:\s*[(（].[)）])?(?:\s+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$")
_CANONICAL_TIME = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")
_CSA_V2_TIME = re.compile(r"^(\d+):(\d+)\+(\d+)$")


def kif_header(key: str, value: str, headers: dict[str, str]) -> None:
    """Store one KIF/KI2/JKF header line's key and value (the first `開始日時`/`対局日` wins)."""
    canonical = _CANONICAL_OF_KIF.get(key, key)
    value = value.strip()
    if canonical == H.TIME_CONTROL:
        value = _kif_time_control(value)
    elif canonical == H.BYOYOMI:
        value = _kif_byoyomi(value)
        if value == "0":
            return
    elif canonical in (H.START_TIME, H.END_TIME):
        if canonical in headers and key == "対局日":
            return
        value = normalise_date(value)
    headers[canonical] = value


def kif_header_lines(headers: dict[str, str], *, handicap: bool) -> list[tuple[str, str]]:
    """(KIF key, value) pairs to write; players are `下手`/`上手` in handicap games."""
    pairs = []
    for key, value in headers.items():
        if key == H.HANDICAP:
            continue
        kif_key = KIF_KEY_OF.get(key, key)
        if handicap and key in (H.BLACK, H.WHITE):
            kif_key = "下手" if key == H.BLACK else "上手"
        text = value
        if key == H.TIME_CONTROL:
            text = format_kif_time_control(value)
        elif key == H.BYOYOMI and _is_number(value):
            text = f"{_seconds_text(value)}秒"
        pairs.append((kif_key, text))
    return pairs


def csa_header(key: str, value: str, headers: dict[str, str]) -> None:
    """Store one CSA `$KEY:value` line (key with its `$`)."""
    value = value.strip()
    if key == "$TIME_LIMIT" and (match := _CSA_V2_TIME.match(value)):
        headers[H.TIME_CONTROL] = str(int(match.group(1)) * 3600 + int(match.group(2)) * 60)
        if int(match.group(3)):
            headers[H.BYOYOMI] = str(int(match.group(3)))
        return
    if key == "$TIME" and (parts := _csa_v3_time(value)) is not None:
        main, byoyomi, increment = parts
        headers[H.TIME_CONTROL] = main + (f"+{increment}" if increment != "0" else "")
        if byoyomi != "0":
            headers[H.BYOYOMI] = byoyomi
        return
    canonical = _CANONICAL_OF_CSA.get(key, key)
    if canonical in (H.START_TIME, H.END_TIME):
        value = normalise_date(value)
    headers[canonical] = value


def csa_header_lines(headers: dict[str, str]) -> tuple[list[str], list[str]]:
    """CSA `$KEY:value` lines, and comment lines for headers CSA has no key for."""
    lines, comments = _csa_time_lines(headers)
    for key, value in headers.items():
        if key in (H.HANDICAP, H.BLACK, H.WHITE, H.BYOYOMI, H.TIME_CONTROL):
            continue
        if key in CSA_KEY_OF:
            lines.append(f"{CSA_KEY_OF[key]}:{value}")
        elif key.startswith("$"):
            lines.append(f"{key}:{value}")
        else:
            comments.append(f"'{KIF_KEY_OF.get(key, key)}：{value}")
    return lines, comments


def _csa_time_lines(headers: dict[str, str]) -> tuple[list[str], list[str]]:
    """`$TIME:main+byoyomi+increment` when the values are canonical; comment lines for free-text values."""
    main, byoyomi = headers.get(H.TIME_CONTROL), headers.get(H.BYOYOMI)
    comments = []
    match = _CANONICAL_TIME.match(main) if main is not None else None
    if main is not None and match is None:
        comments.append(f"'{KIF_KEY_OF[H.TIME_CONTROL]}：{main}")
    if byoyomi is not None and (not _is_number(byoyomi) or (main is not None and match is None)):
        comments.append(f"'{KIF_KEY_OF[H.BYOYOMI]}：{byoyomi}")
        byoyomi = None
    if match is None and byoyomi is None:
        return [], comments
    main_seconds, increment = (match.group(1), match.group(2) or "0") if match else ("0", "0")
    return [f"$TIME:{main_seconds}+{byoyomi or '0'}+{increment}"], comments


def _csa_v3_time(value: str) -> tuple[str, str, str] | None:
    parts = value.split("+")
    if not 1 <= len(parts) <= 3 or not all(_is_number(p) for p in parts):
        return None
    parts += ["0"] * (3 - len(parts))
    return _seconds_text(parts[0]), _seconds_text(parts[1]), _seconds_text(parts[2])


def _kif_time_control(value: str) -> str:
    match = _KIF_TIME.match(value.translate(_ASCII_DIGITS))
    if match is None or not any(match.group(i) for i in (1, 2, 3)):
        return value
    hours, minutes, seconds, increment = (int(match.group(i) or 0) for i in (1, 2, 3, 4))
    main = str(hours * 3600 + minutes * 60 + seconds)
    return main + (f"+{increment}" if increment else "")


def _kif_byoyomi(value: str) -> str:
    match = re.match(r"^(?:(\d+)分)?(?:(\d+)秒)?$", value.translate(_ASCII_DIGITS))
    if match is None or not (match.group(1) or match.group(2)):
        return value
    return str(int(match.group(1) or 0) * 60 + int(match.group(2) or 0))


def format_kif_time_control(value: str) -> str:
    """Canonical `600+10` -> `10分（1手10秒加算）`; verbatim text stays as it is."""
    match = re.match(r"^(\d+)(?:\+(\d+))?$", value)
    if match is None:
        return value
    total = int(match.group(1))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    text = (f"{hours}時間" if hours else "") + (f"{minutes}分" if minutes else "") + (f"{seconds}秒" if seconds else "")
    text = text or "0分"
    return text + (f"（1手{match.group(2)}秒加算）" if match.group(2) else "")


def normalise_date(value: str) -> str:
    """`2024/1/5(金) 9:07:12` -> `2024/01/05 09:07:12`; text that is not a date stays as it is."""
    match = _DATE.match(value.translate(_ASCII_DIGITS))
    if match is None:
        return value
    year, month, day, hour, minute, second = match.groups()
    text = f"{year}/{int(month):02}/{int(day):02}"
    if hour is not None:
        text += f" {int(hour):02}:{int(minute):02}" + (f":{int(second):02}" if second is not None else "")
    return text


def _is_number(text: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d+)?", text) is not None


def _seconds_text(text: str) -> str:
    number = float(text)
    return str(int(number)) if number.is_integer() else text
