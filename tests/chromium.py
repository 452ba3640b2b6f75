"""Debian's headless Chromium driven by selenium, shared by the browser tests (the run report's
and the comparison's): one started browser per module, its screen size set the way a phone or a
desktop would set it, and small waits and script calls.

A test module that imports this still collects where chromium is missing: ``chromium`` skips.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # Without these, Chromium asks this machine's closed network for updates and sync.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


@contextmanager
def chromium(width: int, *, logs: bool = False) -> Iterator[Any]:
    """A headless Chromium with a new empty profile and a ``width`` x 900 screen; ``logs`` keeps
    the console messages and every network event of the page to read back (``get_log``)."""
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("needs chromium and chromedriver (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="summscore-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},900"):
        options.add_argument(flag)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        screen(driver, width)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screen(driver: Any, width: int, height: int = 900) -> None:
    """Set the page's screen to ``width`` x ``height`` CSS pixels (the window and the viewport)."""
    driver.set_window_size(width, height)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def wait(driver: Any, condition: Callable[[Any], Any]) -> None:
    """Wait (up to 30 s) until ``condition(driver)`` is true."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(condition)


def js(driver: Any, script: str) -> Any:
    """Run ``script`` in the page and return its value."""
    return driver.execute_script(script)
