"""vertexd with its HTTP port on, for the Python tests of the HTTP face
(tests/http/http_api_test.py, tests/web/editor_browser_test.py).

VertexdHttp(workdir, extra_args) starts $VERTEXD on free loopback ports over a
new store in workdir, waits for its HTTP port file, and sets `base` to
http://127.0.0.1:PORT; stop() sends SIGTERM and waits. Its stderr goes to
workdir/vertexd.log, shown when it does not start.
"""

import os
import signal
import subprocess
import time


class VertexdHttp:
    def __init__(self, workdir, extra_args=()):
        self.port_file = os.path.join(workdir, "http.port")
        self.log = open(os.path.join(workdir, "vertexd.log"), "w+")
        self.proc = subprocess.Popen(
            [os.environ["VERTEXD"], "--listen", "127.0.0.1:0", "--store", os.path.join(workdir, "store"),
             "--http-port", "0", "--http-port-file", self.port_file, *extra_args],
            stderr=self.log)
        for _ in range(600):
            if os.path.exists(self.port_file) and open(self.port_file).read().strip():
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        port = open(self.port_file).read().strip() if os.path.exists(self.port_file) else ""
        if not port:
            self.log.seek(0)
            raise RuntimeError("vertexd did not start:\n" + self.log.read())
        self.base = "http://127.0.0.1:%s" % port

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(60)
