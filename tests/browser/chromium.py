"""Open a local HTML file in headless Chromium and report what a reader would get.

Reusable by any test of a page the project writes (feedback.html, the class
report ...)::

    from chromium import available, render, SKIP_REASON

    @pytest.mark.skipif(not available(), reason=SKIP_REASON)
    def test_page(tmp_path):
        page = render(path, evaluate={"boards": "document.querySelectorAll('figure.board').length"})
        assert page.values["boards"] == 3
        assert page.console_errors == [] and page.requests == []
        Path("shot.png").write_bytes(page.screenshot)

:func:`render` returns a :class:`Rendered`: the DOM after load
(``document.documentElement.outerHTML``), a full-page PNG screenshot, the
console errors and uncaught exceptions, every request the page made other
than loading its own file, and the values of the JavaScript expressions
asked for.

How: Debian's ``chromium`` (``scripts/setup.sh`` installs it) with the
DevTools protocol over ``--remote-debugging-pipe`` (JSON messages ending in
NUL on file descriptors 3 and 4): no port, no websocket, nothing else to
install. The browser runs with a fresh profile in a temporary directory and
every background service off, in its own process group, which is killed at
the end.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
SKIP_REASON = f"{CHROMIUM} is absent (scripts/setup.sh installs Debian's chromium package)"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars")


def available() -> bool:
    """Whether the Chromium this helper drives is installed."""
    return CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)


@dataclass
class Rendered:
    """What headless Chromium made of a page."""

    dom: str
    screenshot: bytes  # PNG of the whole page
    console_errors: list[str] = field(default_factory=list)  # console.error, exceptions, CSP refusals
    requests: list[str] = field(default_factory=list)  # URLs fetched besides the page's own file
    values: dict[str, Any] = field(default_factory=dict)  # the evaluated expressions, by name
    pdf: bytes = b""  # the page printed (print media, A4), when asked for


class DevToolsError(RuntimeError):
    """Chromium did not answer as the protocol says (or not in time)."""


class _Browser:
    """One headless Chromium and its DevTools pipe."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="solitaire-chromium-")
        to_browser_r, self._write_fd = os.pipe()
        self._read_fd, from_browser_w = os.pipe()

        def fds() -> None:  # in the child: the browser reads commands on fd 3, writes replies on fd 4
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4 first
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)  # dup2 copies are inheritable; every other descriptor of ours is not
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False, start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError("Chromium did not answer in time")
            ready, _, _ = select.select([self._read_fd], [], [], left)
            if ready:
                chunk = os.read(self._read_fd, 1 << 20)
                if not chunk:
                    raise DevToolsError("Chromium closed its DevTools pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Send one command; return its result (events that arrive meanwhile are kept in ``events``)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write_fd, _frame(message))
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        """The first event ``method`` (already received or still to come)."""
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self.events:
                if event.get("method") == method:
                    return event
            self.events.append(self._read_message(deadline))

    def evaluate(self, expression: str, session: str) -> Any:
        """The value of a JavaScript ``expression`` in the page (JSON-able values only)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise DevToolsError(f"evaluating {expression!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                try:
                    os.write(self._write_fd, _frame({"id": 0, "method": "Browser.close"}))
                    self.process.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)  # the browser's own group, started here
                self.process.wait()
            for fd in (self._read_fd, self._write_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)


def _frame(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\0"


def _console_errors(events: list[dict[str, Any]]) -> list[str]:
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = params.get("args", [])
            found.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            found.append(str(details.get("exception", {}).get("description") or details.get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            found.append(str(params["entry"].get("text")))
    return found


def render(path: str | Path, *, width: int = 1200, height: int = 900, max_height: int | None = None,
           top: str | None = None, evaluate: dict[str, str] | None = None, pdf: bool = False,
           timeout: float = 60.0) -> Rendered:
    """Load the local file ``path`` in headless Chromium (a ``width`` x ``height`` window); return its DOM,
    a screenshot of the whole page (at most ``max_height`` pixels of it, from the element the CSS
    selector ``top`` picks when given), console errors, requests, the value of each JavaScript
    expression of ``evaluate`` and, with ``pdf``, the page printed to PDF."""
    if not available():
        raise FileNotFoundError(SKIP_REASON)
    url = Path(path).resolve().as_uri()
    browser = _Browser(timeout)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            browser.send(f"{domain}.enable", session=session)
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        browser.events.clear()  # what about:blank did is not the page's
        browser.send("Page.navigate", {"url": url}, session)
        browser.wait_for("Page.loadEventFired")
        values = {name: browser.evaluate(code, session) for name, code in (evaluate or {}).items()}
        dom = browser.evaluate("document.documentElement.outerHTML", session)
        size = browser.send("Page.getLayoutMetrics", session=session)["cssContentSize"]
        y = 0.0
        if top is not None:
            y = browser.evaluate(f"document.querySelector({json.dumps(top)}).getBoundingClientRect().top"
                                 " + window.scrollY", session)
        shot = browser.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": y, "width": width, "scale": 1,
                     "height": min(size["height"] - y, max_height or size["height"])}}, session)
        printed = b""
        if pdf:
            printed = base64.b64decode(browser.send("Page.printToPDF", {
                "paperWidth": 8.27, "paperHeight": 11.69, "printBackground": True}, session)["data"])
        fetched = [e["params"]["request"]["url"] for e in browser.events
                   if e.get("method") == "Network.requestWillBeSent"]
        return Rendered(dom, base64.b64decode(shot["data"]), _console_errors(browser.events),
                        [u for u in fetched if u != url], values, printed)
    finally:
        browser.close()
