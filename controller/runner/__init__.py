"""The imperative shell that runs a game for real: camera frames in, the state machine stepped, its commands
carried out (engine, gantry, journal, announcements, prompts), progress shown.

- `shell.GameShell`: the loop (frames -> motion gate -> reader -> reconciler -> events -> `step` -> commands).
- `opponent.EngineOpponent`: the engine asked in a worker thread (`EngineMoved` comes back as an event).
- `robot.GantryRobot`: planner + executor in a worker thread (`TransferDone` / `TransferFailed`).
- `eyes.CameraEyes`: frame source, motion gate, reader and adapter as one `look(now) -> Observation`.
- `display`: the console progress (moves in Japanese and USI, clocks, a compact board) and the web view.
The concrete parts are chosen in `controller.compose`; nothing here imports firmware_bridge or hardware.
"""
