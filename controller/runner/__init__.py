"""The imperative shell that runs a game for real: camera frames in, the state machine stepped, its commands
carried out (engine, gantry, journal, announcements, prompts), progress shown.

- `shell.GameShell`: the loop (frames -> motion gate -> reader -> reconciler -> events -> `step` -> commands).
- `effects.Effects`: what each command does (journal with fsync first, engine, gantry, console/speech/web).
- `opponent.EngineOpponent`: the engine asked in a worker thread (`EngineMoved` comes back as an event).
- `robot.GantryRobot`: planner + executor in a worker thread (`TransferDone` / `TransferFailed`, one retry).
- `eyes.CameraEyes`: frame source, motion gate, reader and adapter as one `look(now) -> Observation`.
- `sim_scene.SimScene`: the simulated person at the virtual board (`--sim` only).
- `session.run_session` / `options.SessionOptions`: one game wired from the config and the command's flags.
- `display`: the console progress (moves in Japanese and USI, clocks, a compact board) and the web view.
Concrete parts are chosen in `controller.compose`; nothing here imports firmware_bridge.
"""
