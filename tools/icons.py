"""Draw the app's PNG icons from their SVG sources with Chromium (the web app manifest
needs PNGs at 192 and 512 pixels, one of them maskable): `make icons`.

The maskable icon keeps its figure inside the central circle of 80% that every launcher
shape leaves visible; its background fills the whole square.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "app" / "web" / "static" / "icons"
# (source, size, output)
DRAWN = (
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
)


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for source, size, output in DRAWN:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(ICONS / output), omit_background=True)
            page.close()
            print(f"{output}: {size}x{size} from {source}")
        browser.close()


if __name__ == "__main__":
    main()
