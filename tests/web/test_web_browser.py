"""The page in a real browser (headless Chromium from Debian, driven by Selenium): a move made in the game
appears on the page, and a prompt answered on the page reaches the game. Prints the page update latency."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from controller.web.hub import CommandKind, ViewHub
from controller.web.server import WebServer
from controller.web.view import ClockView, GameView, PromptView

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=420,900"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def served() -> Iterator[tuple[WebServer, ViewHub]]:
    hub = ViewHub()
    server = WebServer(hub, port=0)
    server.start()
    yield server, hub
    server.stop()


def _version(driver: webdriver.Chrome) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") or -1)


def test_move_appears_on_the_page(browser: webdriver.Chrome, served: tuple[WebServer, ViewHub]) -> None:
    """It should show a new move (Japanese notation, highlighted squares) pushed by the game, without reloading."""
    server, hub = served
    hub.publish(GameView(mode="play", status="sente to move", clocks=ClockView(600_000, 600_000, 30_000, "b")))
    browser.get(server.url)
    WebDriverWait(browser, 10).until(lambda d: _version(d) >= 1)
    latencies = []
    moves: tuple[str, ...] = ()
    for usi in ("7g7f", "3c3d", "8h2b+"):
        moves = (*moves, usi)
        start = time.perf_counter()
        version = hub.publish(GameView(mode="play", moves=moves, status="engine thinking"))
        WebDriverWait(browser, 10).until(lambda d, v=version: _version(d) >= v)
        latencies.append((time.perf_counter() - start) * 1000)
    items = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#moves li .ja")]
    assert items == ["▲７六歩", "△３四歩", "▲２二角成"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board rect.last")) == 2
    assert browser.find_element(By.ID, "status").text == "engine thinking"
    print(f"page update latency: median {sorted(latencies)[1]:.1f} ms over {len(latencies)} moves")


def test_prompt_answer_reaches_the_game(browser: webdriver.Chrome, served: tuple[WebServer, ViewHub]) -> None:
    """It should offer the prompt's options as buttons and deliver the chosen answer to the game."""
    server, hub = served
    browser.get(server.url)
    version = hub.publish(GameView(prompt=PromptView("p3", "Promote the silver on 3c?", ("promote", "keep"))))
    WebDriverWait(browser, 10).until(lambda d: _version(d) >= version)
    assert browser.find_element(By.ID, "prompt-question").text == "Promote the silver on 3c?"
    buttons = browser.find_elements(By.CSS_SELECTOR, "#prompt-options button")
    next(button for button in buttons if button.text == "keep").click()
    command = hub.take_command(timeout_s=5)
    assert command is not None and command.kind is CommandKind.ANSWER
    assert command.args == {"prompt_id": "p3", "answer": "keep"}


def test_emergency_stop_button(browser: webdriver.Chrome, served: tuple[WebServer, ViewHub]) -> None:
    """It should send an emergency stop from the header button."""
    server, hub = served
    browser.get(server.url)
    WebDriverWait(browser, 10).until(lambda d: _version(d) >= 0)
    browser.find_element(By.ID, "estop").click()
    command = hub.take_command(timeout_s=5)
    assert command is not None and command.kind is CommandKind.EMERGENCY_STOP


def test_typed_move_answers_a_move_question(browser: webdriver.Chrome, served: tuple[WebServer, ViewHub]) -> None:
    """It should offer a field for the move(s) played under a move question and send what is typed as the answer
    (the question's way out when no option is the move)."""
    server, hub = served
    browser.get(server.url)
    view = GameView(prompt=PromptView("p4", "move: L*8a / S*8a / another move", ("L*8a", "S*8a", "another move"), True))
    version = hub.publish(view)
    WebDriverWait(browser, 10).until(lambda d: _version(d) >= version)
    field = browser.find_element(By.ID, "prompt-move")
    assert field.is_displayed()
    field.send_keys("R*8a B*8h")
    browser.find_element(By.CSS_SELECTOR, "#prompt-typed button").click()
    command = hub.take_command(timeout_s=5)
    assert command is not None and command.kind is CommandKind.ANSWER
    assert command.args == {"prompt_id": "p4", "answer": "R*8a B*8h"}


def test_typed_field_hidden_for_other_questions(browser: webdriver.Chrome, served: tuple[WebServer, ViewHub]) -> None:
    """It should not offer the move field for a question that is not about a move (a takeback offer)."""
    server, hub = served
    browser.get(server.url)
    version = hub.publish(GameView(prompt=PromptView("p5", "Take back 1 move?", ("take back", "keep playing"))))
    WebDriverWait(browser, 10).until(lambda d: _version(d) >= version)
    assert not browser.find_element(By.ID, "prompt-move").is_displayed()
