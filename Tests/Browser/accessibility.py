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
    return result["violations"], result["incomplete"]


def describe_node(node):
    """One failing element on one line: its selector, and the colours when contrast is the problem."""
    text = " ".join(node["target"])
    data = node.get("data") or {}
    if data.get("fgColor") and data.get("bgColor"):
        text += (f"  {data['fgColor']} on {data['bgColor']}, {data.get('contrastRatio')}:1"
                 f" (needs {data.get('expectedContrastRatio')})")
    return text
