#!/usr/bin/python3
"""vertexd's HTTP/JSON face from Python's standard library alone (urllib).

Starts vertexd with --http-port 0 and a bearer token, then: a small site of
one template is registered, its pages added, annotated from the pages' own
values and learnt, each through the readable routes with JSON; a fresh page
is extracted by POSTing its HTML; the routes list, the static index, and the
JSON errors (404, 405, 400, 401) are checked. Needs VERTEXD (the binary).
"""
import base64
import json
import os
import sys
import tempfile
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vertexd_http import VertexdHttp  # noqa: E402

TOKEN = "py-secret"


def page(i):
    name = "Lamp model %d" % i
    price = "$%d.99" % (10 + i)
    html = ("<html><head><title>%s</title></head><body><div id=nav><a href=/>Home</a></div>"
            "<div class=product><h1>%s</h1><span class=price>%s</span>"
            "<p>Item %d of the catalogue, shipped in %d days.</p></div></body></html>"
            % (name, name, price, i, i % 5 + 1))
    return "http://lamps.example/p/%d" % i, html, name, price


def body_of(i):
    return ("Post %d is about the %s of lamps, with %d paragraphs of notes on wiring, shades and bulbs."
            % (i, ["history", "design", "repair", "care"][i % 4], i % 3 + 2))


def blog_post(i):
    """(url, the post's article, title) of a tiny blog's entry page."""
    title = "Notes on lamps, part %d" % i
    article = ("<article><h1 class=title>%s</h1><p class=meta>Posted July %d, 2005</p>"
               "<div class=content><p>%s</p></div></article>" % (title, i, body_of(i)))
    return "http://blog.example/%d/notes-%d.html" % (i, i), article, title


def blog_page(article, recent):
    """An entry page: the post, and a sidebar repeating the recent titles."""
    sidebar = "".join("<li>%s</li>" % t for t in recent[:5])
    return ("<html><head><title>Blog</title></head><body><div id=side><h3>Recent posts</h3><ul>%s</ul></div>"
            "<div id=main>%s</div></body></html>" % (sidebar, article))


class Server(VertexdHttp):
    def __init__(self, workdir):
        super().__init__(workdir, ["--auth-token", TOKEN])

    def call(self, method, path, body=None, content_type="application/json", token=True):
        data = None
        headers = {}
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = content_type
        if token:
            headers["Authorization"] = "Bearer " + TOKEN
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()


class HttpApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="http_api_test")
        cls.server = Server(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.tmp.cleanup()

    def json_call(self, method, path, body=None, want=200, **kw):
        status, headers, raw = self.server.call(method, path, body, **kw)
        self.assertEqual(status, want, raw)
        self.assertTrue(headers["Content-Type"].startswith("application/json"), headers["Content-Type"])
        return json.loads(raw)

    def test_learn_and_extract_through_readable_routes(self):
        schema = {"vertical": "lamps", "attributes": [{"name": "name", "mandatory": True},
                                                      {"name": "price", "type": "price"}]}
        made = self.json_call("POST", "/v1/sites/lamps", {"schema": schema})
        self.assertTrue(made["created"])
        pages = [page(i) for i in range(1, 13)]
        added = self.json_call("POST", "/v1/sites/lamps/pages", {"pages": [
            {"url": u, "html": base64.b64encode(h.encode()).decode()} for u, h, _, _ in pages]})
        self.assertEqual(added["pages_added"], 12)
        self.assertTrue(added["clusters"], added)
        by_url = {u: (n, p) for u, _, n, p in pages}
        for _ in range(4):
            tasks = self.json_call("GET", "/v1/sites/lamps/tasks?max_pages=3")
            if not tasks["tasks"]:
                break
            task = tasks["tasks"][0]
            name, price = by_url[task["url"]]
            learnt = self.json_call("POST", "/v1/sites/lamps/learn", {
                "cluster_id": task["cluster_id"],
                "annotations": [{"url": task["url"], "attribute": "name", "value": name},
                                {"url": task["url"], "attribute": "price", "value": price}]})
            # int64 is a JSON string in protobuf's mapping.
            self.assertIsInstance(learnt["version"], str)
            if not learnt["needs_more_pages"]:
                break
        rules = self.json_call("GET", "/v1/sites/lamps/rules")
        self.assertTrue(any(int(c["cluster"]["current_version"]) > 0 for c in rules["clusters"]), rules)
        url, html, name, price = page(40)
        record = self.json_call("POST", "/v1/extract?site=lamps&url=" + urllib.request.quote(url, safe=""),
                                html.encode(), content_type="text/html; charset=utf-8")["record"]
        self.assertEqual(record["status"], "OK")
        values = {a["attribute"]: a["values"] for a in record["attributes"]}
        self.assertEqual(values["name"], [name])
        self.assertEqual(values["price"], [price])
        # The same page as a JSON ExtractRequest (bytes are base64).
        again = self.json_call("POST", "/v1/rpc/vertex.v1.ExtractionService/Extract", {
            "site": "lamps", "url": url, "html": base64.b64encode(html.encode()).decode()})["record"]
        self.assertEqual(again, record)

    def test_a_feed_posted_as_rss_learns_the_blog(self):
        schema_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "schemas",
                                   "blog.json")
        with open(schema_path) as f:
            self.json_call("POST", "/v1/sites/blog", {"schema": json.load(f)})
        posts = [blog_post(i) for i in range(1, 9)]
        titles = [title for _, _, title in posts]
        self.json_call("POST", "/v1/sites/blog/pages", {"pages": [
            {"url": u, "html": base64.b64encode(blog_page(h, titles).encode()).decode()} for u, h, _ in posts]})
        items = "".join("<item><title>%s</title><link>%s</link><pubDate>%s</pubDate><description>%s</description>"
                        "</item>" % (t, u, "Fri, %02d Jul 2005 16:24:55 -0400" % (i + 1), body_of(i + 1))
                        for i, (u, _, t) in enumerate(posts))
        feed = ('<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>'
                "<link>http://blog.example/</link>%s</channel></rss>" % items).encode()
        path = "/v1/sites/blog/feed?learn=true&feed_url=" + urllib.request.quote("http://blog.example/feed/", safe="")
        # Learning is a write: the token.
        error = self.json_call("POST", path, feed, want=401, content_type="application/rss+xml", token=False)
        self.assertEqual(error["code"], "UNAUTHENTICATED")
        r = self.json_call("POST", path, feed, content_type="application/rss+xml")
        self.assertEqual(r["feed_format"], "rss2.0")
        self.assertEqual(r["feed_items"], 8)
        self.assertEqual(sorted(p["kind"] for p in r["pages"]), ["entry"] * 8)
        self.assertEqual([c["outcome"] for c in r["clusters"]], ["ACCEPTED"], r["clusters"])
        url, html, title = blog_post(20)
        record = self.json_call("POST", "/v1/extract?site=blog&url=" + urllib.request.quote(url, safe=""),
                                blog_page(html, titles).encode(), content_type="text/html")["record"]
        values = {a["attribute"]: a["values"] for a in record["attributes"]}
        self.assertEqual(values["title"], [title])

    def test_errors_are_json(self):
        cases = [
            ("GET", "/v1/sites/lamps/nothing", None, True, 404, "NOT_FOUND"),
            ("DELETE", "/v1/extract", None, True, 405, "INVALID_ARGUMENT"),
            ("POST", "/v1/sites/x/learn", b"{not json", True, 400, "INVALID_ARGUMENT"),
            ("POST", "/v1/sites/x/learn", {"cluster_id": "c"}, False, 401, "UNAUTHENTICATED"),
            ("GET", "/v1/sites/unknown-site/rules", None, True, 404, "NOT_FOUND"),
        ]
        for method, path, body, token, want, code in cases:
            error = self.json_call(method, path, body, want=want, token=token)
            self.assertEqual(error["code"], code, (method, path))
            self.assertTrue(error["message"], (method, path))

    def test_routes_and_index(self):
        routes = self.json_call("GET", "/v1")["routes"]
        paths = {r["path"] for r in routes}
        self.assertIn("/v1/extract", paths)
        self.assertIn("/v1/rpc/vertex.v1.LearningService/RegisterSite", paths)
        status, headers, body = self.server.call("GET", "/")
        self.assertEqual(status, 200)
        self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
        self.assertIn(b"Vertex", body)


if __name__ == "__main__":
    if not os.environ.get("VERTEXD"):
        print("VERTEXD is not set", file=sys.stderr)
        sys.exit(2)
    unittest.main()
