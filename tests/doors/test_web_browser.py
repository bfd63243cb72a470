"""The web view in a real browser: Debian's headless Chromium driven by Selenium through the
system's chromedriver (nothing is downloaded), against `memoir serve` on 127.0.0.1.

A person's walk: the conversation, year -> month -> week -> day -> segment, a bullet's grip
to the original message; a search and its hit's session; a memory edited (its Markdown file
changes) and forgotten; a job paused and resumed; a memory holding markup shown as text.
Screenshots of each page go to tests/screenshots/ (git-ignored). Without Chromium and its
driver the tests are skipped with how to get them, except under CI, where they must run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memoir import Memoir
from memoir.server import serving

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversation.jsonl"
SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
MARKUP = "The user's note: <script>alert('x')</script> and <img src=x onerror=alert(2)>"


def browser_parts() -> tuple[str, str]:
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    advice = "no Chromium and chromedriver for the browser tests: as root, apt-get install chromium chromium-driver"
    if os.environ.get("CI"):
        pytest.fail(advice + "; under CI they must be there (make test installs them)")
    pytest.skip(advice)


@pytest.fixture
def site(open_memoir: Callable[..., Memoir]) -> Iterator[tuple[Memoir, str]]:
    memoir = open_memoir(embedding_provider="hashing")
    memoir.ingest([json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()])
    memoir.flush()
    memoir.update_timeline(rebuild=True)
    with serving(memoir) as where:
        yield memoir, where.url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    chromium, driver = browser_parts()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900", "--no-first-run"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    service = webdriver.ChromeService(executable_path=driver)  # the system's: Selenium fetches none
    chrome = webdriver.Chrome(options=options, service=service)
    chrome.implicitly_wait(5)
    try:
        yield chrome
    finally:
        chrome.quit()


def shot(browser: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"{name}.png"))


def click_link(browser: Any, starting: str) -> None:
    """Follow the first link on the page whose address starts with `starting` (as a person would click it)."""
    for link in browser.find_elements(By.CSS_SELECTOR, "main a"):
        if (link.get_dom_attribute("href") or "").startswith(starting):  # as written in the page
            link.click()
            return
    raise AssertionError(f"no link to {starting} on {browser.current_url}")


def test_a_person_walks_from_the_conversation_down_to_the_original_message(
    site: tuple[Memoir, str], browser: Any
) -> None:
    _, url = site
    browser.get(url + "/")
    shot(browser, "conversations")
    click_link(browser, "/ui/c/lighthouse")
    assert browser.find_element(By.CSS_SELECTOR, "figure.chart svg")  # events per day
    shot(browser, "conversation")
    levels = []
    click_link(browser, "/ui/c/lighthouse/node/")
    while True:
        level = browser.find_element(By.CSS_SELECTOR, "main p.muted").text.split(" ·")[0]
        levels.append(level)
        if level == "segment":
            break
        inside = browser.find_elements(By.XPATH, "//h2[text()='Inside it']/following-sibling::ul[1]//a")
        assert inside, f"{level} node with nothing inside"
        inside[0].click()
    shot(browser, "segment")
    assert levels == ["year", "month", "week", "day", "segment"], levels
    browser.find_element(By.CSS_SELECTOR, "a.grip").click()
    marked = browser.find_elements(By.CSS_SELECTOR, "tr.mark")
    assert marked and marked[0].find_element(By.CSS_SELECTOR, "td.text").text
    shot(browser, "evidence")


def test_search_then_open_the_hits_session(site: tuple[Memoir, str], browser: Any) -> None:
    _, url = site
    browser.get(url + "/ui/search")
    box = browser.find_element(By.ID, "q")
    box.send_keys("allergic")
    box.submit()
    assert "allerg" in browser.find_element(By.CSS_SELECTOR, "ol.hits").text.lower()
    shot(browser, "search")
    click_link(browser, "/ui/c/lighthouse/events?session=")
    assert len(browser.find_elements(By.CSS_SELECTOR, "tbody tr")) > 1


def test_edit_and_forget_a_memory_pause_and_resume_a_job(site: tuple[Memoir, str], browser: Any) -> None:
    memoir, url = site
    fact = memoir.remember("The user's dog is called Biscut")
    browser.get(f"{url}/ui/memory/{fact.id}")
    text = browser.find_element(By.ID, "text")
    text.clear()
    text.send_keys("The user's dog is called Biscuit")
    browser.find_element(By.XPATH, "//button[text()='Save the correction']").click()
    # The click only starts the form's post: wait for the page it leads to, the new version's.
    WebDriverWait(browser, 10).until(lambda b: "/edit" not in b.current_url and not b.current_url.endswith(fact.id))
    new_id = browser.current_url.rsplit("/", 1)[1]
    assert "called Biscuit" in memoir.memory_path(new_id).read_text()
    shot(browser, "memory")
    browser.find_element(By.XPATH, "//button[text()='Forget this memory']").click()
    # The old page's <main> may be read as the new page replaces it: stale, so read again.
    waiting = WebDriverWait(browser, 10, ignored_exceptions=(StaleElementReferenceException,))
    waiting.until(lambda b: "Forgotten" in b.find_element(By.TAG_NAME, "main").text)
    assert memoir.memory_history(new_id)[-1].deleted_at is not None
    browser.get(url + "/ui/work")
    browser.find_element(By.CSS_SELECTOR, "button[aria-label='pause segment']").click()
    browser.find_element(By.CSS_SELECTOR, "button[aria-label='resume segment']")  # the page again, waited for
    assert next(j for j in memoir.scheduler_status() if j.name == "segment").paused
    shot(browser, "work")
    browser.find_element(By.CSS_SELECTOR, "button[aria-label='resume segment']").click()
    browser.find_element(By.CSS_SELECTOR, "button[aria-label='pause segment']")
    assert not next(j for j in memoir.scheduler_status() if j.name == "segment").paused


def test_a_memory_holding_markup_is_shown_as_text(site: tuple[Memoir, str], browser: Any) -> None:
    memoir, url = site
    fact = memoir.remember(MARKUP)
    browser.get(f"{url}/ui/memory/{fact.id}")
    assert browser.find_element(By.TAG_NAME, "blockquote").text == MARKUP
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - no script ran
    assert not browser.find_elements(By.CSS_SELECTOR, "main script, main img")
