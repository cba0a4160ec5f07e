#!/usr/bin/python3
"""The editor's page in Debian's chromium, driven by Selenium (issue 16 item 3).

Starts vertexd (fresh store, free ports, HTTP on), writes a generated demo shop
with `vertexctl gen-demo`, registers it and adds its product pages through the
JSON API, then annotates the largest cluster through the page ONLY: the site
picker, clicks on values in the sandboxed frame (text, an image), a selection
of part of a text, the attribute popover, Learn, Next page, until the cluster
is DONE. Then, through the JSON API, the learnt rule must extract the right
values on pages of another generated shop (unseen); the rule history's
rollback and the monitor chart are used through the page too. Every screen is
screenshotted into the test's output directory and checked: its size, many
distinct colours (not blank), and on the annotation screen the pixels around
a highlighted element in its attribute's colour.

Skips (exit 77, ctest SKIP_RETURN_CODE) when chromium, chromedriver or Selenium
is absent. Needs VERTEXD and VERTEXCTL (the binaries); OUT_DIR (default: a
temporary directory) receives the screenshots.
"""
import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "http"))
from vertexd_http import VertexdHttp  # noqa: E402

SKIP = 77
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("SKIP: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(SKIP)

# The attributes annotated (deploy/schemas/product.json's, a subset small
# enough to click through): how each is annotated on the page.
SCHEMA = {"vertical": "product", "attributes": [
    {"name": "title", "mandatory": True, "constant": True},
    {"name": "price", "type": "price", "mandatory": True},
    {"name": "brand", "constant": True},
    {"name": "image", "type": "image", "constant": True},
    {"name": "unit_price", "type": "price"},
    {"name": "category", "multi_valued": True},
]}
HOW = {"title": "click", "price": "click", "brand": "click", "image": "image", "unit_price": "select",
       "category": "clicks"}
# editor.js's COLOURS, in schema order.
COLOURS = [(0xe6, 0x19, 0x4b), (0x3c, 0xb4, 0x4b), (0x43, 0x63, 0xd8), (0xf5, 0x82, 0x31), (0x91, 0x1e, 0xb4),
           (0x42, 0xd4, 0xf4)]
SITE = "shop"


# ---- PNG (Chromium's screenshots: 8-bit RGB or RGBA, not interlaced) ----

def decode_png(data):
    """(width, height, rows of (r, g, b) tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG %r" % (header,)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def distinct_colours(rows, step=3):
    return len({rows[y][x] for y in range(0, len(rows), step) for x in range(0, len(rows[0]), step)})


def near(p, q, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(p, q))


# ---- the server and the API ----

class Server(VertexdHttp):
    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=300) as r:
            return json.loads(r.read())

    def rpc(self, service, method, body):
        request = urllib.request.Request("%s/v1/rpc/vertex.v1.%s/%s" % (self.base, service, method),
                                         data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise AssertionError("%s: HTTP %d %s" % (method, e.code, e.read().decode(errors="replace")))


def read_shop(directory):
    """[(url, html, {attribute: [values]})] of a `vertexctl gen-demo` directory."""
    truth = {}
    for attribute in HOW:
        path = os.path.join(directory, "groundtruth", "product", "product-vertexdemo-%s.txt" % attribute)
        for line in open(path, encoding="utf-8").read().splitlines()[2:]:
            fields = line.split("\t")
            values = [] if fields[2:] == ["<NULL>"] else fields[2:]
            truth.setdefault(fields[0], {})[attribute] = values
    pages = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".htm"):
            continue
        text = open(os.path.join(directory, name), encoding="utf-8").read()
        first, html = text.split("\n", 1)
        url = re.match(r'<base href="([^"]+)"', first).group(1)
        pages.append((url, html, truth[name[:-4]]))
    return pages


def gen_shop(directory, seed, products):
    subprocess.run([os.environ["VERTEXCTL"], "gen-demo", "--out", directory, "--seed", str(seed), "--products",
                    str(products), "--categories", "0", "--reviews", "0", "--stores", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    return read_shop(directory)


def b64(text):
    return base64.b64encode(text.encode()).decode()


# ---- the browser ----

class Editor:
    def __init__(self, base, out_dir, profile):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1400,1300", "--user-data-dir=" + profile]:
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_window_size(1400, 1300)
        self.base = base
        self.out_dir = out_dir
        self.wait = WebDriverWait(self.driver, 120)

    def quit(self):
        self.driver.quit()

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def no_error(self):
        error = self.find("#error")
        assert not error.is_displayed(), "the page shows an error: " + error.text

    def screenshot(self, name, min_colours=40):
        png = self.driver.get_screenshot_as_png()
        path = os.path.join(self.out_dir, name + ".png")
        with open(path, "wb") as f:
            f.write(png)
        width, height, rows = decode_png(png)
        assert width >= 1000 and height >= 900, "%s: %dx%d" % (name, width, height)
        colours = distinct_colours(rows)
        assert colours >= min_colours, "%s: only %d distinct colours (blank?)" % (name, colours)
        print("screenshot %s: %dx%d, %d distinct colours" % (path, width, height, colours))
        return rows

    def wait_page(self, previous=None):
        def ready(d):
            text = self.find("#page-info").text
            return text and (previous is None or not text.startswith(previous + " ")) and \
                d.execute_script("var f = document.getElementById('frame');"
                                 "return !!(f.contentDocument && f.contentDocument.querySelector('[data-vx]'));")
        self.wait.until(ready)
        self.no_error()
        return self.find("#page-info").text.split(" (")[0]

    # In the frame: the smallest element whose rendered text is `value`, or
    # the <img> whose resolved src is `value`; clicked for real.
    # A list's values: each clicked where the smallest element holding them
    # all (by its text's length) shows it.
    def click_values(self, values, pick):
        for value in values:
            self.click_value(value, within=values)
            pick()

    def click_value(self, value, image=False, within=None):
        frame = self.find("#frame")
        self.driver.switch_to.frame(frame)
        try:
            if within:
                target = self.driver.execute_script(
                    "const [want, all] = arguments; const norm = (s) => s.replace(/\\s+/g, ' ').trim();"
                    "let box = null;"
                    "for (const e of document.body.querySelectorAll('*')) {"
                    "  const t = norm(e.textContent);"
                    "  if (all.every((v) => t.includes(v)) && (!box || t.length < norm(box.textContent).length)) box = e; }"
                    "for (const e of box.querySelectorAll('*')) if (norm(e.textContent) === want) return e;"
                    "return null;", value, within)
            elif image:
                target = self.driver.execute_script(
                    "for (const i of document.images) if (new URL(i.getAttribute('src'), arguments[1]).href === "
                    "arguments[0]) return i; return null;", value, self.base_url)
            else:
                target = self.driver.execute_script(
                    "const want = arguments[0]; const norm = (s) => s.replace(/\\s+/g, ' ').trim();"
                    "let best = null;"
                    "for (const e of document.body.querySelectorAll('*')) {"
                    "  if (norm(e.textContent) !== want) continue;"
                    "  if (!best || best.contains(e)) best = e; else break; }"
                    "return best;", value)
            assert target is not None, "no element shows %r" % value
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", target)
            target.click()
        finally:
            self.driver.switch_to.default_content()

    # Selects `value` inside the first text node holding it (a part of its
    # text), then releases the mouse there, as a drag selection ends.
    def select_value(self, value):
        self.driver.switch_to.frame(self.find("#frame"))
        try:
            found = self.driver.execute_script(
                "const want = arguments[0];"
                "const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
                "for (let n = walk.nextNode(); n; n = walk.nextNode()) {"
                "  const i = n.data.indexOf(want); if (i < 0 || n.data.trim() === want) continue;"
                "  n.parentElement.scrollIntoView({block: 'center'});"
                "  const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + want.length);"
                "  const s = document.getSelection(); s.removeAllRanges(); s.addRange(r);"
                "  const box = r.getBoundingClientRect();"
                "  n.parentElement.dispatchEvent(new MouseEvent('mouseup', {bubbles: true, clientX: box.right,"
                "                                                         clientY: box.bottom}));"
                "  return true; }"
                "return false;", value)
            assert found, "no text holds %r as a part" % value
        finally:
            self.driver.switch_to.default_content()

    def pick_attribute(self, name):
        self.wait.until(lambda d: self.find("#popover").is_displayed())
        self.find('#pop-attributes button[data-attribute="%s"]' % name).click()
        self.wait.until(lambda d: not self.find("#popover").is_displayed())

    def annotation_text(self, name):
        return self.find('#annotations tr[data-attribute="%s"] td:nth-child(2)' % name).text


def annotate_page(editor, truth):
    for attribute in HOW:
        values = truth[attribute]
        if not values:
            editor.find('#annotations tr[data-attribute="%s"] button' % attribute).click()
            continue
        if HOW[attribute] == "clicks":
            editor.click_values(values, lambda: editor.pick_attribute(attribute))
            shown = editor.annotation_text(attribute)
            assert shown == " | ".join(values), "%s annotated as %r, not %r" % (attribute, shown, values)
            continue
        if HOW[attribute] == "select":
            editor.select_value(values[0])
        else:
            editor.click_value(values[0], image=HOW[attribute] == "image")
        editor.pick_attribute(attribute)
        shown = editor.annotation_text(attribute)
        assert shown == values[0], "%s annotated as %r, not %r" % (attribute, shown, values[0])


# Pixels of `colour` in a band around the element's box (its outline).
def outline_pixels(rows, box, colour):
    left, top, right, bottom = [int(v) for v in box]
    count = 0
    for y in range(max(0, top - 6), min(len(rows), bottom + 6)):
        for x in range(max(0, left - 6), min(len(rows[0]), right + 6)):
            inside = left + 1 < x < right - 1 and top + 1 < y < bottom - 1
            if not inside and near(rows[y][x], colour):
                count += 1
    return count


def highlighted_box(editor, xpath):
    return editor.driver.execute_script(
        "const f = document.getElementById('frame'); const fr = f.getBoundingClientRect();"
        "const e = f.contentDocument.querySelector('[data-vx=\"' + CSS.escape(arguments[0]) + '\"]');"
        "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
        "return [fr.left + f.clientLeft + r.left, fr.top + f.clientTop + r.top,"
        "        fr.left + f.clientLeft + r.right, fr.top + f.clientTop + r.bottom];", xpath)


def wait_extraction(server, url, html):
    deadline = time.time() + 60
    while True:
        try:
            return server.rpc("ExtractionService", "Extract", {"site": SITE, "url": url, "html": b64(html)})
        except AssertionError as e:
            if time.time() > deadline or "FAILED_PRECONDITION" not in str(e):
                raise
            time.sleep(0.5)


def main():
    for binary in (CHROMIUM, CHROMEDRIVER):
        if not os.access(binary, os.X_OK):
            print("SKIP: %s is absent (apt-get install chromium chromium-driver)" % binary)
            return SKIP
    started = time.time()
    work = tempfile.mkdtemp(prefix="editor_browser_test")
    out_dir = os.environ.get("OUT_DIR") or os.path.join(work, "screens")
    os.makedirs(out_dir, exist_ok=True)
    server = Server(work)
    editor = None
    try:
        pages = gen_shop(os.path.join(work, "shop"), 1, 24)
        unseen = gen_shop(os.path.join(work, "unseen"), 7, 12)
        server.rpc("LearningService", "RegisterSite", {"site": SITE, "schema": SCHEMA})
        added = server.rpc("LearningService", "AddSamplePages",
                           {"site": SITE, "pages": [{"url": u, "html": b64(h)} for u, h, _ in pages]})
        cluster = max(added["clusters"], key=lambda c: int(c["pages"]))["cluster_id"]
        # The readable routes of the page's two RPCs.
        assert [s["site"] for s in server.get("/v1/sites")["sites"]] == [SITE]
        shown = server.get("/v1/sites/%s/editor-page?url=%s" % (SITE, urllib.parse.quote(pages[0][0], safe="")))
        assert shown["url"] == pages[0][0] and 'data-vx="/html[1]"' in shown["html"], shown.get("url")
        by_url = {u: t for u, _, t in pages}

        editor = Editor(server.base, out_dir, os.path.join(work, "profile"))
        editor.driver.get(server.base + "/static/editor/")
        editor.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sites tbody tr")) == 1)
        assert SITE in editor.find("#sites tbody").text
        editor.screenshot("1-site-picker", min_colours=8)

        Select(editor.find("#site")).select_by_value(SITE)
        editor.wait.until(lambda d: editor.find("#cluster").get_attribute("value"))
        if editor.find("#cluster").get_attribute("value") != cluster:
            Select(editor.find("#cluster")).select_by_value(cluster)
        url = editor.wait_page()
        editor.base_url = url
        done, learnt_pages = False, 0
        while not done:
            assert learnt_pages < 6, "the cluster is not DONE after %d annotated pages" % learnt_pages
            truth = by_url[url]
            editor.base_url = url
            annotate_page(editor, truth)
            if learnt_pages == 0:
                # The annotations are outlined (dashed) in their colours.
                marks = editor.driver.execute_script(
                    "return document.querySelector('#frame').contentDocument"
                    ".querySelectorAll('[data-vx-mark]').length;")
                assert marks >= 6, "%d annotated elements outlined" % marks  # 2 for the category list
                editor.screenshot("2-annotation")
            editor.find("#learn").click()
            editor.wait.until(lambda d: editor.find("#state").text.startswith("Version"))
            editor.wait_page()
            editor.no_error()
            learnt_pages += 1
            done = "done" in editor.find("#state").get_attribute("class").split()
            if learnt_pages == 1:
                state = editor.find("#state").text
                assert editor.find("#diagnostics").text, "no diagnostics shown"
                marked = editor.driver.execute_script(
                    "const d = document.querySelector('#frame').contentDocument;"
                    "const e = d.querySelector('[data-vx-mark=extracted]'); return e ? e.getAttribute('data-vx') : null;")
                assert marked, "nothing highlighted after Learn"
                box = highlighted_box(editor, marked)
                rows = editor.screenshot("3-preview-diagnostics")
                colour_of = editor.driver.execute_script(
                    "const d = document.querySelector('#frame').contentDocument;"
                    "return d.querySelector('[data-vx-mark=extracted]').style.outlineColor;")
                rgb = tuple(int(v) for v in re.findall(r"\d+", colour_of)[:3])
                assert rgb in COLOURS, "outline colour %s is no attribute's" % colour_of
                n = outline_pixels(rows, box, rgb)
                assert n >= 30, "only %d pixels of the highlight colour %s around %s" % (n, rgb, box)
                print("highlight of %s: %d pixels of %s; after the first Learn: %s" % (marked, n, rgb, state))
                previews = editor.driver.find_elements(By.CSS_SELECTOR, "#preview tbody tr")
                assert len(previews) >= 3, "preview shows %d rows" % len(previews)
            if not done:
                previous = url
                editor.find("#next").click()
                url = editor.wait_page(previous)
        print("cluster %s DONE after %d pages annotated through the page" % (cluster, learnt_pages))

        # The rule through the JSON API, on pages never seen.
        wrong = []
        for u, h, t in unseen:
            record = wait_extraction(server, u, h)["record"]
            got = {a["attribute"]: a.get("values", []) for a in record.get("attributes", [])}
            for attribute in HOW:
                if got.get(attribute, []) != t[attribute]:
                    wrong.append("%s %s: %r, expected %r" % (u, attribute, got.get(attribute), t[attribute]))
        assert not wrong, "the learnt rule is wrong on unseen pages:\n" + "\n".join(wrong)
        print("unseen pages: %d pages x %d attributes extracted right" % (len(unseen), len(HOW)))

        # Rule history: show the first version and roll back to it.
        editor.find('#tabs button[data-tab="rules"]').click()
        editor.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rule-clusters button.version"))
        versions = editor.driver.find_elements(By.CSS_SELECTOR, "#rule-clusters button.version")
        latest = max(int(v.text[1:]) for v in versions)
        editor.screenshot("4-rule-history", min_colours=8)
        if len(versions) >= 2:
            versions[0].click()
            editor.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rollback"))
            assert editor.find("#rule-detail td.xpath").text.startswith("/")
            editor.screenshot("5-rule-version", min_colours=8)
            editor.find("#rollback").click()
            editor.wait.until(lambda d: "current again" in editor.find("#rule-detail").text)
            editor.no_error()
            rules = server.rpc("LearningService", "ListRules", {"site": SITE})
            current = {c["cluster"]["cluster_id"]: int(c["cluster"]["current_version"]) for c in rules["clusters"]}
            assert current[cluster] == 1, "rollback did not make v1 current: %r" % current
        # Monitoring: a run on the sample pages (OK), one where the title is
        # gone from every page (BROKEN); the chart shows both.
        fresh = [{"url": u, "html": b64(h)} for u, h, _ in pages]
        broken = [{"url": u, "html": b64(re.sub(r"<h1[^>]*>.*?</h1>", "", h))} for u, h, _ in pages]
        server.rpc("LearningService", "RollbackRule",
                   {"site": SITE, "cluster_id": cluster, "version": str(latest)})
        for run in (fresh, broken, fresh):
            server.rpc("MonitoringService", "Monitor", {"site": SITE, "pages": run})
            time.sleep(0.01)
        editor.find('#tabs button[data-tab="monitor"]').click()
        editor.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#runs tbody tr")) == 3)
        bars = editor.driver.find_elements(By.CSS_SELECTOR, "#chart rect[data-verdict]")
        verdicts = {b.get_attribute("data-verdict") for b in bars}
        assert len(bars) >= 3 and "OK" in verdicts and len(verdicts) >= 2, "chart bars: %r" % verdicts
        editor.screenshot("6-monitor-chart", min_colours=8)
        editor.no_error()
        print("monitor chart: %d bars, verdicts %s" % (len(bars), sorted(verdicts)))
        print("editor browser test passed in %.1f s; screenshots in %s" % (time.time() - started, out_dir))
        return 0
    finally:
        if editor:
            editor.quit()
        server.stop()
        if not os.environ.get("OUT_DIR"):
            print("(screenshots kept in %s)" % out_dir)


if __name__ == "__main__":
    sys.exit(main())
