"""Browser tests of the page `catalog serve` serves, in a real Chromium (Tests/Browser/run.sh).

A catalog is made from the generated sample photos (`sample-photos` + `catalog import`), the real
server is started on it (`catalog serve --port 0`), and the page is used as a person would: the
grid and its images, the detail view, colour search (typed, picked, bookmarked), a pack made from
picked stickers, reordered by drag and drop and by keyboard, an emoji set, a cut-out fixed (a box
and points, by mouse and by keyboard, previewed, undone, saved, reset), exported for WhatsApp
(the fit report, then the download, compared with `catalog export`), photos imported by upload,
settings changed and the stale stickers reprocessed from the page, and entries added by `catalog
import` / `catalog reprocess` processes while the server serves. No step may log a console error.

Accessibility (WCAG 2.2 AA): axe-core runs on every view, dialog and mode in light and dark, at
desktop and phone size, and any serious or critical finding fails; further steps check what axe
cannot see: visible focus that moves into and out of dialogs, the stickers' text alternatives,
reduced motion, a 320 px window and 200 % zoom, and what imports announce.
Screenshots go to $BROWSER_OUT/screens: look at them.

The last line is "N passed, M failed".
"""

import json
import os
import zipfile
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from collections import Counter

import accessibility
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

    def wait(self, condition, message, timeout=TIMEOUT, diagnose=None):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.2).until(lambda d: condition())
        except TimeoutException:
            raise AssertionError(f"timed out: {message}" + (f" ({diagnose()})" if diagnose else "")) from None

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

    def tap(self, selector):
        """Clicks an element once scrolled to the middle of the window, as a person would: WebDriver
        scrolls only what is off screen, not what is under the phone's tab bar. The grid draws only
        the rows near the window, so the page is scrolled down until the element is there."""
        for _ in range(60):
            if self.driver.find_elements(By.CSS_SELECTOR, selector):
                break
            if not self.js("return scrollY + innerHeight < document.documentElement.scrollHeight - 1"):
                break
            self.js("window.scrollBy(0, innerHeight / 2)")
            time.sleep(0.15)
        element = self.driver.find_element(By.CSS_SELECTOR, selector)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def press(self, *keys):
        """Keys typed into whatever has the focus, as a person would."""
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    def pack_ids(self, name):
        return [item["id"] for item in self.api(f"/api/packs/{name}")["items"]]

    def emulate(self, **features):
        """Media features as the system would set them (prefers_color_scheme="dark", ...); none: the defaults."""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})

    def settle(self):
        """Waits until nothing moves but what runs for ever (a spinner) and no toast is on screen."""
        self.wait(lambda: self.js("""
            return document.getAnimations().every(a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)
                && !document.querySelector('.toast');"""), "the page at rest")

    def reload(self, hash_part=""):
        """The page loaded anew at `hash_part` (a hash alone would only change the route)."""
        self.driver.get("about:blank")
        self.driver.get(self.url + hash_part)

    def images_loaded(self, selector):
        return self.js("const i = [...document.querySelectorAll(arguments[0])]; return i.length > 0 && i.every(x => x.complete && x.naturalWidth > 0)", selector)


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


def duplicate_groups_with(f, *ids):
    """The groups of /api/duplicates holding every one of `ids`."""
    return [g for g in f.api("/api/duplicates")["groups"] if set(ids) <= {m["id"] for m in g["members"]}]


@step
def duplicates_view_keeps_one_parts_a_group_and_the_grid_collapses(f):
    # The sample photos are all different: no group, and the view says why there may be none.
    assert f.api("/api/duplicates")["groups"] == [], f.api("/api/duplicates")
    f.reload("#/duplicates")
    f.wait(lambda: f.js("return !!document.querySelector('.dup-empty')"), "the empty duplicates view")
    empty = f.js("return document.querySelector('.dup-empty').textContent")
    assert "No near-duplicates" in empty and "catalog reprocess" in empty, empty
    assert f.js("return document.querySelector('main h1').textContent") == "Duplicates"
    assert f.js("return document.title") == "Duplicates · Sticker Catalog", f.js("return document.title")
    f.settle()
    violations, _ = accessibility.run(f.driver)
    serious = [v["id"] for v in violations if v["impact"] in accessibility.FAILING]
    assert not serious, f"the empty duplicates view: {serious}"
    f.screenshot("16-duplicates-empty")
    # Copies of two photos, scaled to half and recompressed (the server's preview of the source),
    # imported as other files by the CLI, into the demo pack as the originals are.
    copies = os.path.join(f.work, "copies")
    os.makedirs(copies, exist_ok=True)
    originals = {}
    for colour in ("purple", "red"):
        original = next(e for e in f.entries if os.path.basename(e["path"]).startswith(colour + "-"))
        with urllib.request.urlopen(f"{f.url}api/photos/{original['id']}/preview.jpg?size=800", timeout=60) as response:
            with open(os.path.join(copies, f"copy-of-{colour}.jpg"), "wb") as handle:
                handle.write(response.read())
        originals[colour] = original["id"]
    catalog(f.db, "import", copies, "--pack", "demo")
    f.entries = json.loads(catalog(f.db, "list", "--json").stdout)
    f.ok_ids = sorted(e["id"] for e in f.entries if e["status"] == "ok")
    copy = {colour: next(e["id"] for e in f.entries if os.path.basename(e["path"]) == f"copy-of-{colour}.jpg") for colour in originals}
    purple, purple_copy = originals["purple"], copy["purple"]
    for colour in originals:
        groups = duplicate_groups_with(f, originals[colour], copy[colour])
        assert len(groups) == 1 and groups[0]["best"] == originals[colour] and groups[0]["bestChosenBy"] == "rule", (colour, groups)
    hidden = {m["id"] for g in f.api("/api/duplicates")["groups"] for m in g["members"][1:]}
    assert hidden == set(copy.values()), hidden

    # The grid: "Collapse duplicates" shows only the best of each group, and says so.
    f.open()
    f.wait_tiles_loaded(len(f.ok_ids))
    toggle = f.driver.find_element(By.CSS_SELECTOR, ".collapse-toggle input")
    assert toggle.accessible_name == "Collapse duplicates", toggle.accessible_name
    toggle.click()
    f.wait(lambda: sorted(f.tile_ids()) == sorted(set(f.ok_ids) - hidden), "the collapsed grid", diagnose=f.tile_ids)
    f.wait_tiles_loaded(len(f.ok_ids) - len(hidden))
    assert "collapse=1" in f.driver.current_url, f.driver.current_url
    assert f.js("return document.querySelector('.view-title').textContent").endswith("duplicates collapsed")
    f.screenshot("17-grid-collapsed")
    f.driver.find_element(By.CSS_SELECTOR, ".collapse-toggle input").click()
    f.wait(lambda: sorted(f.tile_ids()) == f.ok_ids, "every sticker again")

    # The view: each group side by side, its best marked in words, sizes and distances.
    f.driver.find_element(By.LINK_TEXT, "Duplicates").click()
    member = '.dup-member[data-entry-id="{}"]'.format
    f.wait(lambda: f.js("return document.querySelectorAll('.dup-group').length") == 2 and f.images_loaded(".dup-art img"), "two groups with their stickers")
    assert f.js("return document.querySelector(arguments[0]).classList.contains('is-best')", member(purple))
    assert f.js("return document.querySelector(arguments[0] + ' .dup-badge').textContent", member(purple)) == "Best (suggested)"
    assert not f.js("return !!document.querySelector(arguments[0] + ' .dup-badge')", member(purple_copy))
    facts = f.js("return document.querySelector(arguments[0]).textContent", member(purple_copy))
    assert "800 × 600 px" in facts and "from the best" in facts, facts
    f.screenshot("18-duplicates")
    # Keep the copy: it becomes the best, kept by the user, and the catalog remembers.
    keep = f.driver.find_element(By.CSS_SELECTOR, member(purple_copy) + " .dup-keep")
    assert keep.accessible_name == "Keep this one", keep.accessible_name
    keep.click()
    f.wait(lambda: duplicate_groups_with(f, purple, purple_copy)[0]["best"] == purple_copy, "the copy kept")
    assert duplicate_groups_with(f, purple, purple_copy)[0]["bestChosenBy"] == "user"
    f.wait(lambda: f.js("return document.querySelector(arguments[0] + ' .dup-badge')?.textContent", member(purple_copy)) == "Best, kept by you", "the copy marked best")
    assert f.js("return document.activeElement.matches('.dup-group h2') && !!document.activeElement.closest('.dup-group').querySelector(arguments[0])",
                member(purple_copy)), "the focus on the kept sticker's group"
    cli = json.loads(catalog(f.db, "duplicates", "--json").stdout)
    assert any(g["best"] == purple_copy and g["bestChosenBy"] == "user" for g in cli["groups"]), cli
    f.screenshot("19-duplicates-kept")
    # Not duplicates: the group is gone, for the CLI too; the other group stays.
    f.js("document.querySelector(arguments[0]).closest('.dup-group').querySelector('.dup-distinct').click()", member(purple_copy))
    f.wait(lambda: not f.js("return !!document.querySelector(arguments[0])", member(purple_copy)), "the parted group gone from the view")
    assert duplicate_groups_with(f, purple, purple_copy) == []
    cli = json.loads(catalog(f.db, "duplicates", "--json").stdout)
    assert [g["best"] for g in cli["groups"]] == [originals["red"]], cli
    assert f.js("return document.querySelectorAll('.dup-group').length") == 1


@step
def detail_view_shows_sticker_photo_exif_palette_and_steps_with_arrows(f):
    f.open()
    f.tap(f'.tile[data-entry-id="{f.orange_id}"] .tile-open')
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
    f.tap(f'.tile[data-entry-id="{entry_id}"] .tile-open')
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
    # The demo set's animated samples make WhatsApp's export two packs, still and animated, in one zip.
    f.wait(lambda: "demo.whatsapp.zip" in os.listdir(DOWNLOADS), "demo.whatsapp.zip downloaded")
    with zipfile.ZipFile(os.path.join(DOWNLOADS, "demo.whatsapp.zip")) as archive:
        names = archive.namelist()
    assert "demo.wastickers" in names and "demo-animated.wastickers" in names, names
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
    # Still stickers only: the pack goes to WhatsApp later, which takes one kind a pack.
    for _ in range(12):
        if len(picked) == 4:
            break
        if f.js("return !!document.activeElement.closest('.tile').querySelector('.tile-badge')"):
            f.press(Keys.ARROW_RIGHT)
            continue
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
    # What a screen reader hears: the lines added to the page's live regions, which must be there
    # before anything is said in them.
    assert f.js("return document.getElementById('announcer').getAttribute('aria-live') === 'polite' && document.getElementById('alerter').getAttribute('role') === 'alert'")
    f.js("""window.heard = [];
        new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent); })
          .observe(document.getElementById('announcer'), {childList: true});""")
    f.js("document.getElementById('import-input').hidden = false")
    f.driver.find_element(By.ID, "import-input").send_keys("\n".join(files))
    f.js("document.getElementById('import-input').hidden = true")
    f.wait(lambda: f.js("return !!document.querySelector('.job progress')"), "a progress bar")
    f.screenshot("08-import-progress")
    f.wait(lambda: f.js("return !!document.querySelector('.job.done, .job.failed')"), "import finished", timeout=180)
    assert f.js("return !!document.querySelector('.job.done')"), f.js("return document.querySelector('.job').textContent")
    heard = f.js("return window.heard")
    result = f.js("return document.querySelector('.job.done .job-text').textContent")
    print(f"  announced: {heard}")
    assert heard[0] == "Importing 2 photos", heard
    assert any(line.startswith("Making stickers:") for line in heard), heard
    assert heard[-1] == f"Importing 2 photos: {result}" and result.startswith("2 new stickers"), (heard, result)
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
        f.tap(f'.tile[data-entry-id="{f.orange_id}"] .tile-open')
        f.wait(lambda: f.js("const i = document.querySelector('.detail-photo img'); return !!i && i.complete && i.naturalWidth > 0"), "detail on a phone")
        f.screenshot("13-phone-detail")
        f.press(Keys.ESCAPE)
        f.driver.get(f.url + "#/packs/sunny-side")
        f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item img')].length === 4 && [...document.querySelectorAll('.pack-item img')].every(i => i.complete && i.naturalWidth > 0)"), "pack on a phone")
        f.screenshot("14-phone-pack")
    finally:
        f.driver.set_window_size(1280, 900)


# Where a focused element shows its focus: itself, or the part of it that is drawn (a tile's art,
# the round box of a tile's hidden checkbox, the rounded box round the colour field, the well
# round the colour picker). Shown: some of it is on top where it is drawn, not
# under the sticky header, the phone's tab bar or the picked stickers' bar (WCAG 2.4.11).
FOCUS_RING_JS = """
const el = arguments[0] || document.activeElement;
const drawn = el.matches('.tile-open') ? el.querySelector('.tile-art')
  : el.matches('.tile-select input') ? el.parentElement.querySelector('.tick')
  : el.matches('.color-field') ? el.closest('.color-input') : el.matches('.color-picker') ? el.closest('.color-well') : el;
const style = getComputedStyle(drawn);
const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
const ring = /(^|, )(rgb[^)]*\\) )?0px 0px 0px [1-9]/.test(style.boxShadow);
const box = drawn.getBoundingClientRect();
const own = el.closest('.tile') || el;
const points = [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
const shown = box.width > 0 && box.height > 0 && points.some(([x, y]) => {
  const hit = document.elementFromPoint(box.left + box.width * x, box.top + box.height * y);
  return !!hit && (own.contains(hit) || hit.contains(el));
});
return {what: el.outerHTML.slice(0, 90), visible: outline || ring, shown};
"""


def assert_focus_shows(f, where):
    ring = f.js(FOCUS_RING_JS)
    assert ring["visible"], f"{where}: no visible focus indicator on {ring['what']}"
    assert ring["shown"], f"{where}: the focused element is off screen or under the header: {ring['what']}"


def focused(f, script):
    return f.js("return !!document.activeElement && document.activeElement.matches(arguments[0])", script)


@step
def focus_is_always_visible_and_moves_into_and_out_of_dialogs(f):
    # Tab from the top of the page: every stop shows where it is.
    f.reload()
    f.wait_tiles_loaded()
    f.js("document.activeElement.blur(); window.scrollTo(0, 0)")
    stops = []
    for _ in range(60):
        f.press(Keys.TAB)
        if f.js("return document.activeElement === document.body"):
            break  # past the last control: the browser's own UI would be next
        stops.append(f.js("return document.activeElement.outerHTML.slice(0, 60)"))
        assert_focus_shows(f, f"Tab stop {len(stops)}")
    assert stops[0].startswith('<a class="skip"'), f"the first stop is the skip link: {stops[0]}"
    assert any("tile-open" in s for s in stops), "Tab reaches the grid"
    # The skip link leads into the view, and the view stays (on the packs view too).
    for hash_part in ("#/packs", ""):
        f.reload(hash_part)
        f.wait_tiles_loaded() if not hash_part else f.wait(lambda: f.driver.find_elements(By.CSS_SELECTOR, ".pack-card"), "the packs")
        f.press(Keys.TAB, Keys.ENTER)
        f.wait(lambda: focused(f, "#main"), "the skip link moves the focus to the main content")
        assert f.js("return location.hash") in ((hash_part,) if hash_part else ("", "#/")), f.js("return location.hash")
        f.press(Keys.TAB)
        assert f.js("return document.getElementById('main').contains(document.activeElement)"), "the next Tab is in the view"
    # The detail: focus goes in, stays in while it is open, and comes back to the sticker that opened it.
    first = f'.tile[data-entry-id="{f.tile_ids()[0]}"] .tile-open'
    f.js("document.querySelector(arguments[0]).focus()", first)
    assert focused(f, first), "the first sticker has the focus"
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return document.getElementById('detail').open && document.getElementById('detail').contains(document.activeElement)"),
           "focus in the detail", diagnose=lambda: f.js("return [document.getElementById('detail').open, document.activeElement.outerHTML.slice(0, 80)]"))
    assert_focus_shows(f, "the detail's first control")
    for _ in range(25):
        f.press(Keys.TAB)
        assert f.js("const a = document.activeElement; return a === document.body || document.getElementById('detail').contains(a)"), "Tab stays in the detail"
        if f.js("return document.activeElement !== document.body"):
            assert_focus_shows(f, "a control of the detail")
    # The dialog's close event comes a moment after it closes; the page moves the focus then.
    f.js("document.getElementById('detail').addEventListener('close', () => { window.detailClosed = true; }, {once: true})")
    f.press(Keys.ESCAPE)
    f.wait(lambda: f.js("return window.detailClosed === true"), "the detail closed")
    f.wait(lambda: focused(f, first), "focus back on the sticker after the detail")
    assert_focus_shows(f, "the sticker after the detail")
    # The keyboard help, opened with its button and with "?".
    f.js("document.getElementById('keys-button').focus()")
    f.press(Keys.ENTER)
    f.wait(lambda: f.js("return document.getElementById('keys').contains(document.activeElement)"), "focus in the keyboard help")
    f.press(Keys.ESCAPE)
    f.wait(lambda: focused(f, "#keys-button"), "focus back on the keyboard button")
    # A new pack: the dialog's first field, then back on the button that opened it.
    f.reload("#/packs")
    new_pack = f.wait(lambda: f.driver.find_element(By.XPATH, "//button[normalize-space()='New pack']"), "New pack")
    new_pack.send_keys(Keys.ENTER)
    f.wait(lambda: f.js("const d = document.querySelector('.form-dialog[open]'); return !!d && d.contains(document.activeElement)"), "focus in the new pack dialog")
    assert focused(f, ".form-dialog input"), "the first field has the focus"
    f.press(Keys.ESCAPE)
    f.wait(lambda: f.js("return document.activeElement.textContent.trim() === 'New pack'"), "focus back on New pack")
    # The export report: in, and back to the platform's button.
    f.reload("#/packs/demo")
    f.wait(lambda: f.driver.find_elements(By.CSS_SELECTOR, ".export-whatsapp"), "the export buttons")
    f.driver.find_element(By.CSS_SELECTOR, ".export-whatsapp").send_keys(Keys.ENTER)
    f.wait(lambda: f.js("return !!document.querySelector('#export-dialog .report-ok') && document.getElementById('export-dialog').contains(document.activeElement)"), "focus in the export dialog")
    assert_focus_shows(f, "the export dialog")
    f.press(Keys.ESCAPE)
    f.wait(lambda: focused(f, ".export-whatsapp"), "focus back on the WhatsApp button")


STICKER_ALT = re.compile(r"^(?P<file>.+), (?:animated )?sticker in (?P<colours>[a-z]+(?:(?:, | and )[a-z]+)*)$")
# The sample photos are named for their subject's colour.
SAMPLE_COLOURS = ("orange", "teal", "red", "purple", "yellow", "green", "pink", "blue")


def sticker_alt_colours(alt, file_name):
    match = STICKER_ALT.match(alt or "")
    assert match, f"the text alternative {alt!r} says the file name and the colours"
    assert match["file"] == file_name, (alt, file_name)
    return re.split(r", | and ", match["colours"])


@step
def sticker_images_say_their_file_name_and_main_colours(f):
    f.open()
    f.wait_tiles_loaded()
    paths = {e["id"]: os.path.basename(e["path"]) for e in f.entries}
    f.wait(lambda: f.js("return [...document.querySelectorAll('.vgrid .tile[data-entry-id] img')].every(i => / sticker in /.test(i.alt))"),
           "every sticker's colours named")
    tiles = f.js("""return [...document.querySelectorAll('.vgrid .tile[data-entry-id]')].map(t => ({
        id: Number(t.dataset.entryId), alt: t.querySelector('img').alt}))""")
    for tile in tiles:
        name = paths.get(tile["id"]) or f.api(f"/api/entries/{tile['id']}")["path"].rsplit("/", 1)[-1]
        colours = sticker_alt_colours(tile["alt"], name)
        assert 1 <= len(colours) <= 3 and len(set(colours)) == len(colours), tile
        said = next((c for c in SAMPLE_COLOURS if name.startswith(c + "-")), None)
        if said:
            assert said in colours, f"{name}: {tile['alt']!r} names its {said}"
    print(f"  e.g. {tiles[0]['alt']!r}")
    # A sticker's button is named by its image: what a screen reader says on the grid.
    button = f.driver.find_element(By.CSS_SELECTOR, f'.tile[data-entry-id="{f.orange_id}"] .tile-open')
    alt = f.js("return arguments[0].querySelector('img').alt", button)
    assert button.accessible_name.startswith(alt), (button.accessible_name, alt)
    # The detail and a pack say the same.
    button.click()
    f.wait(lambda: f.images_loaded(".detail-art img"), "the detail's sticker")
    detail_alt = f.js("return document.querySelector('.detail-art img').alt")
    assert "orange" in sticker_alt_colours(detail_alt, paths[f.orange_id]), detail_alt
    f.press(Keys.ESCAPE)
    f.reload("#/packs/demo")
    f.wait(lambda: f.images_loaded(".pack-item img"), "the pack's stickers")
    f.wait(lambda: f.js("return [...document.querySelectorAll('.pack-item img')].every(i => / sticker in /.test(i.alt))"), "the pack's stickers' colours named")
    for item in f.js("return [...document.querySelectorAll('.pack-item')].map(i => ({id: Number(i.dataset.entryId), alt: i.querySelector('img').alt}))"):
        sticker_alt_colours(item["alt"], paths[item["id"]])


# Elements of the page's own that move for ever while they are on screen (a loading tile's shimmer,
# the preview's spinner), added for a moment to count what the browser animates.
MOTION_PROBE_JS = """
const probe = document.createElement('div');
probe.innerHTML = '<div class="tile placeholder"><div class="tile-open"><div class="tile-art"></div></div></div><div class="fix-art busy"><div class="fix-spinner"></div></div>';
document.getElementById('main').append(probe);
const running = document.getAnimations().filter(a => a.playState === 'running').length;
probe.remove();
return running;
"""


@step
def reduced_motion_turns_off_animations_and_transitions(f):
    f.reload()
    f.wait_tiles_loaded()
    assert f.js(MOTION_PROBE_JS) >= 2, "the shimmer and the spinner move when motion is welcome"
    try:
        f.emulate(prefers_reduced_motion="reduce")
        f.reload()
        f.wait_tiles_loaded()
        assert f.js(MOTION_PROBE_JS) == 0, "no animation with reduced motion"
        # What moves on hover, on focus and when a note comes and goes, does not.
        tile = f.driver.find_element(By.CSS_SELECTOR, f'.tile[data-entry-id="{f.orange_id}"] .tile-open')
        ActionChains(f.driver).move_to_element(tile).perform()
        f.js("arguments[0].focus()", tile)
        f.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/js/dom.js').then(({toast}) => { toast('A note'); document.querySelector('.toast').classList.add('leaving'); done(); });""")
        running = f.js("return document.getAnimations().map(a => a.animationName || a.transitionProperty || 'animation')")
        assert running == [], f"nothing moves with reduced motion: {running}"
        tile.click()
        f.wait(lambda: f.images_loaded(".detail-art img"), "the detail")
        running = f.js("return document.getAnimations().map(a => a.animationName || a.transitionProperty || 'animation')")
        assert running == [], f"nothing moves in the detail with reduced motion: {running}"
        f.press(Keys.ESCAPE)
    finally:
        f.emulate()


HEADER_CONTROLS_JS = """
return [...document.querySelectorAll('.app-header a, .app-header button')].filter(c => !c.hidden && !c.closest('[hidden]')).map(c => {
  const box = c.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {what: (c.getAttribute('aria-label') || c.textContent).trim() || c.outerHTML.slice(0, 80),
          inside: box.width > 0 && box.left >= 0 && box.right <= innerWidth + 0.5 && box.top >= 0 && box.bottom <= innerHeight + 0.5,
          reachable: !!hit && (hit === c || c.contains(hit)), big: box.width >= 24 && box.height >= 24};
});
"""


def assert_nothing_lost(f, where):
    """No sideways scrolling, and every header control on screen, big enough and not covered."""
    width = f.js("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{where}: the page scrolls sideways ({width[0]} px in {width[1]})"
    for control in f.js(HEADER_CONTROLS_JS):
        assert control["inside"] and control["reachable"] and control["big"], f"{where}: header control {control}"


def reachable(f, selector, where):
    """The control scrolls into view and is then on top where it is drawn (a click would reach it)."""
    element = f.driver.find_element(By.CSS_SELECTOR, selector)
    f.js("arguments[0].scrollIntoView({block: 'center'})", element)
    ok = f.js("""const b = arguments[0].getBoundingClientRect(); const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
                 return b.width > 0 && b.right <= innerWidth + 0.5 && b.left >= 0 && !!hit && (hit === arguments[0] || arguments[0].contains(hit))""", element)
    assert ok, f"{where}: {selector} cannot be reached"
    return element


@step
def a_320_px_window_and_200_percent_zoom_lose_nothing(f):
    # 200 % zoom of a 1400 × 1000 window is a 700 × 500 CSS pixel page at twice the pixel density.
    for label, width, height, scale in (("320 px wide", 320, 640, 1), ("200 % zoom", 700, 500, 2)):
        f.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
        try:
            slug = label.split()[0].replace("%", "pc")
            f.reload()
            f.wait_tiles_loaded()
            assert_nothing_lost(f, f"stickers, {label}")
            f.screenshot(f"15-{slug}-grid")
            # Find by colour.
            field = reachable(f, 'input[name="color"]', label)
            field.send_keys("teal")
            f.wait(lambda: f.js("return document.querySelector('.view-title').textContent.endsWith('with teal')"), f"{label}: stickers with teal")
            f.wait_tiles_loaded()
            found = f'.tile[data-entry-id="{f.tile_ids()[0]}"] .tile-open'
            assert_nothing_lost(f, f"search, {label}")
            # Pick a sticker: the selection bar's controls are all there.
            f.js("document.querySelector(arguments[0]).focus()", found)
            f.press(Keys.SPACE)
            f.wait(lambda: not f.js("return document.getElementById('selection-bar').hidden"), f"{label}: the selection bar")
            for control in ("#selection-bar select", "#selection-bar .add-to-pack button", "#selection-bar > .button"):
                reachable(f, control, f"the selection bar, {label}")
            assert_nothing_lost(f, f"picked, {label}")
            f.screenshot(f"15-{slug}-picked")
            # The detail, and fixing a cut-out in it.
            reachable(f, found, label).click()
            f.wait(lambda: f.images_loaded(".detail-art img") and f.js("return !!document.querySelector('.fix-button')"), f"{label}: the detail")
            overflow = f.js("const d = document.getElementById('detail'); return d.scrollWidth - d.clientWidth")
            assert overflow <= 0, f"{label}: the detail scrolls sideways ({overflow} px)"
            for control in ('#detail [aria-label^="Close"]', ".swatch", ".fix-button"):
                reachable(f, control, f"the detail, {label}")
            f.screenshot(f"15-{slug}-detail")
            f.driver.find_element(By.CSS_SELECTOR, ".fix-button").click()
            f.wait(lambda: f.images_loaded(".fix-stage img"), f"{label}: fix mode")
            for control in (".fix-tool-exclude", ".fix-stage", ".fix-save"):
                reachable(f, control, f"fix mode, {label}")
            overflow = f.js("const d = document.getElementById('detail'); return d.scrollWidth - d.clientWidth")
            assert overflow <= 0, f"{label}: fix mode scrolls sideways ({overflow} px)"
            f.screenshot(f"15-{slug}-fix")
            f.press(Keys.ESCAPE)
            f.press(Keys.ESCAPE)
            # Packs, a pack and its export, settings.
            f.reload("#/packs/demo")
            f.wait(lambda: f.images_loaded(".pack-item img"), f"{label}: the pack")
            assert_nothing_lost(f, f"a pack, {label}")
            for control in (".pack-title-input", ".export-whatsapp", ".emoji-input", ".pack-item-bar button"):
                reachable(f, control, f"a pack, {label}")
            f.screenshot(f"15-{slug}-pack")
            f.reload("#/settings")
            f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".settings-form input")) >= 4, f"{label}: settings")
            assert_nothing_lost(f, f"settings, {label}")
            reachable(f, ".settings-form button[type=submit]", f"settings, {label}")
            f.screenshot(f"15-{slug}-settings")
            # The duplicates view: groups side by side, every button there.
            f.reload("#/duplicates")
            f.wait(lambda: f.js("return !!document.querySelector('.dup-empty, .dup-group')"), f"{label}: the duplicates view")
            assert_nothing_lost(f, f"duplicates, {label}")
            if f.js("return !!document.querySelector('.dup-group')"):
                for control in (".dup-distinct", ".dup-member:last-child .dup-keep"):
                    reachable(f, control, f"duplicates, {label}")
            f.screenshot(f"15-{slug}-duplicates")
        finally:
            f.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# Every view and mode of the page, each brought up from a fresh load, for the accessibility checks.
# A view, dialog or mode added to the page is added here too, and so is checked in both schemes and
# at both sizes.
def write_apng(path, frames, width, height, delay_ms):
    """An animated PNG of RGBA `frames` (bytes, rows top to bottom), each shown `delay_ms`: made here so
    the page's animated stickers need no other tool."""
    import struct
    import zlib

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    def compressed(frame):
        rows = b"".join(b"\x00" + frame[y * width * 4:(y + 1) * width * 4] for y in range(height))
        return zlib.compress(rows, 6)

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    out += chunk(b"acTL", struct.pack(">II", len(frames), 0))
    sequence = 0
    for index, frame in enumerate(frames):
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, 0, 0, delay_ms, 1000, 0, 0))
        sequence += 1
        if index == 0:
            out += chunk(b"IDAT", compressed(frame))
        else:
            out += chunk(b"fdAT", struct.pack(">I", sequence) + compressed(frame))
            sequence += 1
    out += chunk(b"IEND", b"")
    with open(path, "wb") as handle:
        handle.write(out)


def bouncing_ball(width=320, height=240, count=6):
    """Frames of a teal ball that rises over a warm grey wall: a subject the model finds."""
    frames = []
    for index in range(count):
        cx, cy, radius = width // 2, height // 2 + 12 - 5 * index, 70
        pixels = bytearray()
        for y in range(height):
            for x in range(width):
                inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2
                shade = 200 - y // 6
                pixels += bytes((20, 150, 160, 255) if inside else (shade, shade - 12, shade - 30, 255))
        frames.append(bytes(pixels))
    return frames


@step
def an_animated_sticker_has_a_badge_plays_on_hover_and_in_the_detail(f):
    folder = os.path.join(f.work, "animated")
    os.makedirs(folder, exist_ok=True)
    write_apng(os.path.join(folder, "ball.png"), bouncing_ball(), 320, 240, 100)
    catalog(f.db, "import", folder)
    f.animated_id = next(e["id"] for e in json.loads(catalog(f.db, "list", "--json").stdout) if e["path"].endswith("ball.png"))
    assert f.api(f"/api/entries/{f.animated_id}")["sticker"]["animation"]["frames"] == 6
    f.reload()
    f.wait_tiles_loaded()
    tile = f'.tile[data-entry-id="{f.animated_id}"]'
    assert f.js("return document.querySelector(arguments[0] + ' .tile-badge')?.textContent", tile) == "Animated"
    assert "animated sticker" in f.js("return document.querySelector(arguments[0] + ' img').alt", tile)
    # Still until pointed at; moving while pointed at; still again after.
    assert f.js("return document.querySelector(arguments[0] + ' img').src", tile).split("?")[0].endswith(".png")
    ActionChains(f.driver).move_to_element(f.driver.find_element(By.CSS_SELECTOR, tile)).perform()
    f.wait(lambda: f.js("return document.querySelector(arguments[0] + ' img').src", tile).split("?")[0].endswith(".webp"), "the tile plays on hover")
    f.wait(lambda: f.images_loaded(tile + " img"), "the animated WebP loads")
    ActionChains(f.driver).move_to_element(f.driver.find_element(By.CSS_SELECTOR, "#search, header")).perform()
    f.wait(lambda: f.js("return document.querySelector(arguments[0] + ' img').src", tile).split("?")[0].endswith(".png"), "the tile still again")
    # The detail plays it, says its timing and pauses on request.
    f.tap(tile + " .tile-open")
    f.wait(lambda: f.images_loaded(".detail-art img"), "the detail's sticker")
    assert f.js("return document.querySelector('.detail-art img').src").split("?")[0].endswith(".webp")
    assert "6 frames" in f.js("return document.querySelector('.detail-animation').textContent")
    assert not f.js("return !!document.querySelector('.fix-button')"), "no Fix the cut-out for a clip (guidance is for stills)"
    f.driver.find_element(By.CSS_SELECTOR, ".detail-animation-row button").click()
    f.wait(lambda: f.js("return document.querySelector('.detail-art img').src").split("?")[0].endswith(".png"), "paused")
    f.screenshot("20-animated-detail")
    f.press(Keys.ESCAPE)
    # Less motion asked for: the detail shows the first frame until Play.
    f.emulate(prefers_reduced_motion="reduce")
    try:
        f.tap(tile + " .tile-open")
        f.wait(lambda: f.images_loaded(".detail-art img"), "the detail's sticker")
        assert f.js("return document.querySelector('.detail-art img').src").split("?")[0].endswith(".png")
        assert f.js("return document.querySelector('.detail-animation-row button').textContent") == "Play"
        f.press(Keys.ESCAPE)
    finally:
        f.emulate()
    # A pack of a still and the moving sticker says, before any export, what each app takes of it.
    still_id = next(e["id"] for e in json.loads(catalog(f.db, "list", "--json").stdout) if e["id"] != f.animated_id and e["status"] == "ok")
    catalog(f.db, "pack", "create", "mixed", "--title", "Mixed")
    catalog(f.db, "pack", "add", "mixed", str(still_id), str(f.animated_id))
    f.driver.get(f.url + "#/packs/mixed")
    f.wait(lambda: f.js("return document.querySelectorAll('.platform-check').length") == 4, "the platform checks")
    verdicts = f.js("return Object.fromEntries([...document.querySelectorAll('.platform-check')].map(n => [n.dataset.format, n.textContent]))")
    assert verdicts["telegram"].startswith("Telegram: as 2 packs"), verdicts
    assert "needs a change" in verdicts["whatsapp"] and "set would have 1" in verdicts["whatsapp"], verdicts
    assert verdicts["signal"] == "Signal: ready", verdicts
    f.screenshot("21-mixed-pack")


VIEWS = []


def view(name):
    def register(function):
        VIEWS.append((name, function))
        return function
    return register


@view("stickers")
def _stickers(f):
    f.reload()
    f.wait_tiles_loaded()
    f.wait(lambda: f.js("return !!document.querySelector('.failed-box summary')"), "the failed photos' summary")


@view("search results")
def _search(f):
    f.reload("#/?color=orange")
    f.wait(lambda: f.tile_ids()[:1] == [f.orange_id], "the orange sticker first")
    f.wait_tiles_loaded()


@view("failed photos")
def _failed(f):
    _stickers(f)
    f.driver.find_element(By.CSS_SELECTOR, ".failed-box summary").click()
    f.wait(lambda: "unsupported-format" in f.js("return document.querySelector('.failed-list').textContent"), "the failure's reason")


@view("picked stickers")
def _picked(f):
    _stickers(f)
    f.js("document.querySelector('.vgrid .tile-select input').click()")
    f.wait(lambda: not f.js("return document.getElementById('selection-bar').hidden"), "the selection bar")


@view("packs")
def _packs(f):
    f.reload("#/packs")
    f.wait(lambda: f.images_loaded(".pack-card img"), "the packs' covers")


@view("new pack dialog")
def _new_pack(f):
    _packs(f)
    f.driver.find_element(By.XPATH, "//button[normalize-space()='New pack']").click()
    f.wait(lambda: f.js("return !!document.querySelector('.form-dialog[open]')"), "the new pack dialog")


@view("a pack")
def _pack(f):
    f.reload("#/packs/demo")
    f.wait(lambda: f.images_loaded(".pack-item img"), "the pack's stickers")


@view("export dialog")
def _export(f):
    _pack(f)
    f.driver.find_element(By.CSS_SELECTOR, ".export-whatsapp").click()
    f.wait(lambda: f.js("return !!document.querySelector('#export-dialog .report-ok')"), "the fit report")


@view("settings")
def _settings(f):
    f.reload("#/settings")
    f.wait(lambda: len(f.driver.find_elements(By.CSS_SELECTOR, ".settings-form input")) >= 4
           and len(f.driver.find_elements(By.CSS_SELECTOR, ".stats dd")) > 0, "the settings and the stats")


@view("duplicates")
def _duplicates(f):
    f.reload("#/duplicates")
    # The stickers load lazily: those of the first group are on screen.
    f.wait(lambda: f.js("return !!document.querySelector('.dup-empty')") or f.images_loaded(".dup-group:first-child .dup-art img"),
           "the groups of near-duplicates")


@view("stickers, duplicates collapsed")
def _collapsed(f):
    f.reload("#/?collapse=1")
    f.wait_tiles_loaded()


@view("detail")
def _detail(f):
    _stickers(f)
    f.tap(f'.tile[data-entry-id="{f.orange_id}"] .tile-open')
    f.wait(lambda: f.images_loaded(".detail-pictures img") and f.js("return !!document.querySelector('.fix-button')"), "the detail's pictures")


@view("an animated sticker's detail")
def _animated_detail(f):
    _stickers(f)
    f.tap(f'.tile[data-entry-id="{f.animated_id}"] .tile-open')
    f.wait(lambda: f.images_loaded(".detail-pictures img") and f.js("return !!document.querySelector('.detail-animation-row')"), "the animated detail")


@view("fix the cut-out")
def _fix(f):
    _detail(f)
    f.driver.find_element(By.CSS_SELECTOR, ".fix-button").click()
    f.wait(lambda: f.images_loaded(".fix-stage img") and f.images_loaded(".fix-preview-img"), "the photo and the sticker in fix mode")


@view("a failed photo's detail")
def _failed_detail(f):
    _failed(f)
    f.driver.find_element(By.CSS_SELECTOR, ".failed-item").click()
    f.wait(lambda: f.js("return !!document.querySelector('#detail[open] .detail-failure')"), "the failed photo's detail")


@view("keyboard help")
def _keys(f):
    _stickers(f)
    f.driver.find_element(By.ID, "keys-button").click()
    f.wait(lambda: f.js("return document.getElementById('keys').open"), "the keyboard help")


@view("import progress")
def _import(f):
    _stickers(f)
    # The page's own job cards (activity.js), one under way and one ended with a failure, without
    # waiting for an import of that shape; the upload step shows a real one.
    f.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/activity.js').then(({job}) => {
          const going = job('Importing 4 photos');
          going.progress(1, 4, 'Making stickers: 1 of 4');
          const ended = job('Importing 2 photos');
          ended.problem('scan.jpg: not a photo this catalog can read');
          ended.finish('1 new sticker, 1 failed.', false);
          done();
        });""")


SCHEMES = ("light", "dark")
SIZES = ((1400, 1000), (390, 844))


@step
def every_view_passes_axe_in_light_and_dark_on_desktop_and_phone(f):
    """axe-core on every view, in both colour schemes and at desktop and phone size: nothing serious."""
    failures, counts, notes, unsure = [], Counter(), set(), set()
    try:
        for scheme in SCHEMES:
            f.emulate(prefers_color_scheme=scheme)
            for width, height in SIZES:
                f.driver.set_window_size(width, height)
                for name, prepare in VIEWS:
                    prepare(f)
                    f.settle()
                    where = f"{name}, {scheme}, {width}x{height}"
                    f.screenshot(f"a11y-{scheme}-{width}-{re.sub(r'[^a-z]+', '-', name.lower()).strip('-')}")
                    violations, incomplete = accessibility.run(f.driver)
                    for violation in violations:
                        counts[(violation["id"], violation["impact"])] += len(violation["nodes"])
                        if violation["impact"] in accessibility.FAILING:
                            failures.append((where, violation))
                        else:
                            notes.add(f"{violation['id']} ({violation['impact']}): " + ", ".join(" ".join(n["target"]) for n in violation["nodes"]))
                    for undecided in incomplete:
                        for node in undecided["nodes"]:
                            unsure.add(f"{undecided['id']}: {' '.join(node['target'])} ({(node.get('data') or {}).get('messageKey', '')})")
        print(f"  axe-core {f.js('return axe.version')}: {len(VIEWS)} views x {len(SCHEMES)} schemes x {len(SIZES)} sizes")
    finally:
        f.emulate()
        f.driver.set_window_size(1280, 900)
    for (rule, impact), nodes in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {nodes:4d} x {rule} ({impact})")
    for note in sorted(notes):
        print(f"  note, not failing: {note}")
    # axe leaves these to a person (e.g. text over a gradient): the screenshots show them.
    for item in sorted(unsure):
        print(f"  for review: {item}")
    for where, violation in failures:
        print(f"  [{where}] {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            print(f"      {accessibility.describe_node(node)}")
    assert not failures, f"{sum(len(v['nodes']) for _, v in failures)} serious or critical violations in {len(failures)} rule-views (above)"


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
