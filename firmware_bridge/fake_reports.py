"""Text the fake GRBL 1.1h device prints: banner, feedback messages, `$$` dump, `$G`, status reports, garbage.

Owns: the byte-exact formats (CRLF line ends, 3-decimal positions, integer settings without decimals). Pure.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

from firmware_bridge.fake_config import INTEGER_SETTINGS, Flavour
from firmware_bridge.fake_gcode import Modal

Vec = tuple[float, float, float]

BANNERS: Mapping[Flavour, bytes] = MappingProxyType(
    {
        Flavour.GRBL: b"\r\nGrbl 1.1h ['$' for help]\r\n",
        Flavour.GRBLHAL: b"GrblHAL 1.1f ['$' or '$HELP' for help]\r\n",
        Flavour.FLUIDNC: b"\r\nGrbl 3.7 [FluidNC v3.7.10 (wifi) '$' for help]\r\n",
    }
)
"""Start-up banners (GRBL prints an empty line first)."""
BOOT_NOISE: Mapping[Flavour, bytes] = MappingProxyType(
    {
        Flavour.GRBL: b"",
        Flavour.GRBLHAL: b"",
        Flavour.FLUIDNC: b"ets Jun  8 2016 00:22:57\r\n[MSG:INFO: FluidNC v3.7.10 https://github.com/bdring/FluidNC]\r\n",
    }
)
"""What a board prints on power-on before its banner (the ESP32 boot ROM, FluidNC's info lines)."""
UNLOCK_HINT = b"[MSG:'$H'|'$X' to unlock]\r\n"
RESET_TO_CONTINUE = b"[MSG:Reset to continue]\r\n"
UNLOCKED = b"[MSG:Caution: Unlocked]\r\n"
BUILD_INFO = b"[VER:1.1h.20190830:]\r\n[OPT:V,15,128]\r\n"


def line(text: str) -> bytes:
    """One output line with GRBL's CRLF."""
    return text.encode("ascii") + b"\r\n"


def settings_dump(settings: Mapping[int, float]) -> bytes:
    """The `$$` listing in setting-number order."""
    out = []
    for number in sorted(settings):
        value = settings[number]
        text = str(int(value)) if number in INTEGER_SETTINGS else f"{value:.3f}"
        out.append(line(f"${number}={text}"))
    return b"".join(out)


def _fmt(vec: Vec) -> str:
    return ",".join(f"{v:.3f}" for v in vec)


def parser_state(modal: Modal) -> bytes:
    """`[GC:G0 G54 G17 G21 G90 G94 M5 M9 T0 F0 S0]`."""
    words = [
        f"G{modal.motion}",
        "G54",
        "G17",
        "G20" if modal.inches else "G21",
        "G90" if modal.absolute else "G91",
        "G94",
        f"M{modal.spindle}",
        "M8" if modal.coolant else "M9",
        "T0",
        f"F{modal.feed or 0.0:g}",
        "S0",
    ]
    return line(f"[GC:{' '.join(words)}]")


def status_report(
    state: str, mpos: Vec, speed_mm_per_min: float, *, report_count: int, mask: int, extras: tuple[int, int, str]
) -> bytes:
    """A 1.1 status report. `extras` = (planner blocks free, RX bytes free, accessory letters).

    WCO appears every 10th report, Ov (with A: when an accessory is on) on the report after it.
    """
    planner_free, rx_free, accessories = extras
    position = f"MPos:{_fmt(mpos)}" if mask & 1 else f"WPos:{_fmt(mpos)}"
    fields = [state, position]
    if mask & 2:
        fields.append(f"Bf:{planner_free},{rx_free}")
    fields.append(f"FS:{speed_mm_per_min:.0f},0")
    if report_count % 10 == 0:
        fields.append("WCO:0.000,0.000,0.000")
    elif report_count % 10 == 1:
        fields.append("Ov:100,100,100")
        if accessories:
            fields.append(f"A:{accessories}")
    return line("<" + "|".join(fields) + ">")


def garbage(rng: random.Random) -> bytes:
    """A noise line: line noise bytes, a half status report or a half feedback message."""
    kind = rng.randrange(3)
    if kind == 0:
        return bytes(rng.choice((0x00, 0x7F, 0x80, 0xA5, 0xFE, 0xFF, 0x3F)) for _ in range(rng.randint(1, 8))) + b"\r\n"
    template = "<Idle|MPos:12.500,40.000,0.000|FS:0,0>" if kind == 1 else "[MSG:Caution: Unlocked]"
    return template[: rng.randint(1, len(template) - 1)].encode("ascii") + b"\r\n"
