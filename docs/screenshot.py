"""Makes docs/ask.png and docs/report.png, the README's screenshots: a real `kgcite serve`
(shipped BioKaLMA graph, SmolLM2), a question asked in headless Chromium, one citation opened.

    python docs/screenshot.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from kgcite.server.launch import served

HERE = Path(__file__).parent
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--question", default="Who was Stephen Crane's father, and where was he born?")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    answers = resources.files("kgcite") / "data" / "samples" / "biokalma_sample_answers.jsonl"
    with tempfile.TemporaryDirectory() as tmp:
        reports = Path(tmp) / "reports"
        subprocess.run(["kgcite", "eval", "all", "--answers", str(answers), "--out", str(reports / "samples")], check=True)
        with served(["--reports", str(reports)]) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=FLAGS)
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(url + "/")
            page.fill("#question", args.question)
            page.click("#ask")
            page.wait_for_selector("#result:not([hidden])", timeout=300_000)
            page.locator("#answer .chip").first.click()
            page.screenshot(path=str(HERE / "ask.png"))
            page.goto(url + "/report")
            page.wait_for_selector("#report img")
            page.wait_for_function("() => [...document.querySelectorAll('#report img')].every(i => i.complete)")
            page.screenshot(path=str(HERE / "report.png"))
            browser.close()
    print("wrote", HERE / "ask.png", HERE / "report.png", file=sys.stderr)


if __name__ == "__main__":
    main()
