"""Fault-injection episodes for `bench gantry`: one move carried out through the real GRBL link over a pty to
the fake GRBL device with one injected fault, recovered by the controller, and checked against the physical truth.

Owns: the episode definition (fault kinds of the fake device and where they land), running one episode
(composition-root gantry, executor, `run_with_recovery`, a replugged fresh device after a disconnect), and its
verdict: fault detected, completed with every piece where the plan says, or stopped naming the one piece to check;
any other piece whose real position differs from the belief counts as unknown.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller import compose
from controller.bench.gantry_world import World
from controller.planning.model import Location, Piece, Transfer
from controller.planning.planner import Capabilities, plan_move
from controller.planning.recovery import RecoveryOutcome, run_with_recovery
from controller.planning.state import PhysicalState
from hardware.settings import HardwareSettings

if TYPE_CHECKING:
    from firmware_bridge.fake_config import FaultConfig
    from firmware_bridge.fake_server import FakeGrblServer
    from firmware_bridge.gantry import GrblGantry

FAULT_KINDS: tuple[str, ...] = (
    "disconnect",
    "reset",
    "alarm_hard_limit",
    "missing_ok",
    "slow_ok",
    "garbage",
)
"""Every fault kind the fake device injects (an ALARM:1 hard limit stands for alarms mid-move)."""

LINES_PER_TRANSFER = 13
"""G-code lines a carrying transfer sends (moves, syncs, M8/M9, dwells); homing sends 3 before them."""


@dataclass(frozen=True)
class Episode:
    """One move with one fault."""

    kind: str
    sfen: str
    usi: str
    fault_line: int
    fault_delay_s: float
    seed: int


@dataclass(frozen=True)
class EpisodeResult:
    """What happened."""

    episode: Episode
    detected: bool
    completed: bool
    correct: bool
    """Completed and every piece (real and believed) is where the plan puts it."""
    named_stop: bool
    """Stopped with exactly one piece named for checking, every other piece known."""
    unknown_pieces: int
    recoveries: int
    seconds: float
    message: str


def make_episodes(positions: Sequence[tuple[str, str]], count: int, seed: int, caps: Capabilities) -> list[Episode]:
    """`count` episodes cycling through the fault kinds, on moves drawn from `positions` (sfen, usi)."""
    rng = random.Random(seed)
    episodes = []
    for i in range(count):
        sfen, usi = positions[rng.randrange(len(positions))]
        plan = plan_move(PhysicalState.from_sfen(sfen), sfen, usi, caps)
        carries = sum(t.kind.value != "human_action" for t in plan.transfers)
        line = rng.randint(4, 3 + LINES_PER_TRANSFER * carries)
        episodes.append(Episode(FAULT_KINDS[i % len(FAULT_KINDS)], sfen, usi, line, rng.uniform(0.0, 0.15), seed + i))
    return episodes


def fault_config(episode: Episode) -> FaultConfig:
    """The fake device's fault settings for an episode."""
    from firmware_bridge.fake_config import FaultConfig

    line, delay = episode.fault_line, episode.fault_delay_s
    return {
        "disconnect": FaultConfig(disconnect_after_lines=line, fault_delay_s=delay),
        "reset": FaultConfig(reset_after_lines=line, fault_delay_s=delay),
        "alarm_hard_limit": FaultConfig(alarm_after_lines=line, alarm_code=1, fault_delay_s=delay),
        "missing_ok": FaultConfig(missing_ok_lines=frozenset({line})),
        "slow_ok": FaultConfig(ok_latency_s=0.02),
        "garbage": FaultConfig(garbage_rate=0.2, seed=episode.seed),
    }[episode.kind]


class _Rig:
    """The fake device(s) and the gantry of one episode."""

    def __init__(self, settings: HardwareSettings, world: World, faults: FaultConfig) -> None:
        self.settings, self.world = settings, world
        self.servers: list[FakeGrblServer] = []
        self.gantries: list[GrblGantry] = []
        self._start_server(faults)

    def _start_server(self, faults: FaultConfig | None) -> str:
        from firmware_bridge.fake_config import FAST_MOTION, FakeGrblConfig, FaultConfig
        from firmware_bridge.fake_server import FakeGrblServer

        config = FakeGrblConfig(settings=FAST_MOTION, boot_delay_s=0.02, faults=faults or FaultConfig())
        server = FakeGrblServer(config, on_event=self.world.feed)
        self.servers.append(server)
        return server.start()

    def open(self) -> GrblGantry:
        """A gantry on the live device, or on a fresh one after the last one was unplugged."""
        from firmware_bridge.link import LinkTimings

        if self.servers[-1].unplugged():
            self.world.power_lost()  # the device was unplugged: plug in a fresh one
            self._start_server(None)
        timings = LinkTimings(
            response_timeout_s=0.8, boot_timeout_s=2.0, settle_s=0.03, status_interval_s=0.05, status_timeout_s=0.8
        )
        gantry = compose.open_gantry(self.servers[-1].path, self.settings, link_timings=timings, motion_timeout_s=2.0)
        self.gantries.append(gantry)
        return gantry

    def close(self) -> None:
        for gantry in self.gantries:
            with contextlib.suppress(Exception):  # closing a dead link must not hide the episode's result
                gantry.close()
        for server in self.servers:
            server.stop()


def _connect_and_home(rig: _Rig) -> GrblGantry:
    """Open and home; one soft reset and a second homing if the start-up itself is disturbed (a late second
    banner after the open-reset is seen under load)."""
    from firmware_bridge.errors import FirmwareBridgeError

    gantry = rig.open()
    try:
        gantry.home()
    except FirmwareBridgeError:
        gantry.reset()
        gantry.home()
    return gantry


def run_episode(episode: Episode, settings: HardwareSettings) -> EpisodeResult:
    """Run one episode end to end and judge it against the world."""
    started = time.monotonic()
    caps = Capabilities.of(settings.geometry)
    belief = PhysicalState.from_sfen(episode.sfen)
    world = World(settings.geometry, belief.copy())
    planned = belief.copy()
    transfers = plan_move(planned, episode.sfen, episode.usi, caps).transfers
    rig = _Rig(settings, world, fault_config(episode))
    try:
        gantry = _connect_and_home(rig)

        def human(transfer: Transfer) -> None:
            world.human(transfer.src, transfer.task)

        executor = compose.executor(gantry, settings, belief, ask_human=human)
        restart = compose.GantryRestart(gantry, rig.open)
        outcome = run_with_recovery(executor, transfers, restart, fault_types=compose.firmware_faults())
    finally:
        rig.close()
    return _judge(episode, outcome, (belief, planned), world, time.monotonic() - started)


def _judge(
    episode: Episode,
    outcome: RecoveryOutcome,
    states: tuple[PhysicalState, PhysicalState],
    world: World,
    seconds: float,
) -> EpisodeResult:
    belief, planned = states
    truth = world.snapshot()
    believed = dict(belief.items())
    stop = outcome.stopped_on
    named: Piece | None = stop.piece if stop is not None and not stop.piece_known else None
    unexplained = _unexplained(truth, believed, named, world)
    correct = outcome.completed and believed == dict(planned.items()) and not unexplained and not world.loose
    named_stop = stop is not None and named is not None and not unexplained
    message = stop.describe() if stop is not None else "completed"
    if outcome.recovery_error is not None:
        message += f" [recovery failed: {outcome.recovery_error}]"
    return EpisodeResult(
        episode,
        detected=bool(outcome.faults),
        completed=outcome.completed,
        correct=correct,
        named_stop=named_stop,
        unknown_pieces=len(unexplained),
        recoveries=outcome.recoveries,
        seconds=seconds,
        message=message,
    )


def _unexplained(
    truth: dict[Location, Piece], believed: dict[Location, Piece], named: Piece | None, world: World
) -> list[str]:
    """Pieces whose real place differs from the belief, except the one named piece (found where it fell)."""
    problems: list[str] = []
    explained = False
    for loc in set(truth) | set(believed):
        if truth.get(loc) == believed.get(loc):
            continue
        if named is not None and not explained and believed.get(loc) is None and truth.get(loc) == named:
            explained = True
            continue
        problems.append(f"{loc}: real {truth.get(loc)}, believed {believed.get(loc)}")
    lost = [*(p.piece for p in world.loose), *([world.held] if world.held is not None else [])]
    for piece in lost:
        if named is not None and not explained and piece == named:
            explained = True
            continue
        problems.append(f"{piece.label} loose or held")
    return problems
