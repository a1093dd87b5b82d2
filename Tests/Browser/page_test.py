"""Browser tests of the page `catalog serve` serves, in a real Chromium (Tests/Browser/run.sh).

A catalog is made from the generated sample photos (`sample-photos` + `catalog import`), the real
server is started on it (`catalog serve --port 0`), and the page is used as a person would: the
grid and its images, the detail view, colour search (typed, picked, bookmarked), a pack made from
picked stickers, reordered by drag and drop and by keyboard, an emoji set, a cut-out fixed (a box
and points, by mouse and by keyboard, previewed, undone, saved, reset), exported for WhatsApp
(the fit report, then the download, compared with `catalog export`), photos imported by upload,
settings changed and the stale stickers reprocessed from the page, and entries added by `catalog
import` / `catalog reprocess` processes while the server serves. No step may log a console error.
Screenshots go to $BROWSER_OUT/screens: look at them.

The last line is "N passed, M failed".
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CATALOG = os.environ["CATALOG_BIN"]
SAMPLES = os.environ["SAMPLES_BIN"]
OUT = os.environ["BROWSER_OUT"]
SCREENS = os.path.join(OUT, "screens")
DOWNLOADS = os.path.join(OUT, "downloads")
TIMEOUT = float(os.environ.get("BROWSER_TIMEOUT", "60"))


def catalog(db, *args, check=True):
    result = subprocess.run([CATALOG, "--catalog", db, *args], capture_output=True, text=True)
    if check and result.returncode not in (0, 1):
        raise AssertionError(f"catalog {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


class Fixture:
    """The catalog, the server and the browser the steps share."""

    def __init__(self):
        for folder in (SCREENS, DOWNLOADS):
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
        self.work = tempfile.mkdtemp(prefix="page-test-", dir=OUT)
        self.db = os.path.join(self.work, "catalog.sqlite")
        photos = os.path.join(self.work, "photos")
        subprocess.run([SAMPLES, photos], check=True, capture_output=True)
        # A file that cannot become a sticker: the page shows it apart, with its reason.
        with open(os.path.join(photos, "not-a-photo.jpg"), "wb") as handle:
            handle.write(b"this is not an image" * 50)
        # As `make demo` does: import, then import again into the pack "demo" (a no-op import).
        catalog(self.db, "import", photos)
        catalog(self.db, "import", photos, "--pack", "demo")
        self.entries = json.loads(catalog(self.db, "list", "--json").stdout)
        self.ok_ids = sorted(e["id"] for e in self.entries if e["status"] == "ok")
        self.orange_id = next(e["id"] for e in self.entries if "orange" in e["path"])
        self.teal_id = next(e["id"] for e in self.entries if "teal" in e["path"])
        self.start_server()
        self.start_browser()

    def start_server(self):
        self.server = subprocess.Popen(
            [CATALOG, "--catalog", self.db, "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.server.stdout.readline()
        match = re.search(r"(https?://\S+)", line)
        if not match:
            self.server.kill()
            raise AssertionError(f"no URL in the server's first line: {line!r} {self.server.stderr.read()}")
        self.url = match.group(1).rstrip("/") + "/"

    def start_browser(self):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                         "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-GB"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {
            "download.default_directory": DOWNLOADS,
            "download.prompt_for_download": False,
            "profile.default_content_setting_values.automatic_downloads": 1,
        })
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_script_timeout(30)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": DOWNLOADS})

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.server.terminate()
            try:
                self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()

    # Helpers the steps use.

    def api(self, path):
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=30) as response:
            return json.loads(response.read())

    def open(self, hash_part=""):
        self.driver.get(self.url + hash_part)
        self.wait_tiles_loaded()

    def wait(self, condition, message, timeout=TIMEOUT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.2).until(lambda d: condition())
        except TimeoutException:
            raise AssertionError(f"timed out: {message}") from None

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def tile_ids(self):
        return self.js("return [...document.querySelectorAll('.vgrid .tile[data-entry-id]')].map(t => Number(t.dataset.entryId))")

    def wait_tiles_loaded(self, count=None):
        def ready():
            state = self.js("""
                const tiles = [...document.querySelectorAll('.vgrid .tile[data-entry-id]')];
                const imgs = tiles.map(t => t.querySelector('img'));
                return {tiles: tiles.length, loaded: imgs.filter(i => i && i.complete && i.naturalWidth > 0).length,
                        placeholders: document.querySelectorAll('.vgrid .placeholder').length};""")
            if count is not None and state["tiles"] != count:
                return False
            return state["tiles"] > 0 and state["loaded"] == state["tiles"] and state["placeholders"] == 0
        self.wait(ready, f"tiles with loaded images ({count if count is not None else 'any'})")

    def screenshot(self, name):
        self.driver.save_screenshot(os.path.join(SCREENS, name + ".png"))

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def press(self, *keys):
        """Keys typed into whatever has the focus, as a person would."""
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    def pack_ids(self, name):
        return [item["id"] for item in self.api(f"/api/packs/{name}")["items"]]


STEPS = []


def step(function):
    STEPS.append(function)
    return function


@step
def grid_shows_every_sticker_with_its_image(f):
    f.open()
    f.wait_tiles_loaded(len(f.ok_ids))
    assert sorted(f.tile_ids()) == f.ok_ids, (f.tile_ids(), f.ok_ids)
    # Newest first.
    assert f.tile_ids() == sorted(f.ok_ids, reverse=True), f.tile_ids()
    # Each tile sits over its palette gradient.
    backgrounds = f.js("return [...document.querySelectorAll('.vgrid .tile-art')].map(a => getComputedStyle(a).backgroundImage)")
    assert all("gradient" in b for b in backgrounds), backgrounds
    # The failed photo is shown apart, with its reason.
    f.wait(lambda: f.js("return document.querySelector('.failed-box summary')?.textContent || ''").startswith("1 photo could not"), "failed section")
    f.driver.find_element(By.CSS_SELECTOR, ".failed-box summary").click()
    f.wait(lambda: "unsupported-format" in f.js("return document.querySelector('.failed-list').textContent"), "failure reason")
    first = f.js("return performance.getEntriesByName('first-stickers-drawn')[0]?.startTime ?? null")
    f.wait(lambda: f.js("return performance.getEntriesByName('first-stickers-drawn').length") > 0, "first-stickers-drawn mark")
    first = f.js("return performance.getEntriesByName('first-stickers-drawn')[0].startTime")
    print(f"  first screen of stickers drawn {first:.0f} ms after navigation start (Performance API)")
    f.screenshot("01-grid")


@step
def detail_view_shows_sticker_photo_exif_palette_and_steps_with_arrows(f):
    f.open()
    f.driver.find_element(By.CSS_SELECTOR, f'.tile[data-entry-id="{f.orange_id}"] .tile-open').click()
    f.wait(lambda: f.js("return document.getElementById('detail').open"), "detail dialog open")
    f.wait(lambda: f.js("const i = document.querySelector('.detail-photo img'); return !!i && i.complete && i.naturalWidth > 0"), "source photo loaded")
    f.wait(lambda: f.js("const i = document.querySelector('.detail-art img'); return !!i && i.complete && i.naturalWidth > 0"), "sticker loaded")
    text = f.js("return document.getElementById('detail').textContent")
    assert "Sticker Labs" in text and "Palette" in text, text[:400]
    swatches = f.js("return [...document.querySelectorAll('.swatch .swatch-hex')].map(s => s.textContent)")
    assert swatches and all(re.fullmatch(r"#[0-9a-f]{6}", s) for s in swatches), swatches
    f.screenshot("02-detail")
    title = f.js("return document.getElementById('detail-title').textContent")
    f.press(Keys.ARROW_RIGHT)
    f.wait(lambda: f.js("return document.getElementById('detail-title').textContent") != title, "arrow key steps to the next entry")
    f.press(Keys.ARROW_LEFT)
    f.wait(lambda: f.js("return document.getElementById('detail-title').textContent") == title, "arrow key steps back")
    f.press(Keys.ESCAPE)
    f.wait(lambda: not f.js("return document.getElementById('detail').open"), "Escape closes the detail")


def open_detail(f, entry_id):
    f.open()
    f.driver.find_element(By.CSS_SELECTOR, f'.tile[data-entry-id="{entry_id}"] .tile-open').click()
    f.wait(lambda: f.js("return document.getElementById('detail').open && !!document.querySelector('.fix-button')"), "detail with its Fix button")


def fix_preview(f):
    """The preview's version (0: the sticker as it is) and its size in bytes."""
    return f.js("const i = document.querySelector('.fix-preview-img'); return i ? [Number(i.dataset.version), Number(i.dataset.bytes || 0)] : null")


def wait_preview(f, version, message):
    f.wait(lambda: (fix_preview(f) or [0])[0] >= version and f.js("return document.querySelector('.fix-result').getAttribute('aria-busy') === 'false'"),
           f"preview {version}: {message}", timeout=90)
    status = f.js("return document.querySelector('.fix-status').textContent")
    assert status.startswith("Preview ready"), status
    return fix_preview(f)


def stage_point(f, fx, fy):
    """Offsets from the stage's centre (what ActionChains wants) for a point at fractions of the photo."""
    rect = f.js("const r = document.querySelector('.fix-stage').getBoundingClientRect(); return [r.width, r.height]")
    return int((fx - 0.5) * rect[0]), int((fy - 0.5) * rect[1])


def chord(f, modifier, key, times=1):
    """`key` pressed `times` with `modifier` held (ActionChains.send_keys releases each key at once)."""
    chain = ActionChains(f.driver).key_down(modifier)
    for _ in range(times):
        chain.send_keys(key)
    chain.key_up(modifier).perform()


def stored_guidance(f, entry_id):
    return f.api(f"/api/entries/{entry_id}").get("guidance")


@step
def fix_the_cutout_with_the_mouse_box_point_undo_save(f):
    entry_id = f.orange_id
    entry = f.api(f"/api/entries/{entry_id}")
    width, height = entry["width"], entry["height"]
    automatic = len(urllib.request.urlopen(f.url + f"api/stickers/{entry_id}.png", timeout=30).read())
    open_detail(f, entry_id)
    assert "Cut out automatically" in f.js("return document.querySelector('.guided-note').textContent")
    f.driver.find_element(By.CSS_SELECTOR, ".fix-button").click()
    f.wait(lambda: f.js("const i = document.querySelector('.fix-stage img'); return !!i && i.complete && i.naturalWidth > 0"), "the photo in fix mode")
    assert f.js("return document.querySelector('.fix').contains(document.activeElement)"), "focus moves into the mode"
    assert f.js("return document.querySelector('.fix-tool-box').getAttribute('aria-pressed')") == "true", "the box tool is on first"
    stage = f.driver.find_element(By.CSS_SELECTOR, ".fix-stage")
    # A box over the left part of the photo: from 4 % to 58 % across, 6 % to 94 % down.
    (x0, y0), (x1, y1) = stage_point(f, 0.04, 0.06), stage_point(f, 0.58, 0.94)
    ActionChains(f.driver).move_to_element_with_offset(stage, x0, y0).click_and_hold() \
        .move_to_element_with_offset(stage, (x0 + x1) // 2, (y0 + y1) // 2).move_to_element_with_offset(stage, x1, y1).release().perform()
    boxed = wait_preview(f, 1, "after the box")
    box = f.js("return document.querySelector('.fix-box:not(.fix-draft)').hidden") is False
    assert box, "the box is drawn on the photo"
    # Take out a part: the tool, then a click on the ball's lower left, inside the box.
    f.driver.find_element(By.CSS_SELECTOR, ".fix-tool-exclude").click()
    ex, ey = stage_point(f, 0.3, 0.7)
    ActionChains(f.driver).move_to_element_with_offset(stage, ex, ey).click().perform()
    f.wait(lambda: f.js("return document.querySelectorAll('.fix-mark.fix-exclude').length") == 1, "the exclude marker")
    pointed = wait_preview(f, 2, "after the exclude point")
    f.screenshot("02b-fix-box-and-point")
    print(f"  sticker bytes: automatic {automatic}, with the box {boxed[1]}, with the box and the point {pointed[1]}")
    assert boxed[1] != automatic, "the box changes the sticker"
    assert pointed[1] != boxed[1], "the exclude point changes the sticker"
    # Undo takes the point back out: the preview is the box's again, byte for byte.
    f.driver.find_element(By.XPATH, "//section[@class='fix']//button[normalize-space()='Undo']").click()
    f.wait(lambda: f.js("return document.querySelectorAll('.fix-mark').length") == 0, "undo removes the marker")
    undone = wait_preview(f, 3, "after undo")
    assert undone[1] == boxed[1], (undone, boxed)
    f.driver.find_element(By.CSS_SELECTOR, ".fix-save").click()
    f.wait(lambda: not f.js("return !!document.querySelector('.fix')"), "back to the detail after Save", timeout=90)
    f.wait(lambda: f.js("return document.activeElement.classList.contains('fix-button')"), "focus back on the Fix button")
    f.wait(lambda: "Saved" in f.js("return document.getElementById('toasts').textContent"), "Saved is announced")
    guidance = stored_guidance(f, entry_id)
    assert guidance and guidance["box"] and guidance["exclude"] == [] and guidance["include"] == [], guidance
    b = guidance["box"]
    assert abs(b["x"] - 0.04 * width) <= width / 100 + 2 and abs(b["x"] + b["width"] - 0.58 * width) <= width / 100 + 2, (b, width)
    assert abs(b["y"] - 0.06 * height) <= height / 100 + 2 and abs(b["y"] + b["height"] - 0.94 * height) <= height / 100 + 2, (b, height)
    saved = urllib.request.urlopen(f.url + f"api/stickers/{entry_id}.png", timeout=30).read()
    assert len(saved) == undone[1], "the saved sticker is the preview's"
    f.wait(lambda: "Fixed by hand: a box" in f.js("return document.querySelector('.guided-note').textContent"), "the detail says the cut-out is guided")
    f.wait(lambda: f.js("const i = document.querySelector('.detail-art img'); return !!i && i.complete && i.naturalWidth > 0"), "the new sticker shown")
    f.screenshot("02c-fixed-detail")
    f.press(Keys.ESCAPE)
    f.wait(lambda: not f.js("return document.getElementById('detail').open"), "Escape closes the detail")


@step
def fix_the_cutout_with_the_keyboard_alone(f):
    entry_id = f.teal_id
    open_detail(f, entry_id)
    # Tab to the Fix button, Enter: the mode, with focus on its first tool.
    for _ in range(30):
        if f.js("return document.activeElement.classList.contains('fix-button')"):
            break
        f.press(Keys.TAB)
    assert f.js("return document.activeElement.classList.contains('fix-button')"), "Tab reaches Fix the cut-out"
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return !!document.querySelector('.fix') && document.querySelector('.fix').contains(document.activeElement)"), "focus in the mode")
    for _ in range(10):
        if f.js("return document.activeElement.classList.contains('fix-stage')"):
            break
        f.press(Keys.TAB)
    assert f.js("return document.activeElement.classList.contains('fix-stage')"), "Tab reaches the photo"
    assert f.js("return getComputedStyle(document.activeElement).outlineStyle") != "none", "focus is visible on the photo"
    # From the centre: Shift+arrows are tenths of the photo. A corner up and left, Enter; the other down and right, Enter.
    chord(f, Keys.SHIFT, Keys.ARROW_LEFT, 3)
    chord(f, Keys.SHIFT, Keys.ARROW_UP, 3)
    f.press(Keys.ENTER)
    chord(f, Keys.SHIFT, Keys.ARROW_RIGHT, 6)
    chord(f, Keys.SHIFT, Keys.ARROW_DOWN, 6)
    f.screenshot("02d-fix-keyboard-drawing")
    f.press(Keys.ENTER)
    wait_preview(f, 1, "box by keyboard")
    # X: the take-out tool; Space places a point at the crosshair (back near the centre).
    f.press("x")
    chord(f, Keys.SHIFT, Keys.ARROW_LEFT, 3)
    chord(f, Keys.SHIFT, Keys.ARROW_UP, 3)
    f.press(Keys.SPACE)
    f.wait(lambda: f.js("return document.querySelectorAll('.fix-mark.fix-exclude').length") == 1, "a point placed by keyboard")
    wait_preview(f, 2, "point by keyboard")
    chord(f, Keys.CONTROL, "z")
    f.wait(lambda: f.js("return document.querySelectorAll('.fix-mark').length") == 0, "Ctrl+Z undoes")
    # Escape leaves without saving; focus is back on the button.
    f.press(Keys.ESCAPE)
    f.wait(lambda: not f.js("return !!document.querySelector('.fix')"), "Escape leaves the mode")
    assert f.js("return document.getElementById('detail').open"), "the detail stays open"
    assert f.js("return document.activeElement.classList.contains('fix-button')"), "focus back on the Fix button"
    assert stored_guidance(f, entry_id) in (None, {"box": None, "include": [], "exclude": []}), "nothing saved"
    # Again, and save with Tab + Enter; then Reset to automatic.
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return !!document.querySelector('.fix-stage')"), "the mode again")
    f.js("document.querySelector('.fix-stage').focus()")
    chord(f, Keys.SHIFT, Keys.ARROW_UP, 4)
    chord(f, Keys.SHIFT, Keys.ARROW_LEFT, 4)
    f.press(Keys.ENTER)
    chord(f, Keys.SHIFT, Keys.ARROW_DOWN, 8)
    chord(f, Keys.SHIFT, Keys.ARROW_RIGHT, 6)
    f.press(Keys.ENTER)
    wait_preview(f, 1, "second box by keyboard")
    for _ in range(12):
        if f.js("return document.activeElement.classList.contains('fix-save')"):
            break
        f.press(Keys.TAB)
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return document.activeElement.classList.contains('fix-button')"), "saved, focus back", timeout=90)
    assert (stored_guidance(f, entry_id) or {}).get("box"), "the box is stored"
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return !!document.querySelector('.fix-reset') && !document.querySelector('.fix-reset').disabled"), "Reset is offered for a guided entry")
    f.js("document.querySelector('.fix-reset').focus()")
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return document.activeElement.classList.contains('fix-button')"), "reset, focus back", timeout=90)
    assert stored_guidance(f, entry_id) in (None, {"box": None, "include": [], "exclude": []}), "back to automatic"
    assert "Cut out automatically" in f.js("return document.querySelector('.guided-note').textContent")
    f.press(Keys.ESCAPE)


@step
def fix_the_cutout_on_a_phone(f):
    f.driver.set_window_size(390, 844)
    try:
        open_detail(f, f.orange_id)
        f.driver.find_element(By.CSS_SELECTOR, ".fix-button").click()
        f.wait(lambda: f.js("const i = document.querySelector('.fix-stage img'); return !!i && i.complete && i.naturalWidth > 0"), "the photo in fix mode")
        # The stored box shows; a point taps in.
        f.driver.find_element(By.CSS_SELECTOR, ".fix-tool-exclude").click()
        stage = f.driver.find_element(By.CSS_SELECTOR, ".fix-stage")
        ex, ey = stage_point(f, 0.1, 0.2)
        ActionChains(f.driver).move_to_element_with_offset(stage, ex, ey).click().perform()
        wait_preview(f, 1, "on a phone")
        f.screenshot("13b-phone-fix")
        f.js("document.querySelector('.fix-actions').scrollIntoView({block: 'end'})")
        f.screenshot("13c-phone-fix-actions")
        overflow = f.js("const d = document.getElementById('detail'); return d.scrollWidth - d.clientWidth")
        assert overflow <= 0, f"no sideways scrolling in the dialog ({overflow} px)"
        f.press(Keys.ESCAPE)
        f.wait(lambda: not f.js("return !!document.querySelector('.fix')"), "Escape leaves the mode")
        f.press(Keys.ESCAPE)
    finally:
        f.driver.set_window_size(1280, 900)


@step
def colour_search_by_name_by_picker_and_by_bookmark(f):
    f.open()
    field = f.driver.find_element(By.CSS_SELECTOR, 'input[name="color"]')
    field.send_keys("orange")
    f.wait(lambda: f.tile_ids()[:1] == [f.orange_id], "the orange sticker first for 'orange'")
    f.wait_tiles_loaded()
    assert "color=orange" in f.driver.current_url, f.driver.current_url
    f.screenshot("03-search-orange")
    # The colour picker: results follow as it moves.
    f.js("const p = document.querySelector('.color-picker'); p.value = '#008080'; p.dispatchEvent(new Event('input', {bubbles: true}));")
    f.wait(lambda: f.tile_ids()[:1] == [f.teal_id], "the teal sticker first for the picked #008080")
    assert "color=%23008080" in f.driver.current_url, f.driver.current_url
    # A bookmarked query opens as it was.
    f.open("#/?color=teal")
    f.wait(lambda: f.tile_ids()[:1] == [f.teal_id], "bookmarked search")
    assert f.driver.find_element(By.CSS_SELECTOR, 'input[name="color"]').get_attribute("value") == "teal"
    # A colour the search does not take says so, next to the field.
    field = f.driver.find_element(By.CSS_SELECTOR, 'input[name="color"]')
    field.clear()
    field.send_keys("#12345")
    field.send_keys(Keys.ENTER)
    f.wait(lambda: f.js("return document.querySelector('.field-problem').textContent") != "", "bad colour reported")


@step
def demo_walkthrough_find_the_orange_one_arrange_and_download_a_whatsapp_pack(f):
    """The new user's path after `make demo` and `serve --open`, by what the page shows."""
    f.open()
    f.driver.find_element(By.CSS_SELECTOR, 'button.preset[title="orange"]').click()
    f.wait(lambda: f.tile_ids()[:1] == [f.orange_id], "the orange sticker first after clicking the orange dot")
    f.driver.find_element(By.LINK_TEXT, "Packs").click()
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".pack-card")) == 1, "the demo pack's card")
    f.driver.find_element(By.CSS_SELECTOR, ".pack-card").click()
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".pack-item")) == len(f.ok_ids), "the demo pack's stickers")
    order = f.pack_ids("demo")
    # Drag the orange sticker to the front.
    f.js("""
        const items = [...document.querySelectorAll('.pack-item')];
        const source = items.find(i => i.dataset.entryId === String(arguments[0])), target = items[0];
        const data = new DataTransfer();
        const box = target.getBoundingClientRect();
        const at = {bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 5, clientY: box.top + 20};
        source.dispatchEvent(new DragEvent('dragstart', at));
        target.dispatchEvent(new DragEvent('dragover', at));
        target.dispatchEvent(new DragEvent('drop', at));
        source.dispatchEvent(new DragEvent('dragend', at));""", f.orange_id)
    expected = [f.orange_id] + [i for i in order if i != f.orange_id]
    f.wait(lambda: f.pack_ids("demo") == expected, "orange first in the demo pack")
    f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item')].map(i => Number(i.dataset.entryId))") == expected, "page shows orange first")
    f.driver.find_element(By.CSS_SELECTOR, ".export-whatsapp").click()
    f.wait(lambda: f.js("return !!document.querySelector('#export-dialog .report-ok')"), "WhatsApp fit report")
    f.driver.find_element(By.CSS_SELECTOR, "#export-dialog a.download").click()
    f.wait(lambda: "demo.wastickers" in os.listdir(DOWNLOADS), "demo.wastickers downloaded")
    f.screenshot("04-demo-pack")
    f.press(Keys.ESCAPE)


@step
def keyboard_alone_picks_stickers_and_makes_a_pack(f):
    f.open()
    # Tab from the top of the page into the grid.
    for _ in range(40):
        if f.js("return document.activeElement.classList.contains('tile-open')"):
            break
        f.press(Keys.TAB)
    assert f.js("return document.activeElement.classList.contains('tile-open')"), "Tab reaches the grid"
    outline = f.js("return getComputedStyle(document.activeElement.querySelector('.tile-art')).outlineStyle")
    assert outline != "none", "focus is visible"
    picked = []
    for _ in range(4):
        picked.append(int(f.js("return document.activeElement.closest('.tile').dataset.entryId")))
        f.press(Keys.SPACE, Keys.ARROW_RIGHT)
    assert f.js("return document.querySelector('.selection-count').textContent") == "4 picked"
    f.screenshot("05-picked")
    Select(f.driver.find_element(By.CSS_SELECTOR, "#selection-bar select")).select_by_visible_text("New pack…")
    f.driver.find_element(By.CSS_SELECTOR, "#selection-bar .add-to-pack button").click()
    f.wait(lambda: f.js("return !!document.querySelector('.form-dialog[open]')"), "new pack dialog")
    f.press("Sunny side")
    f.driver.find_element(By.CSS_SELECTOR, ".form-dialog input[autocomplete=name]").send_keys("Page Test")
    f.screenshot("05-new-pack-dialog")
    f.driver.find_element(By.CSS_SELECTOR, ".form-dialog button[type=submit]").click()
    f.wait(lambda: f.js("return !document.querySelector('.form-dialog')"), "pack created")
    f.wait(lambda: f.js("return document.getElementById('selection-bar').hidden"), "selection cleared after adding")
    assert f.pack_ids("sunny-side") == picked, (f.pack_ids("sunny-side"), picked)
    pack = f.api("/api/packs/sunny-side")
    assert pack["title"] == "Sunny side" and pack["author"] == "Page Test", pack


@step
def pack_reorders_by_drag_and_drop_and_by_keyboard_and_takes_emoji(f):
    f.driver.get(f.url + "#/packs/sunny-side")
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".pack-item")) == 4, "pack items")
    before = f.pack_ids("sunny-side")
    # HTML drag and drop, as the browser fires it: the first sticker dropped after the third.
    f.js("""
        const items = [...document.querySelectorAll('.pack-item')];
        const source = items[0], target = items[2];
        const data = new DataTransfer();
        const box = target.getBoundingClientRect();
        const at = {bubbles: true, cancelable: true, dataTransfer: data, clientX: box.right - 5, clientY: box.top + 20};
        source.dispatchEvent(new DragEvent('dragstart', at));
        target.dispatchEvent(new DragEvent('dragover', at));
        target.dispatchEvent(new DragEvent('drop', at));
        source.dispatchEvent(new DragEvent('dragend', at));""")
    expected = before[1:3] + before[:1] + before[3:]
    f.wait(lambda: f.pack_ids("sunny-side") == expected, f"drag and drop order {expected}")
    f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item')].map(i => Number(i.dataset.entryId))") == expected, "page shows the new order")
    # Keyboard: Alt+Left moves the focused sticker one place earlier.
    f.js("document.querySelectorAll('.pack-item .pack-item-art')[3].focus()")
    ActionChains(f.driver).key_down(Keys.ALT).send_keys(Keys.ARROW_LEFT).key_up(Keys.ALT).perform()
    expected = expected[:2] + expected[3:4] + expected[2:3]
    f.wait(lambda: f.pack_ids("sunny-side") == expected, f"keyboard order {expected}")
    f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item')].map(i => Number(i.dataset.entryId))") == expected, "page shows the keyboard order")
    assert f.js("return document.activeElement.closest('.pack-item')?.dataset.entryId") == str(expected[2]), "the moved sticker keeps the focus"
    # Emoji (set through the field's value: chromedriver types no characters outside the BMP).
    f.js("""const e = document.querySelectorAll('.emoji-input')[0]; e.value = '🌞'; e.dispatchEvent(new Event('change'));""")
    f.wait(lambda: f.api("/api/packs/sunny-side")["items"][0]["emoji"] == ["🌞"], "emoji saved")
    # Title, edited in place.
    title = f.driver.find_element(By.CSS_SELECTOR, ".pack-title-input")
    title.send_keys(Keys.END, "!")
    title.send_keys(Keys.ENTER)
    f.wait(lambda: f.api("/api/packs/sunny-side")["title"] == "Sunny side!", "title saved")
    f.driver.refresh()
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".pack-item img")) == 4 and f.js(
        "return [...document.querySelectorAll('.pack-item img')].every(i => i.complete && i.naturalWidth > 0)"), "pack images")
    f.screenshot("06-pack")


@step
def whatsapp_export_shows_the_fit_report_then_downloads_what_the_cli_writes(f):
    f.driver.get(f.url + "#/packs/sunny-side")
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".pack-item")) == 4, "pack items")
    f.driver.find_element(By.CSS_SELECTOR, ".export-whatsapp").click()
    f.wait(lambda: f.js("return !!document.querySelector('#export-dialog .report-ok')"), "fit report says every file fits")
    rows = f.js("return document.querySelectorAll('#export-dialog table.report tbody tr').length")
    assert rows >= 5, rows  # 4 stickers and the tray icon
    f.screenshot("07-export-report")
    f.driver.find_element(By.CSS_SELECTOR, "#export-dialog a.download").click()
    f.wait(lambda: "sunny-side.wastickers" in os.listdir(DOWNLOADS), "the .wastickers download")
    name = "sunny-side.wastickers"
    cli_dir = os.path.join(f.work, "cli-export")
    catalog(f.db, "export", "sunny-side", "--format", "whatsapp", "-o", cli_dir)
    with open(os.path.join(DOWNLOADS, name), "rb") as a, open(os.path.join(cli_dir, "sunny-side.wastickers"), "rb") as b:
        assert a.read() == b.read(), "the download has the same bytes as catalog export"
    f.press(Keys.ESCAPE)


@step
def photos_imported_by_upload_and_by_drop_appear_with_progress(f):
    uploads = os.path.join(f.work, "uploads")
    subprocess.run([SAMPLES, uploads, "--benchmark", "2", "--megapixels", "0.3"], check=True, capture_output=True)
    files = sorted(os.path.join(uploads, n) for n in os.listdir(uploads))
    f.open()
    before = len(f.tile_ids())
    f.js("document.getElementById('import-input').hidden = false")
    f.driver.find_element(By.ID, "import-input").send_keys("\n".join(files))
    f.js("document.getElementById('import-input').hidden = true")
    f.wait(lambda: f.js("return !!document.querySelector('.job progress')"), "a progress bar")
    f.screenshot("08-import-progress")
    f.wait(lambda: f.js("return !!document.querySelector('.job.done, .job.failed')"), "import finished", timeout=180)
    assert f.js("return !!document.querySelector('.job.done')"), f.js("return document.querySelector('.job').textContent")
    f.wait(lambda: len(f.tile_ids()) == before + 2, "two new tiles")
    f.wait_tiles_loaded(before + 2)
    f.screenshot("09-imported")
    # Dropped on the page: a PNG (one of the stickers, as a file) dropped as the browser delivers it.
    f.js("for (const card of document.querySelectorAll('.job')) card.remove()")
    f.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/stickers/' + arguments[0] + '.png').then(r => r.blob()).then(blob => {
          const data = new DataTransfer();
          data.items.add(new File([blob], 'dropped-sticker.png', {type: 'image/png'}));
          const at = {bubbles: true, cancelable: true, dataTransfer: data};
          document.body.dispatchEvent(new DragEvent('dragenter', at));
          const shown = !document.getElementById('drop-overlay').hidden;
          document.body.dispatchEvent(new DragEvent('dragover', at));
          document.body.dispatchEvent(new DragEvent('drop', at));
          done(shown);
        });""", f.orange_id)
    f.wait(lambda: f.js("return !!document.querySelector('.job.done, .job.failed')"), "drop import finished", timeout=180)
    assert f.js("return !!document.querySelector('.job.done')"), f.js("return document.querySelector('.job').textContent")
    f.wait(lambda: len(f.tile_ids()) == before + 3, "the dropped photo's tile")
    f.wait_tiles_loaded(before + 3)


@step
def entries_added_by_cli_processes_while_serving_appear(f):
    f.open()
    before = len(f.tile_ids())
    more = os.path.join(f.work, "more")
    subprocess.run([SAMPLES, more, "--benchmark", "2", "--megapixels", "0.2"], check=True, capture_output=True)
    catalog(f.db, "import", more)
    f.wait(lambda: len(f.tile_ids()) == before + 2, "entries imported by the CLI appear without a reload", timeout=30)
    f.wait_tiles_loaded(before + 2)
    # reprocess by the CLI while the server serves: the page still shows every sticker.
    catalog(f.db, "config", "set", "sticker.outline", "4")
    f.driver.refresh()
    f.wait(lambda: f.js("return !document.getElementById('reprocess-button').hidden"), "the page offers to reprocess")
    catalog(f.db, "reprocess")
    f.driver.refresh()
    f.wait_tiles_loaded(before + 2)
    f.wait(lambda: f.js("return document.getElementById('reprocess-button').hidden"), "nothing stale after the CLI's reprocess")


@step
def settings_change_then_reprocess_from_the_page_with_progress(f):
    f.driver.get(f.url + "#/settings")
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".settings-form input")) >= 4, "settings form")
    outline = f.driver.find_element(By.CSS_SELECTOR, 'input[name="sticker.outline"]')
    outline.clear()
    outline.send_keys("10")
    f.driver.find_element(By.CSS_SELECTOR, ".settings-form button[type=submit]").click()
    f.wait(lambda: f.js("return !!document.querySelector('.stale-box .notice button')"), "stale stickers offered for reprocessing")
    assert catalog(f.db, "config", "get", "sticker.outline").stdout.strip() == "10"
    f.screenshot("10-settings")
    f.driver.find_element(By.CSS_SELECTOR, ".stale-box .notice button").click()
    f.wait(lambda: f.js("return !!document.querySelector('.job progress')"), "a progress bar")
    f.wait(lambda: f.js("return !!document.querySelector('.job.done, .job.failed')"), "reprocess finished", timeout=240)
    assert f.js("return !!document.querySelector('.job.done')"), f.js("return document.querySelector('.job').textContent")
    f.screenshot("11-reprocessed")
    stale = json.loads(catalog(f.db, "list", "--stale", "--json").stdout)
    assert stale == [], stale


@step
def phone_sized_window(f):
    f.driver.set_window_size(390, 844)
    try:
        f.open()
        width = f.js("return document.documentElement.scrollWidth")
        assert width <= 390, f"no sideways scrolling on a phone (page is {width} px wide)"
        f.screenshot("12-phone-grid")
        f.driver.find_element(By.CSS_SELECTOR, f'.tile[data-entry-id="{f.orange_id}"] .tile-open').click()
        f.wait(lambda: f.js("const i = document.querySelector('.detail-photo img'); return !!i && i.complete && i.naturalWidth > 0"), "detail on a phone")
        f.screenshot("13-phone-detail")
        f.press(Keys.ESCAPE)
        f.driver.get(f.url + "#/packs/sunny-side")
        f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item img')].length === 4 && [...document.querySelectorAll('.pack-item img')].every(i => i.complete && i.naturalWidth > 0)"), "pack on a phone")
        f.screenshot("14-phone-pack")
    finally:
        f.driver.set_window_size(1280, 900)


def main():
    os.makedirs(OUT, exist_ok=True)
    fixture = Fixture()
    passed = failed = 0
    # Names on the command line run only the steps whose names contain one of them.
    wanted = sys.argv[1:]
    try:
        for function in STEPS:
            name = function.__name__
            if wanted and not any(part in name for part in wanted):
                continue
            started = time.monotonic()
            try:
                function(fixture)
                errors = fixture.console_errors()
                if errors:
                    raise AssertionError("console errors: " + "; ".join(e["message"] for e in errors))
                passed += 1
                print(f"ok   {name} ({time.monotonic() - started:.1f} s)", flush=True)
            except Exception:
                failed += 1
                fixture.screenshot(f"FAILED-{name}")
                print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
    finally:
        fixture.close()
    print(f"screenshots: {SCREENS}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
