"""How fast the site's "try it" page answers in a real browser: the time from opening the page to the engine
ready (the Python runtime, the reference engine and the scenarios loaded), the time each move takes from the
click to the redrawn board (the engine's answer, the step's account, the new position drawn), and the time an
edit of the board takes (a wall space clicked in the edit mode: the position changed and drawn again).

Serves a built site on loopback and opens try/ in headless Chromium (/usr/bin/chromium, as the site's browser
tests): the page loads a fresh game, then up to --moves moves are clicked, each the first legal one shown, with
the next round dealt when one ends; then the edit mode is opened and a wall space clicked --edits times.
Goals (issue's): load <= 5 s, a move <= 100 ms. --lang opens another language's page (fr/try/...).

    npm ci && mkdocs build -d /tmp/site && python benchmarks/bench_tryit.py --site /tmp/site
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import tempfile
import threading
import time
from pathlib import Path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


CLICK = """
const button = document.querySelector('.try-move');
if (!button) return null;
const started = performance.now();
button.click();
return performance.now() - started;
"""

EDIT = """
const space = document.querySelector('#try-board [data-edit^="wall 0 "]');
const started = performance.now();
space.dispatchEvent(new MouseEvent('click', {bubbles: true}));
return performance.now() - started;
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site (mkdocs build -d DIR) with its runtime")
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--lang", default="", help="the page of another language of the site: fr, de...")
    args = parser.parse_args()
    if not (args.site / "try" / "pyodide" / "pyodide.asm.wasm").is_file():
        raise SystemExit(f"{args.site}/try has no Python runtime: run `npm ci` before `mkdocs build`")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='azul-bench-')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        loads = []
        for _ in range(args.loads):  # the first load also fills the browser's cache; later ones are served from it
            driver.get("about:blank")
            started = time.perf_counter()
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/{args.lang + '/' if args.lang else ''}try/")
            WebDriverWait(driver, 120).until(
                lambda d: d.find_element(By.ID, "try-status").get_attribute("data-state"))
            loads.append(time.perf_counter() - started)
        moves = []
        while len(moves) < args.moves:
            took = driver.execute_script(CLICK)
            if took is None:  # a round ended: deal the next one, or the game is over
                deal = driver.find_elements(By.CSS_SELECTOR, ".try-deal")
                if not deal:
                    break
                deal[0].click()
                continue
            moves.append(took)
        driver.execute_script("document.getElementById('try-edit').click()")
        edits = [driver.execute_script(EDIT) for _ in range(args.edits)]
    finally:
        driver.quit()
        server.shutdown()
    print(f"load (open to engine ready): first {loads[0]:.2f} s, then median "
          f"{statistics.median(loads[1:] or loads):.2f} s over {len(loads)} loads (goal <= 5 s)")
    print(f"a move (click to redrawn board): median {statistics.median(moves):.1f} ms, "
          f"max {max(moves):.1f} ms over {len(moves)} moves (goal <= 100 ms)")
    print(f"an edit (click on a wall space to redrawn board): median {statistics.median(edits):.1f} ms, "
          f"max {max(edits):.1f} ms over {len(edits)} edits")


if __name__ == "__main__":
    main()
