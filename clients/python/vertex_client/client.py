"""The Vertex client: learn a site's rules from example pages, extract, monitor.

Thread-safety: a Vertex object may be used from several threads at once (a
gRPC channel is); each extract_many iterator belongs to the thread reading it.

Records
-------
One representation everywhere: a record is a ``Record``, a ``dict`` from
attribute name to the **list** of its values as strings (an attribute the
rule did not find maps to ``[]``; a single-valued attribute found maps to a
one-element list), in schema order, plus attributes:

  ``url``, ``site``          the page and the site whose rule was used
  ``status``                 "OK", "PARTIAL", "NO_URL_MATCH", "NO_SHINGLE_MATCH"
                             (proto ExtractedRecord.Status), or "ERROR" for a
                             page extract_many could not extract (see ``error``)
  ``cluster_id``             the rule's cluster ("" when no rule matched)
  ``rule_version``           int (proto int64s are Python ints throughout)
  ``matched_by``             "signature", "nearest" or ""
  ``missing_mandatory``      list of attribute names
  ``records``                list pages (record-level rules): a list of dicts
                             attribute -> list of values, one per record
  ``error``                  a VertexError (extract_many only), else None
  ``response``               the raw ExtractResponse message

Errors
------
Every error the server returns is raised as ``VertexError`` carrying the
gRPC status code (``.code``, a ``grpc.StatusCode``) and the server's message
(``.message``), e.g. UNAUTHENTICATED for a missing or wrong token on a write
call, NOT_FOUND for an unknown site, INVALID_ARGUMENT for a page that
cannot be used. Arguments of the wrong shape (not a URL string, html neither
str nor bytes, an example for a page not given) raise ``TypeError`` or
``ValueError`` before anything is sent.
"""

import collections
import os
import threading
import types

try:
    import grpc
    from google.protobuf import json_format
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError(
        f"vertex_client needs Debian's python3-grpcio and python3-protobuf ({e}); "
        "apt-get install python3-grpcio python3-protobuf") from e

from vertex_client import codegen


def _load_stubs():
    if not codegen.stubs_present():
        try:
            codegen.generate()
        except (codegen.CodegenError, OSError) as e:
            raise ImportError(
                f"vertex_client: the gRPC stubs are missing and could not be generated ({e}); "
                "run `python3 -m vertex_client.codegen` in clients/python, or install with "
                "`pip install ./clients/python`") from e
    from vertex_client._gen.vertex.v1 import (extraction_pb2, extraction_pb2_grpc, learning_pb2,
                                              learning_pb2_grpc, list_model_pb2, monitoring_pb2,
                                              monitoring_pb2_grpc, rule_pb2)
    messages = types.SimpleNamespace(rule=rule_pb2, learning=learning_pb2, extraction=extraction_pb2,
                                     monitoring=monitoring_pb2, list_model=list_model_pb2)
    services = types.SimpleNamespace(learning=learning_pb2_grpc, extraction=extraction_pb2_grpc,
                                     monitoring=monitoring_pb2_grpc)
    return messages, services


# The generated message modules: pb.rule, pb.learning, pb.extraction,
# pb.monitoring, pb.list_model (proto/vertex/v1/*.proto).
pb, _grpc_modules = _load_stubs()

TOKEN_ENV = "VERTEX_AUTH_TOKEN"
_ERROR_STATUS = "ERROR"


class VertexError(Exception):
    """An error the Vertex server returned (or a failed call).

    Attributes: ``code`` (grpc.StatusCode, e.g. grpc.StatusCode.NOT_FOUND),
    ``message`` (the server's message, naming the offending input) and
    ``method`` (the RPC, e.g. "Learn").
    """

    def __init__(self, code, message, method=""):
        self.code = code
        self.message = message
        self.method = method
        super().__init__(f"{method + ': ' if method else ''}{code.name}: {message}")

    @classmethod
    def from_rpc_error(cls, method, error):
        return cls(error.code(), error.details() or "", method)


def _code_of(number):
    for code in grpc.StatusCode:
        if code.value[0] == number:
            return code
    return grpc.StatusCode.UNKNOWN


class Record(dict):
    """One page's record: attribute -> list of values (see the module doc)."""

    def __init__(self, values=(), url="", site="", status="", cluster_id="", rule_version=0, matched_by="",
                 missing_mandatory=(), records=(), error=None, response=None):
        super().__init__(values)
        self.url, self.site, self.status = url, site, status
        self.cluster_id, self.rule_version, self.matched_by = cluster_id, rule_version, matched_by
        self.missing_mandatory = list(missing_mandatory)
        self.records = list(records)
        self.error = error
        self.response = response

    def as_dict(self):
        """Everything but the raw response, as plain data (e.g. for json.dumps)."""
        return {"url": self.url, "site": self.site, "status": self.status, "cluster_id": self.cluster_id,
                "rule_version": self.rule_version, "matched_by": self.matched_by,
                "missing_mandatory": self.missing_mandatory, "attributes": dict(self), "records": self.records,
                "error": str(self.error) if self.error else None}

    def __repr__(self):
        return f"Record({dict(self)!r}, status={self.status!r}, cluster_id={self.cluster_id!r})"


def _attributes(attributes):
    return {a.attribute: list(a.values) for a in attributes}


def _record(response, url=""):
    r = response.record
    status = pb.extraction.ExtractedRecord.Status.Name(r.status)
    return Record(_attributes(r.attributes), url=r.url or url, site=r.site, status=status,
                  cluster_id=r.cluster_id, rule_version=r.rule_version, matched_by=r.matched_by,
                  missing_mandatory=r.missing_mandatory, records=[_attributes(x.attributes) for x in response.records],
                  response=response)


# One Learn call: what was learnt for a cluster.
Diagnostic = collections.namedtuple("Diagnostic", "attribute code learnt message pages")


class ClusterLearnt:
    """What one Learn call did for one cluster.

    ``cluster_id``; ``version`` (int, 0 when nothing was stored); ``state``
    ("NEEDS_MORE_PAGES", "DONE", "EXHAUSTED"); ``diagnostics``: attribute ->
    Diagnostic(attribute, code, learnt, message, pages) with code "learnt",
    "learnt_classifier", "ambiguous", "not_annotated", "value_not_found", ...
    (LearnResponse.diagnostics); ``refused``/``refused_reason`` (a version
    losing an attribute, see learn's allow_attribute_loss); ``next_pages``:
    the URLs to annotate next; ``response``: the raw LearnResponse.
    """

    def __init__(self, cluster_id, response):
        self.cluster_id = cluster_id
        self.response = response
        self.version = response.version
        self.state = pb.rule.LearnState.Name(response.state)
        self.diagnostics = {d.attribute: Diagnostic(d.attribute, d.code, d.learnt, d.message, list(d.pages))
                            for d in response.diagnostics}
        self.refused = response.refused
        self.refused_reason = response.refused_reason
        self.next_pages = [t.url for t in response.next]

    @property
    def learnt(self):
        """The attributes the stored rule has a rule for, in schema order."""
        return [a for a, d in self.diagnostics.items() if d.learnt]

    @property
    def not_learnt(self):
        """Attribute -> "code: message" for those annotated but not learnt."""
        return {a: f"{d.code}: {d.message}" for a, d in self.diagnostics.items()
                if not d.learnt and d.code != "not_annotated"}

    def __repr__(self):
        return (f"ClusterLearnt({self.cluster_id!r}, version={self.version}, state={self.state}, "
                f"learnt={self.learnt}, not_learnt={self.not_learnt})")


class LearnResult:
    """What Vertex.learn did.

    ``site``; ``clusters``: a ClusterLearnt per cluster an example page is
    in (in the examples' order); ``page_errors``: url -> why the server could
    not use that page; ``pages_added`` and ``sample_pages`` (the sample's
    size); ``created``: the site was registered by this call;
    ``ok``: every cluster stored a version and learnt every attribute the
    examples annotated.
    """

    def __init__(self, site, created, clusters, page_errors, pages_added, sample_pages):
        self.site, self.created, self.clusters = site, created, clusters
        self.page_errors, self.pages_added, self.sample_pages = page_errors, pages_added, sample_pages

    @property
    def ok(self):
        return bool(self.clusters) and all(c.version > 0 and not c.not_learnt for c in self.clusters)

    def __repr__(self):
        return (f"LearnResult(site={self.site!r}, clusters={self.clusters}, page_errors={self.page_errors}, "
                f"pages_added={self.pages_added}, sample_pages={self.sample_pages})")


ClusterVerdict = collections.namedtuple(
    "ClusterVerdict", "cluster_id verdict pages not_covered missing_mandatory reason evidence rule_version")


class MonitorResult:
    """A monitoring run: ``verdict`` ("OK", "CHANGED", "BROKEN", "UNREACHABLE",
    "NO_PAGES"), ``clusters``: cluster id -> ClusterVerdict(cluster_id,
    verdict, pages, not_covered, missing_mandatory, reason, evidence,
    rule_version); ``unrouted_pages``; ``recorded`` (stored in the site's
    history); ``response``: the raw MonitorResponse.
    """

    def __init__(self, response):
        name = pb.rule.ClusterVerdict.Verdict.Name
        self.response = response
        self.site = response.site
        self.verdict = name(response.verdict)
        self.clusters = {c.cluster_id: ClusterVerdict(c.cluster_id, name(c.verdict), c.pages, c.not_covered,
                                                      c.missing_mandatory, c.reason, list(c.evidence),
                                                      c.rule_version)
                         for c in response.clusters}
        self.unrouted_pages = response.unrouted_pages
        self.recorded = response.recorded

    def __repr__(self):
        return f"MonitorResult(site={self.site!r}, verdict={self.verdict}, clusters={list(self.clusters.values())})"


class _CallDetails(collections.namedtuple("_CallDetails", "method timeout metadata credentials wait_for_ready "
                                                          "compression"), grpc.ClientCallDetails):
    pass


class _BearerToken(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor,
                   grpc.StreamUnaryClientInterceptor, grpc.StreamStreamClientInterceptor):
    """Adds `authorization: Bearer TOKEN` to every call (the raw stubs' too)."""

    def __init__(self, token):
        self._header = ("authorization", f"Bearer {token}")

    def _details(self, d):
        metadata = list(d.metadata or []) + [self._header]
        return _CallDetails(d.method, d.timeout, metadata, d.credentials, d.wait_for_ready, d.compression)

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._details(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._details(details), request)

    def intercept_stream_unary(self, continuation, details, requests):
        return continuation(self._details(details), requests)

    def intercept_stream_stream(self, continuation, details, requests):
        return continuation(self._details(details), requests)


def _as_bytes(html, url):
    if isinstance(html, bytes):
        return html
    if isinstance(html, str):
        return html.encode("utf-8")
    raise TypeError(f"page {url!r}: html must be str or bytes, not {type(html).__name__}")


def _pairs(pages, what="pages"):
    """(url, html bytes) pairs of a {url: html} mapping or an iterable of pairs."""
    items = pages.items() if hasattr(pages, "items") else pages
    for item in items:
        try:
            url, html = item
        except (TypeError, ValueError):
            raise TypeError(f"{what}: expected (url, html) pairs or a {{url: html}} dict, got {item!r:.80}") from None
        if not isinstance(url, str) or not url:
            raise TypeError(f"{what}: a page's url must be a non-empty str, not {url!r:.80}")
        yield url, _as_bytes(html, url)


def _example_values(url, attribute, value):
    """The values of one example: a list of str, or None for "absent"."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value) or None
    raise TypeError(f"example {url!r}, attribute {attribute!r}: expected a str, a list of str or None, "
                    f"not {value!r:.80}")


def _normalize_examples(examples):
    out = {}
    items = examples.items() if hasattr(examples, "items") else examples
    for url, values in items:
        if not isinstance(url, str) or not url:
            raise TypeError(f"examples: a page's url must be a non-empty str, not {url!r:.80}")
        if not hasattr(values, "items") or not values:
            raise TypeError(f"example {url!r}: expected a non-empty {{attribute: value}} dict, not {values!r:.80}")
        out[url] = {a: _example_values(url, a, v) for a, v in values.items()}
    if not out:
        raise ValueError("examples: give at least one example page")
    return out


def infer_schema(examples, vertical):
    """The schema learn registers for a new site when none is given.

    One free-text attribute per attribute the examples name, in the order
    first named; multi-valued when an example gives it several values;
    mandatory when every example page gives it a value (a record without it
    is then PARTIAL, and the editor loop asks for pages where it is
    missing). Returns a pb.rule.Schema.
    """
    examples = _normalize_examples(examples)
    names = list(dict.fromkeys(a for values in examples.values() for a in values))
    schema = pb.rule.Schema(vertical=vertical)
    for name in names:
        given = [values.get(name) for values in examples.values()]
        schema.attributes.add(name=name, mandatory=all(v for v in given),
                              multi_valued=any(v and len(v) > 1 for v in given))
    return schema


def _schema_message(schema):
    if isinstance(schema, pb.rule.Schema):
        return schema
    if isinstance(schema, dict):
        return json_format.ParseDict(schema, pb.rule.Schema())
    if isinstance(schema, str):
        return json_format.Parse(schema, pb.rule.Schema())
    raise TypeError(f"schema: expected a pb.rule.Schema, a dict or JSON text (as deploy/schemas/*.json), "
                    f"not {type(schema).__name__}")


def _settings_message(settings):
    if settings is None or isinstance(settings, pb.rule.SiteSettings):
        return settings
    if isinstance(settings, dict):
        return json_format.ParseDict(settings, pb.rule.SiteSettings())
    raise TypeError(f"settings: expected a pb.rule.SiteSettings or a dict, not {type(settings).__name__}")


def _batches(pages, limit):
    """pb Page lists of at most `limit` bytes of html each (a larger page alone)."""
    batch, size = [], 0
    for url, html in pages:
        if batch and size + len(html) > limit:
            yield batch
            batch, size = [], 0
        batch.append(pb.learning.Page(url=url, html=html))
        size += len(html)
    if batch:
        yield batch


class Vertex:
    """A connection to a Vertex server (vertexd, or the three services behind one address).

    ``target`` is "HOST:PORT" (or any gRPC target, e.g. "unix:/path").
    ``token`` is sent as ``authorization: Bearer TOKEN`` with every call (the
    server requires it on write calls when started with --auth-token);
    None reads $VERTEX_AUTH_TOKEN, as vertexctl does; "" sends none.
    ``timeout`` is the deadline in seconds of each unary call (None: none);
    extract_many's stream has none. Plain-text channel (no TLS).

    The generated stubs are ``learning``, ``extraction`` and ``monitoring``
    (their calls carry the token too, and raise grpc.RpcError); the messages
    are in ``vertex_client.pb``. Use as a context manager or call close().
    """

    # Largest html bytes per AddSamplePages or MonitorStream message (the
    # server's limit is 64 MiB per message, vertexctl's batches 16 MiB).
    batch_bytes = 16 << 20

    def __init__(self, target, token=None, *, timeout=600.0, max_message_bytes=64 << 20):
        if token is None:
            token = os.environ.get(TOKEN_ENV, "")
        options = [("grpc.max_send_message_length", max_message_bytes),
                   ("grpc.max_receive_message_length", max_message_bytes)]
        self._channel = grpc.insecure_channel(target, options=options)
        channel = grpc.intercept_channel(self._channel, _BearerToken(token)) if token else self._channel
        self.target, self.timeout = target, timeout
        self.learning = _grpc_modules.learning.LearningServiceStub(channel)
        self.extraction = _grpc_modules.extraction.ExtractionServiceStub(channel)
        self.monitoring = _grpc_modules.monitoring.MonitoringServiceStub(channel)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, stub, method, request):
        try:
            return getattr(stub, method)(request, timeout=self.timeout)
        except grpc.RpcError as e:
            raise VertexError.from_rpc_error(method, e) from None

    # ---- learning -------------------------------------------------------

    def learn(self, site, pages, examples, *, schema=None, vertical=None, settings=None, replace=False,
              allow_attribute_loss=False):
        """Learns a site's rules from example pages, as `vertexctl learn --server` does.

        site: the site's id (1-200 bytes). pages: the site's sample pages,
        {url: html} or an iterable of (url, html) (html str or bytes); the
        more pages of each template the better the clustering. examples:
        {url: {attribute: value}} for a few of the pages (value: a str, a
        list of str for several values, or None when the page has no such
        value); every example URL must be one of `pages` or already in the
        site's sample.

        Steps: RegisterSite when `schema` is given (a pb.rule.Schema, a
        dict or JSON text as deploy/schemas/*.json; it replaces a registered
        site's schema) or the site is new (then infer_schema(examples,
        vertical or site)); a registered site given no schema keeps its
        own. AddSamplePages with the pages whose URLs the sample does not
        hold yet (a URL already held is not sent again), in messages of at
        most batch_bytes, then the server clusters the sample (also when
        `settings`, a pb.rule.SiteSettings or dict, are given). LocatePages
        puts each example page in its cluster, and one Learn per cluster
        learns its rule from its examples (with `replace`, forgetting that
        cluster's earlier annotations; a version that would lose an
        attribute is refused unless allow_attribute_loss). An example page
        no cluster covers goes to a Learn without cluster, which makes a new
        cluster of it.

        Returns a LearnResult. Raises VertexError for what the server
        refuses (the code and message of the failing call), including an
        example page the server could not use (INVALID_ARGUMENT) or a sample
        clustered into no cluster (FAILED_PRECONDITION); TypeError or
        ValueError for arguments of the wrong shape.
        """
        examples = _normalize_examples(examples)
        pages = dict(_pairs(pages))
        settings = _settings_message(settings)
        self._check_examples_known(site, [url for url in examples if url not in pages])
        created = self._register(site, schema, examples, vertical)
        added, sample_pages, page_errors = self._add_new_pages(site, pages, settings)
        clusters = []
        for cluster_id, annotations in self._group_by_cluster(site, examples, page_errors).items():
            request = pb.learning.LearnRequest(site=site, cluster_id=cluster_id, annotations=annotations,
                                               replace=replace, allow_attribute_loss=allow_attribute_loss)
            response = self._call(self.learning, "Learn", request)
            clusters.append(ClusterLearnt(cluster_id or response.created_cluster, response))
        return LearnResult(site, created, clusters, page_errors, added, sample_pages)

    def _check_examples_known(self, site, urls):
        """ValueError unless every URL is in the site's stored sample."""
        if not urls:
            return
        try:
            located = self.learning.LocatePages(pb.learning.LocatePagesRequest(site=site, urls=urls),
                                                timeout=self.timeout)
            unknown = [p.url for p in located.pages if p.how == "unknown"]
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.NOT_FOUND:
                raise VertexError.from_rpc_error("LocatePages", e) from None
            unknown = urls
        if unknown:
            raise ValueError(f"example page {unknown[0]} is neither among the pages given nor in site {site}'s sample"
                             + (f" ({len(unknown) - 1} more such pages)" if len(unknown) > 1 else ""))

    def _register(self, site, schema, examples, vertical):
        """Registers the site when a schema is given or it is new; True when created."""
        if schema is None:
            try:
                self.learning.ListRules(pb.learning.ListRulesRequest(site=site), timeout=self.timeout)
                return False  # registered: keeps its schema
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.NOT_FOUND:
                    raise VertexError.from_rpc_error("ListRules", e) from None
            schema = infer_schema(examples, vertical or site)
        request = pb.learning.RegisterSiteRequest(site=site, schema=_schema_message(schema))
        return self._call(self.learning, "RegisterSite", request).created

    def _add_new_pages(self, site, pages, settings):
        """Sends the pages the sample lacks; (pages added, sample size, {url: error})."""
        known = self._call(self.learning, "LocatePages", pb.learning.LocatePagesRequest(site=site))
        held = {p.url for p in known.pages}
        fresh = [(url, html) for url, html in pages.items() if url not in held]
        if not fresh and known.clustered and settings is None:
            return 0, len(held), {}
        batches = list(_batches(fresh, self.batch_bytes)) or [[]]
        added, errors = 0, {}
        for i, batch in enumerate(batches):
            last = i == len(batches) - 1
            request = pb.learning.AddSamplePagesRequest(site=site, pages=batch, defer_clustering=not last)
            if last and settings is not None:
                request.settings.CopyFrom(settings)
            response = self._call(self.learning, "AddSamplePages", request)
            added += response.pages_added
            errors.update((e.url, e.error) for e in response.errors)
        if response.clustered and not response.clusters:
            raise VertexError(grpc.StatusCode.FAILED_PRECONDITION,
                              f"site {site}: its sample of {response.sample_pages} pages clustered into no "
                              f"cluster (every page pruned at threshold {response.prune_threshold}): give more "
                              "pages of each template or a lower settings prune_threshold", "AddSamplePages")
        return added, response.sample_pages, errors

    def _group_by_cluster(self, site, examples, page_errors):
        """Cluster id ("" for unassigned) -> the examples' annotations, in the examples' order."""
        request = pb.learning.LocatePagesRequest(site=site, urls=list(examples))
        located = {p.url: p for p in self._call(self.learning, "LocatePages", request).pages}
        groups = {}
        for url, values in examples.items():
            if url in page_errors:
                raise VertexError(grpc.StatusCode.INVALID_ARGUMENT,
                                  f"example page {url} could not be used: {page_errors[url]}", "AddSamplePages")
            where = located.get(url)
            if where is None or where.how == "unknown":
                raise ValueError(f"example page {url} is neither among the pages given nor in site {site}'s sample")
            annotations = groups.setdefault(where.cluster_id, [])
            for attribute, given in values.items():
                a = pb.rule.Annotation(url=url, attribute=attribute)
                if given is None:
                    a.absent = True
                elif len(given) == 1:
                    a.value = given[0]
                else:
                    a.values.extend(given)
                annotations.append(a)
        return groups

    # ---- extraction -----------------------------------------------------

    def extract(self, url, html, *, site="", content_type=""):
        """The record of one page (see Record): ExtractionService.Extract.

        site: the site whose rules apply ("": every site whose URL regexes
        match). A page no rule matches is not an error: its status says
        NO_URL_MATCH or NO_SHINGLE_MATCH. Raises VertexError: INVALID_ARGUMENT
        for an empty url or html or a page that cannot be parsed,
        RESOURCE_EXHAUSTED for a page over the server's limits, NOT_FOUND
        for an unknown site, FAILED_PRECONDITION for a site without rule.
        """
        if not isinstance(url, str):
            raise TypeError(f"url must be a str, not {type(url).__name__}")
        request = pb.extraction.ExtractRequest(site=site or "", url=url, html=_as_bytes(html, url),
                                               content_type=content_type or "")
        return _record(self._call(self.extraction, "Extract", request), url)

    def extract_many(self, pages, *, site="", max_in_flight=32, raise_errors=False):
        """Records of many pages over one ExtractStream, in the pages' order.

        pages: {url: html} or any iterable of (url, html), read lazily: at
        most `max_in_flight` pages are sent and not yet answered, so a
        generator of millions of pages is streamed in bounded memory. Each
        record equals what extract() returns for the page. A page the
        server cannot extract does not end the stream: its record has status
        "ERROR", no attributes and `error` the VertexError extract() would
        raise (or, with raise_errors, that error is raised). Raises
        VertexError when the stream itself fails; TypeError for a malformed
        item of `pages` (raised where the iterator reaches it). Closing the
        iterator early cancels the stream.
        """
        if not isinstance(max_in_flight, int) or max_in_flight < 1:
            raise ValueError(f"max_in_flight must be an int of at least 1, not {max_in_flight!r}")
        return self._extract_stream(pages, site or "", max_in_flight, raise_errors)

    def _extract_stream(self, pages, site, max_in_flight, raise_errors):
        slots = threading.Semaphore(max_in_flight)
        stop = threading.Event()
        urls = collections.deque()
        failure = []  # an exception raised while reading `pages`

        def requests():
            try:
                for i, (url, html) in enumerate(_pairs(pages)):
                    while not slots.acquire(timeout=0.05):
                        if stop.is_set():
                            return
                    if stop.is_set():
                        return
                    urls.append(url)
                    yield pb.extraction.ExtractRequest(site=site, url=url, html=html, id=str(i))
            except Exception as e:  # reported to the reader below
                failure.append(e)

        call = self.extraction.ExtractStream(requests())
        try:
            for response in call:
                slots.release()
                url = urls.popleft() if urls else ""
                if response.error_code:
                    error = VertexError(_code_of(response.error_code), response.error, "ExtractStream")
                    if raise_errors:
                        raise error
                    yield Record(url=url, status=_ERROR_STATUS, error=error, response=response)
                else:
                    yield _record(response, url)
        except grpc.RpcError as e:
            if failure:
                raise failure[0] from None
            raise VertexError.from_rpc_error("ExtractStream", e) from None
        finally:
            stop.set()
            call.cancel()
        if failure:
            raise failure[0]

    # ---- monitoring -----------------------------------------------------

    def monitor(self, site, pages=None, *, threshold=0.0, clusters=(), dry_run=False):
        """Tests whether the site's templates changed since its rules were learnt.

        pages: fresh versions of the site's pages, {url: html} or (url,
        html) pairs; None: the server fetches the bellwether pages itself.
        threshold: a cluster is CHANGED (BROKEN) when more than this share
        of its pages fail the shingle (field) test; 0: the server's 0.2.
        clusters: only these cluster ids. dry_run: not stored in the
        site's history. Pages over batch_bytes go over MonitorStream (one
        run all the same). Returns a MonitorResult. Raises VertexError:
        NOT_FOUND for an unknown site, FAILED_PRECONDITION for a site
        without rule, INVALID_ARGUMENT for a page without url or html or a
        threshold outside [0, 1].
        """
        head = pb.monitoring.MonitorRequest(site=site, threshold=threshold, cluster_ids=list(clusters),
                                            dry_run=dry_run)
        batches = list(_batches(_pairs(pages), self.batch_bytes)) if pages is not None else []
        if len(batches) <= 1:
            if batches:
                head.pages.extend(batches[0])
            return MonitorResult(self._call(self.monitoring, "Monitor", head))

        def requests():
            # The first message carries the run's fields, every one pages.
            for i, batch in enumerate(batches):
                request = pb.monitoring.MonitorRequest()
                if i == 0:
                    request.CopyFrom(head)
                request.pages.extend(batch)
                yield request

        try:
            return MonitorResult(self.monitoring.MonitorStream(requests(), timeout=self.timeout))
        except grpc.RpcError as e:
            raise VertexError.from_rpc_error("MonitorStream", e) from None
