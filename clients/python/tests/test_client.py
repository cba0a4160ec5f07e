"""The Python client against a vertexd on loopback (ctest: python_client_test).

One vertexd (its own store and token) and one generated demo shop for the
module. The site is learnt through the client from two example pages (their
ground truth), then the unseen pages are extracted and scored against the
ground truth with the project's rule (common/eval/score.h) and the
thresholds the C++ tests use (tests/cli/rules_cli_test.cc: precision >= 0.98,
recall >= 0.9 per attribute).
"""

import ast
import itertools
import json
import os
import re
import unittest

import grpc
from google.protobuf import json_format

import harness
from vertex_client import Vertex, VertexError, client

TOKEN = "py-client-test-token"
SITE = "demo"
PRODUCT_SCHEMA = os.path.join(harness.SOURCE_DIR, "deploy", "schemas", "product.json")
# tests/cli/rules_cli_test.cc's thresholds for the demo shop learnt from two pages.
MIN_PRECISION, MIN_RECALL = 0.98, 0.9
# The server's page size limit (the demo's pages are far smaller).
MAX_PAGE_BYTES = 1 << 20


def setUpModule():
    global server, site, examples, annotated_ids
    work = harness.temp_dir(unittest.addModuleCleanup, "py_client_")
    site = harness.DemoSite(os.path.join(work, "demo"), "--products", "120", "--categories", "40", "--reviews",
                            "30", "--stores", "30")
    # The first two product pages (by id), all their ground-truth values:
    # what tests/cli/rules_cli_test.cc annotates.
    annotated_ids = sorted(site.truth)[:2]
    examples = {site.url_of[i]: {a: v for a, v in site.truth[i].items() if v} for i in annotated_ids}
    server = harness.Vertexd(work, TOKEN, "--max-page-bytes", str(MAX_PAGE_BYTES))


def tearDownModule():
    server.stop()


def learnt_vertex():
    """A client of the server where SITE is learnt (once per module)."""
    global _learnt
    if "_learnt" not in globals():
        v = Vertex(server.address, token=TOKEN)
        v.batch_bytes = 200_000  # several AddSamplePages messages
        with open(PRODUCT_SCHEMA) as f:
            _learnt = (v, v.learn(SITE, site.pages, examples, schema=f.read()))
    return _learnt


def unseen_pages():
    annotated = {site.url_of[i] for i in annotated_ids}
    return [(url, html) for url, html in site.pages.items() if url not in annotated]


class LearnTest(unittest.TestCase):
    def test_learns_the_examples_cluster(self):
        v, result = learnt_vertex()
        self.assertTrue(result.created)
        self.assertEqual(result.pages_added, len(site.pages))
        self.assertEqual(result.sample_pages, len(site.pages))
        self.assertEqual(result.page_errors, {})
        self.assertEqual(len(result.clusters), 1, result)  # both examples are product pages
        cluster = result.clusters[0]
        self.assertEqual(cluster.version, 1)
        self.assertFalse(cluster.refused)
        annotated = {a for values in examples.values() for a in values}
        self.assertTrue(annotated <= set(cluster.learnt), cluster)
        self.assertEqual(cluster.not_learnt, {})
        self.assertTrue(result.ok)

    def test_learning_again_sends_no_page_and_stores_a_new_version(self):
        v, first = learnt_vertex()
        again = v.learn(SITE, site.pages, examples)  # a registered site keeps its schema
        self.assertFalse(again.created)
        self.assertEqual(again.pages_added, 0)
        self.assertEqual(again.clusters[0].cluster_id, first.clusters[0].cluster_id)
        self.assertGreater(again.clusters[0].version, first.clusters[0].version)

    def test_inferred_schema_from_the_examples(self):
        examples = {site.url_of[i]: {"title": site.truth[i]["title"][0], "category": site.truth[i]["category"],
                                     "brand": None} for i in annotated_ids}
        schema = client.infer_schema(examples, "shop")
        self.assertEqual([a.name for a in schema.attributes], ["title", "category", "brand"])
        self.assertEqual([a.mandatory for a in schema.attributes], [True, True, False])
        multi = [len(site.truth[i]["category"]) > 1 for i in annotated_ids]
        self.assertEqual(schema.attributes[1].multi_valued, any(multi))
        self.assertFalse(schema.attributes[0].multi_valued)

    def test_bad_arguments_are_refused_before_any_call(self):
        v = Vertex(server.address, token=TOKEN)
        with self.assertRaisesRegex(ValueError, "neither among the pages given nor in site"):
            v.learn("other", {"http://x.test/a": "<html></html>"}, {"http://x.test/b": {"title": "T"}})
        with self.assertRaisesRegex(TypeError, "html must be str or bytes"):
            v.learn("other", {"http://x.test/a": 3}, {"http://x.test/a": {"title": "T"}})
        with self.assertRaisesRegex(TypeError, "expected a str, a list of str or None"):
            v.learn("other", {"http://x.test/a": ""}, {"http://x.test/a": {"title": 5}})
        with self.assertRaisesRegex(ValueError, "at least one example"):
            v.learn("other", {"http://x.test/a": ""}, {})


class ExtractTest(unittest.TestCase):
    def test_unseen_pages_match_the_ground_truth(self):
        v, result = learnt_vertex()
        cluster = result.clusters[0].cluster_id
        scorer, statuses = harness.Scorer(), {}
        id_of = {url: i for i, url in site.url_of.items()}
        for url, html in unseen_pages():
            record = v.extract(url, html, site=SITE)
            self.assertIsInstance(record, dict)
            statuses[record.status] = statuses.get(record.status, 0) + 1
            truth = site.truth.get(id_of[url])
            if truth is None:
                continue  # not a product page
            self.assertEqual(record.cluster_id, cluster, url)
            self.assertEqual(record.url, url)
            for attribute, values in truth.items():
                scorer.add(attribute, record.get(attribute, []), values)
        self.assertGreater(statuses.get("OK", 0), 100, statuses)
        for attribute in scorer.counts:
            with self.subTest(attribute=attribute):
                self.assertGreaterEqual(scorer.precision(attribute), MIN_PRECISION, scorer.counts[attribute])
                self.assertGreaterEqual(scorer.recall(attribute), MIN_RECALL, scorer.counts[attribute])

    def test_agrees_with_vertexctl_extract(self):
        # The same pages through `vertexctl extract --server` (C++ client,
        # ExtractStream) and through extract_many: the same records.
        v, _ = learnt_vertex()
        out = harness.vertexctl("extract", "--server", server.address, "--site", SITE, site.dir)
        cli = {}
        for line in out.splitlines():
            r = json.loads(line)
            cli[r["url"]] = (r["status"], r.get("cluster", ""), int(r.get("rule_version", 0)),
                             r.get("matched_by", ""), {a: vs for a, vs in r.get("attributes", {}).items() if vs})
        self.assertEqual(len(cli), len(site.pages))
        for record in v.extract_many(site.pages, site=SITE):
            with self.subTest(url=record.url):
                self.assertEqual((record.status, record.cluster_id, record.rule_version, record.matched_by,
                                  {a: vs for a, vs in record.items() if vs}), cli[record.url])

    def test_record_representation(self):
        v, result = learnt_vertex()
        i = sorted(site.truth)[5]
        record = v.extract(site.url_of[i], site.pages[site.url_of[i]].decode("utf-8"))  # str html, no site
        self.assertEqual(record.status, "OK")
        self.assertEqual(record.site, SITE)
        self.assertIn(record.matched_by, ("signature", "nearest"))
        self.assertIsInstance(record.rule_version, int)
        self.assertGreaterEqual(record.rule_version, result.clusters[0].version)  # learnt again by then, maybe
        self.assertTrue(all(isinstance(v, list) for v in record.values()))
        self.assertEqual(list(record)[0], "title")  # schema order
        self.assertEqual(record.as_dict()["attributes"], dict(record))

    def test_a_page_no_rule_matches_is_a_record_not_an_error(self):
        v, _ = learnt_vertex()
        record = v.extract("http://elsewhere.test/x.html", "<html><body>x</body></html>", site=SITE)
        self.assertEqual(record.status, "NO_URL_MATCH")
        self.assertEqual(dict(record), {})
        self.assertEqual(record.cluster_id, "")

    def test_extract_many_equals_extract_page_by_page(self):
        v, _ = learnt_vertex()
        pages = unseen_pages()
        streamed = [r.as_dict() for r in v.extract_many(pages, site=SITE, max_in_flight=4)]
        one_by_one = [v.extract(url, html, site=SITE).as_dict() for url, html in pages]
        self.assertEqual(len(streamed), len(pages))
        self.assertEqual(streamed, one_by_one)

    def test_extract_many_reads_its_input_lazily(self):
        v, _ = learnt_vertex()
        pulled = []

        def pages():
            for item in unseen_pages()[:40]:
                pulled.append(item[0])
                yield item

        in_flight = 3
        for n, record in enumerate(v.extract_many(pages(), site=SITE, max_in_flight=in_flight), start=1):
            self.assertEqual(record.url, pulled[n - 1])
            # At most in_flight sent and unanswered, plus one waiting for a slot.
            self.assertLessEqual(len(pulled), n + in_flight, n)
        self.assertEqual(n, 40)

    def test_extract_many_stopped_early_cancels_the_stream(self):
        v, _ = learnt_vertex()
        stream = v.extract_many(itertools.cycle(unseen_pages()), site=SITE)
        first = [next(stream) for _ in range(5)]
        stream.close()
        self.assertEqual(len(first), 5)
        self.assertEqual(v.extract(*unseen_pages()[0], site=SITE).status, first[0].status)  # still usable

    def test_extract_many_reports_a_bad_page_and_goes_on(self):
        v, _ = learnt_vertex()
        good = unseen_pages()[:2]
        pages = [good[0], (good[0][0], b""), good[1]]
        records = list(v.extract_many(pages, site=SITE))
        self.assertEqual([r.status for r in records][1], "ERROR")
        self.assertEqual(records[1].error.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(records[1].url, good[0][0])
        self.assertEqual(records[2].as_dict(), v.extract(*good[1], site=SITE).as_dict())
        with self.assertRaises(VertexError) as e:
            list(v.extract_many(pages, site=SITE, raise_errors=True))
        self.assertEqual(e.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        with self.assertRaisesRegex(ValueError, "max_in_flight"):
            v.extract_many(pages, site=SITE, max_in_flight=0)  # at the call, not at the first record
        with self.assertRaisesRegex(TypeError, "expected \\(url, html\\) pairs"):
            list(v.extract_many([good[0], "not a pair"], site=SITE))


class MonitorTest(unittest.TestCase):
    def test_unchanged_pages_are_ok(self):
        v, result = learnt_vertex()
        cluster = result.clusters[0].cluster_id
        verdicts = v.monitor(SITE, site.pages, dry_run=True)
        self.assertEqual(verdicts.clusters[cluster].verdict, "OK", verdicts)
        self.assertGreater(verdicts.clusters[cluster].pages, 100)
        self.assertEqual(verdicts.verdict, "OK", verdicts)
        self.assertFalse(verdicts.recorded)
        # The same run over MonitorStream (pages in several messages).
        small = Vertex(server.address, token=TOKEN)
        small.batch_bytes = 100_000
        streamed = small.monitor(SITE, site.pages, dry_run=True)
        self.assertEqual(streamed.clusters[cluster], verdicts.clusters[cluster])

    def test_a_changed_template_is_changed(self):
        v, result = learnt_vertex()
        cluster = result.clusters[0].cluster_id
        # The product pages with their layout rewrapped: tables for divs.
        changed = {url: re.sub(rb"<(/?)div\b", rb"<\1table", html) for url, html in site.pages.items()}
        verdicts = v.monitor(SITE, changed, dry_run=True)
        self.assertIn(verdicts.clusters[cluster].verdict, ("CHANGED", "BROKEN"), verdicts)
        self.assertNotEqual(verdicts.verdict, "OK")


class ErrorTest(unittest.TestCase):
    def assertCode(self, code, call, *args, **kwargs):
        with self.assertRaises(VertexError) as e:
            call(*args, **kwargs)
        self.assertEqual(e.exception.code, code, e.exception)
        self.assertTrue(e.exception.message)
        self.assertIn(code.name, str(e.exception))
        return e.exception

    def test_a_write_without_the_right_token_is_unauthenticated(self):
        url, html = next(iter(site.pages.items()))
        for token in ("wrong-token", ""):
            with self.subTest(token=token):
                v = Vertex(server.address, token=token)
                error = self.assertCode(grpc.StatusCode.UNAUTHENTICATED, v.learn, "other", {url: html},
                                        {url: {"title": "x"}})
                self.assertEqual(error.method, "RegisterSite")

    def test_the_token_comes_from_the_environment(self):
        url, html = next(iter(site.pages.items()))
        saved = os.environ.get(client.TOKEN_ENV)
        try:
            os.environ[client.TOKEN_ENV] = "wrong-token"
            self.assertCode(grpc.StatusCode.UNAUTHENTICATED, Vertex(server.address).learn, "other", {url: html},
                            {url: {"title": "x"}})
            os.environ[client.TOKEN_ENV] = TOKEN
            page = "http://env.test/p.html"
            result = Vertex(server.address).learn("envsite", {page: html}, {page: {"title": "x"}})
            self.assertTrue(result.created)
        finally:
            os.environ.pop(client.TOKEN_ENV, None)
            if saved is not None:
                os.environ[client.TOKEN_ENV] = saved

    def test_unknown_site(self):
        v = Vertex(server.address, token=TOKEN)
        url, html = next(iter(site.pages.items()))
        error = self.assertCode(grpc.StatusCode.NOT_FOUND, v.extract, url, html, site="no-such-site")
        self.assertIn("no-such-site", error.message)
        self.assertCode(grpc.StatusCode.NOT_FOUND, v.monitor, "no-such-site", {url: html})

    def test_bad_html(self):
        v, _ = learnt_vertex()
        url = next(iter(site.pages))
        error = self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, v.extract, url, b"", site=SITE)
        self.assertIn("html", error.message)
        huge = "<html><body>" + "<p>x</p>" * (MAX_PAGE_BYTES // 8) + "</body></html>"
        error = self.assertCode(grpc.StatusCode.RESOURCE_EXHAUSTED, v.extract, url, huge, site=SITE)
        self.assertIn("max-page-bytes", error.message)
        self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, v.extract, "", "<html></html>", site=SITE)

    def test_no_server(self):
        v = Vertex("127.0.0.1:1", token=TOKEN, timeout=5)
        self.assertCode(grpc.StatusCode.UNAVAILABLE, v.extract, "http://x.test/", "<html></html>")


class FeedTest(unittest.TestCase):
    """AnnotateFromFeed through the generated stub (the client wraps no
    call of its own for it): a generated blog learnt from its feed with no
    editor, then an entry page the feed never named extracted."""

    def test_a_blog_learnt_from_its_feed_extracts_unseen_entry_pages(self):
        work = harness.temp_dir(self.addCleanup, "py_feed_")
        blog = os.path.join(work, "blog")
        harness.vertexctl("gen-demo", "--kind", "blog", "--out", blog)
        truth = [json.loads(line) for line in open(os.path.join(blog, "truth.jsonl"))]
        pages = {}
        for page in truth:
            data = open(os.path.join(blog, page["file"]), "rb").read()
            pages[page["url"]] = data
        v = Vertex(server.address, token=TOKEN)
        with open(os.path.join(harness.SOURCE_DIR, "deploy", "schemas", "blog.json")) as f:
            schema = json_format.Parse(f.read(), client.pb.rule.Schema())
        v.learning.RegisterSite(client.pb.learning.RegisterSiteRequest(site="pyblog", schema=schema), timeout=60)
        add = client.pb.learning.AddSamplePagesRequest(site="pyblog")
        for url, html in pages.items():
            add.pages.add(url=url, html=html)
        v.learning.AddSamplePages(add, timeout=300)
        feed = open(os.path.join(blog, "feed.xml"), "rb").read()
        request = client.pb.learning.AnnotateFromFeedRequest(
            site="pyblog", feed_xml=feed, feed_url="http://blog.vertex-demo.test/feed/", learn=True)
        response = v.learning.AnnotateFromFeed(request, timeout=300)
        self.assertEqual(response.feed_format, "rss2.0")
        outcomes = {c.cluster_id: client.pb.learning.FeedClusterLearn.Outcome.Name(c.outcome)
                    for c in response.clusters}
        self.assertIn("ACCEPTED", outcomes.values(), outcomes)
        unseen = [p for p in truth if p["kind"] == "entry" and not p["in_feed"]]
        self.assertTrue(unseen)
        record = v.extract(unseen[0]["url"], pages[unseen[0]["url"]], site="pyblog")
        self.assertEqual([" ".join(t.split()) for t in record.get("title", [])], [unseen[0]["entries"][0]["title"]])
        # Learning is a write: it needs the token.
        with self.assertRaises(grpc.RpcError) as e:
            Vertex(server.address, token="wrong").learning.AnnotateFromFeed(request, timeout=60)
        self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)


class ReadmeTest(unittest.TestCase):
    """The README's example, taken from README.md so it cannot drift, run as
    written against a server of its own (a store with no other site)."""

    @classmethod
    def setUpClass(cls):
        cls.server = harness.Vertexd(harness.temp_dir(cls.addClassCleanup, "py_client_readme_"), TOKEN)
        cls.addClassCleanup(cls.server.stop)

    def readme_example(self):
        with open(os.path.join(harness.SOURCE_DIR, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        section = re.search(r"^## Python client\n(.*?)(?=^## )", readme, re.MULTILINE | re.DOTALL)
        self.assertIsNotNone(section, "README.md has no '## Python client' section")
        block = re.search(r"```python\n(.*?)```", section.group(1), re.DOTALL)
        self.assertIsNotNone(block, "the README's Python client section has no ```python block")
        return block.group(1)

    def test_the_readme_example_learns_and_extracts(self):
        code = self.readme_example()
        tree = ast.parse(code)
        self.assertLessEqual(len(tree.body), 4, "the README's example is the import and three lines")
        # The server's address in place of the README's.
        address = self.server.address
        code = re.sub(r'Vertex\("[^"]*"', f'Vertex("{address}"', code, count=1)
        self.assertIn(address, code)
        *body, last = ast.parse(code).body
        self.assertIsInstance(last, ast.Expr, "the example ends with the extract call")
        # The names the README leaves to the reader: a shop's pages, examples
        # of two product pages (title and price), and a page to extract.
        i, j, k = sorted(site.truth)[:3]
        names = {"pages": {u: h.decode("utf-8") for u, h in site.pages.items()},
                 "examples": {site.url_of[n]: {"title": site.truth[n]["title"][0],
                                               "price": site.truth[n]["price"][0]} for n in (i, j)},
                 "url": site.url_of[k], "html": site.pages[site.url_of[k]].decode("utf-8")}
        saved = os.environ.get(client.TOKEN_ENV)
        os.environ[client.TOKEN_ENV] = TOKEN  # the example gives no token
        try:
            exec(compile(ast.Module(body=body, type_ignores=[]), "README.md", "exec"), names)
            record = eval(compile(ast.Expression(last.value), "README.md", "eval"), names)
        finally:
            os.environ.pop(client.TOKEN_ENV, None)
            if saved is not None:
                os.environ[client.TOKEN_ENV] = saved
        self.assertEqual(record.status, "OK", record)
        scorer = harness.Scorer()
        for attribute in ("title", "price"):
            scorer.add(attribute, record[attribute], site.truth[k][attribute])
            self.assertEqual(scorer.precision(attribute), 1.0, record)
            self.assertEqual(scorer.recall(attribute), 1.0, record)


if __name__ == "__main__":
    unittest.main()
