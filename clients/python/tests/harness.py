"""Test fixtures of the Python client: a vertexd on loopback, the generated
demo site and its ground truth, and the project's scoring rule.

VERTEXD, VERTEXCTL and VERTEX_SOURCE_DIR come from the environment (ctest
sets them, see clients/python/CMakeLists.txt).
"""

import glob
import html
import os
import re
import shutil
import subprocess
import tempfile
import time

VERTEXD = os.environ.get("VERTEXD", "")
VERTEXCTL = os.environ.get("VERTEXCTL", "")
SOURCE_DIR = os.environ.get("VERTEX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Vertexd:
    """A vertexd on 127.0.0.1 (a free port: --listen 127.0.0.1:0 --port-file),
    with its own store in `workdir`, bearer token `token` and more `flags`."""

    def __init__(self, workdir, token, *flags):
        self.workdir, self.token = workdir, token
        self.log_path = os.path.join(workdir, "vertexd.log")
        port_file = os.path.join(workdir, "port")
        command = [VERTEXD, "--listen", "127.0.0.1:0", "--port-file", port_file,
                   "--store", os.path.join(workdir, "store"), "--auth-token", token, *flags]
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        self.address = f"127.0.0.1:{self._wait_for_port(port_file)}"

    def _wait_for_port(self, port_file, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"vertexd exited with {self.process.returncode}: {self.log()}")
            if os.path.exists(port_file):
                text = open(port_file).read().strip()
                if text.isdigit():
                    return int(text)
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"vertexd wrote no port in {timeout}s: {self.log()}")

    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")[-4000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def vertexctl(*args):
    result = subprocess.run([VERTEXCTL, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"vertexctl {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result.stdout


_BASE = re.compile(rb'<base href="([^"]+)"')


class DemoSite:
    """`vertexctl gen-demo` in a fresh directory: pages[url] = html bytes,
    url_of[page id], truth[page id][attribute] = values (SWDE files under
    groundtruth/product, entity-decoded as eval::LoadGroundTruth does)."""

    def __init__(self, directory, *flags):
        vertexctl("gen-demo", "--out", directory, *flags)
        self.dir = directory
        self.pages, self.url_of = {}, {}
        for path in sorted(glob.glob(os.path.join(directory, "*.htm"))):
            data = open(path, "rb").read()
            match = _BASE.search(data[:4096])
            if not match:
                raise RuntimeError(f"{path}: no <base href> on its first line")
            url = match.group(1).decode()
            self.pages[url] = data
            self.url_of[os.path.splitext(os.path.basename(path))[0]] = url
        self.truth = _load_truth(os.path.join(directory, "groundtruth", "product"))


def _load_truth(directory):
    truth = {}
    files = glob.glob(os.path.join(directory, "*-vertexdemo-*.txt"))
    if not files:
        raise RuntimeError(f"no ground truth under {directory}")
    for path in files:
        attribute = re.match(r".*-vertexdemo-(.+)\.txt$", path).group(1)
        lines = open(path, encoding="utf-8-sig").read().splitlines()[2:]
        for line in filter(None, lines):
            fields = line.split("\t")
            count = int(fields[1])
            values = [html.unescape(v) for v in fields[2:2 + count] if v != "<NULL>"]
            truth.setdefault(fields[0], {})[attribute] = values
    return truth


# The scoring rule of common/eval/score.h: values compared entity-decoded,
# spaces collapsed and ASCII lower-cased, or, when not empty, also without
# the punctuation at their ends.
_EDGE = ".,:;!?-_/\\|*~\u2013\u2014\u00b7\u2022\u00ab\u00bb \t\n\r\f\v"


def _forms(value):
    normal = re.sub(r"[ \t\n\r\f\v]+", " ", html.unescape(value)).strip(" ")
    fold = lambda s: "".join(c.lower() if "A" <= c <= "Z" else c for c in s)  # noqa: E731
    return fold(normal), fold(normal.strip(_EDGE))


class Scorer:
    """Per-attribute precision and recall summed over pages (eval::Scorer)."""

    def __init__(self):
        self.counts = {}  # attribute -> [extracted, correct, truth, found]

    def add(self, attribute, extracted, truth):
        c = self.counts.setdefault(attribute, [0, 0, 0, 0])
        truth_forms = [_forms(t) for t in truth]
        found = [False] * len(truth)
        for value in extracted:
            forms, correct = _forms(value), False
            for i, t in enumerate(truth_forms):
                if forms[0] == t[0] or (forms[1] and forms[1] == t[1]):
                    correct = found[i] = True
            c[1] += correct
        c[0] += len(extracted)
        c[2] += len(truth)
        c[3] += sum(found)

    def precision(self, attribute):
        extracted, correct, _, _ = self.counts[attribute]
        return correct / extracted if extracted else 1.0

    def recall(self, attribute):
        _, _, truth, found = self.counts[attribute]
        return found / truth if truth else 1.0


def temp_dir(add_cleanup, prefix):
    """A temporary directory, removed by the cleanup `add_cleanup` registers
    (unittest.addModuleCleanup, cls.addClassCleanup, self.addCleanup)."""
    d = tempfile.mkdtemp(prefix=prefix)
    add_cleanup(shutil.rmtree, d, True)
    return d
