"""The page in a real browser (headless Chromium) against a simulated game: a move the simulated human makes on
the virtual board appears on the page, the camera frame is shown, and STOP pressed on the page holds the arm and
ends the game."""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from controller.game.settings import Mode
from controller.runner.options import SessionOptions, SessionResult
from controller.runner.session import run_session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))
from runner_sim import TruthEyes

pytestmark = pytest.mark.slow
FIRST_MOVE = "const li = document.querySelector('#moves li'); return li ? li.textContent : null;"


def _chromium() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=420,900"):  # fmt: skip
        options.add_argument(flag)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)


def test_a_simulated_games_move_shows_and_stop_ends_it(tmp_path: Path) -> None:
    """The first move made on the virtual board is listed on the page in Japanese; STOP ends the game."""
    lines: list[str] = []
    results: list[SessionResult] = []
    options = SessionOptions(
        Mode.PLAY, sim=True, out=tmp_path, name="b", max_plies=60, board_every=0, stall_s=90, web=True, web_port=0
    )
    session = threading.Thread(target=lambda: results.append(run_session(options, say=lines.append, eyes=TruthEyes)))
    session.start()
    driver = _chromium()
    try:
        WebDriverWait(driver, 30, poll_frequency=0.1).until(lambda _d: any("web page:" in line for line in lines))
        url = next(line for line in lines if "web page:" in line).split("web page: ")[1]
        driver.get(url)
        # one script reads the first listed move: the list is re-drawn on every update (no stale element)
        first = WebDriverWait(driver, 60).until(lambda d: d.execute_script(FIRST_MOVE))
        driver.find_element(By.ID, "estop").click()
        session.join(timeout=60)
    finally:
        driver.quit()
    assert results, "the session did not end after STOP"
    state = results[0].report.state
    assert "▲" in first and state.usi_moves[0] in first
    assert state.result is not None and "emergency stop" in state.result.detail
