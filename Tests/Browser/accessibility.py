"""axe-core, the accessibility engine, run in the page under test (Tests/Browser/page_test.py).

axe.min.js comes from the PyPI package that bundles it (Tests/Browser/setup-venv.sh installs it);
it is injected with selenium, run on the whole document, and its violations are returned as plain
dicts with what a person needs to fix them: the rule, its impact, the elements, and for contrast
the two colours and their ratio.
"""

import importlib.util
import os

# WCAG 2.0, 2.1 and 2.2, levels A and AA, and axe's best practices (headings, landmarks): the
# best practices are reported; what fails a test is decided by impact (see FAILING).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
FAILING = ("serious", "critical")


def _source():
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise AssertionError("axe-core is not installed in the test's venv (Tests/Browser/setup-venv.sh installs it)")
    path = os.path.join(spec.submodule_search_locations[0], "axe.min.js")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


_AXE = None


def version(driver):
    inject(driver)
    return driver.execute_script("return axe.version")


def inject(driver):
    global _AXE
    if _AXE is None:
        _AXE = _source()
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(_AXE)


_RUN = """
const done = arguments[arguments.length - 1];
const shape = (v) => ({
    id: v.id, impact: v.impact, help: v.help, tags: v.tags,
    nodes: v.nodes.map((n) => ({
      target: n.target.map(String), impact: n.impact, html: n.html.slice(0, 160),
      data: (n.any.concat(n.all, n.none).map((c) => c.data).find((d) => d && typeof d === 'object')) || null,
      summary: n.failureSummary,
    })),
});
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations', 'incomplete']})
  .then((results) => done({violations: results.violations.map(shape), incomplete: results.incomplete.map(shape)}))
  .catch((error) => done({error: String(error)}));
"""


def run(driver):
    """What axe finds in the document as it is now: its violations, and what it could not decide
    (`incomplete`: e.g. text over an image, whose contrast it cannot measure)."""
    inject(driver)
    result = driver.execute_async_script(_RUN, TAGS)
    if "error" in result:
        raise AssertionError(f"axe-core failed: {result['error']}")
    return result["violations"] + undecided_contrast(driver, result["incomplete"]), result["incomplete"]


# axe leaves text whose background it cannot pin down to a person ("incomplete"): text in a grid
# of absolutely placed tiles overlaps its neighbours' boxes, for one, and text over a gradient.
# Where only colours (no image) lie under the text, the ratio is worked out here instead, the way
# axe would: the colours of the element and its ancestors composited, opacity included; over a
# gradient, against its worst stop.
UNDECIDED_BUT_MEASURABLE = ("bgOverlap", "elmPartiallyObscured", "elmPartiallyObscuring", "bgGradient")

_CONTRAST = """
const parse = (text) => {
  const n = (text.match(/[\\d.]+/g) || []).map(Number);
  if (text.startsWith('color(srgb')) return [n[0] * 255, n[1] * 255, n[2] * 255, n.length > 3 ? n[3] : 1];
  return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
};
const over = (top, under, alpha) => top.map((v, i) => v * alpha + under[i] * (1 - alpha));
const lum = (c) => { const l = c.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
const hex = (c) => '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
return arguments[0].map((selector) => {
  const el = document.querySelector(selector);
  if (!el || !el.textContent.trim()) return null;
  const chain = [];
  for (let node = el; node && node.nodeType === 1; node = node.parentElement) chain.unshift(node);
  let bgs = [[255, 255, 255]], opacity = 1;
  for (const node of chain) {
    const style = getComputedStyle(node);
    opacity *= Number(style.opacity);
    const [r, g, b, a] = parse(style.backgroundColor);
    bgs = bgs.map((bg) => over([r, g, b], bg, a * opacity));
    if (style.backgroundImage !== 'none') {
      if (/url\\(/.test(style.backgroundImage)) return null;
      const stops = style.backgroundImage.match(/rgba?\\([^)]*\\)|color\\(srgb[^)]*\\)/g) || [];
      bgs = stops.flatMap((stop) => { const [r, g, b, a] = parse(stop); return bgs.map((bg) => over([r, g, b], bg, a * opacity)); });
    }
  }
  const style = getComputedStyle(el);
  const [r, g, b, a] = parse(style.color);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  const measured = bgs.map((bg) => {
    const fg = over([r, g, b], bg, a * opacity);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return {fg, bg, ratio: (hi + 0.05) / (lo + 0.05)};
  }).sort((x, y) => x.ratio - y.ratio)[0];
  return {selector, fgColor: hex(measured.fg), bgColor: hex(measured.bg), contrastRatio: Math.round(measured.ratio * 100) / 100,
          expectedContrastRatio: needed + ':1'};
}).filter((r) => r && r.contrastRatio < parseFloat(r.expectedContrastRatio));
"""


def undecided_contrast(driver, incomplete):
    """The text among axe's undecided contrast checks that fails when measured (a violation's shape)."""
    selectors = [node["target"][0] for item in incomplete if item["id"] == "color-contrast"
                 for node in item["nodes"] if len(node["target"]) == 1
                 and (node.get("data") or {}).get("messageKey") in UNDECIDED_BUT_MEASURABLE]
    failing = driver.execute_script(_CONTRAST, selectors) if selectors else []
    if not failing:
        return []
    return [{"id": "color-contrast", "impact": "serious", "help": "Text contrast, measured where axe could not decide",
             "tags": [], "nodes": [{"target": [r["selector"]], "impact": "serious", "html": "", "data": r, "summary": ""} for r in failing]}]


def describe_node(node):
    """One failing element on one line: its selector, and the colours when contrast is the problem."""
    text = " ".join(node["target"])
    data = node.get("data") or {}
    if data.get("fgColor") and data.get("bgColor"):
        text += (f"  {data['fgColor']} on {data['bgColor']}, {data.get('contrastRatio')}:1"
                 f" (needs {data.get('expectedContrastRatio')})")
    return text
