"""Python client of Vertex (vertexd, or the learning, extraction and monitoring services).

Three lines learn a site from a few example pages and extract the others::

    from vertex_client import Vertex
    v = Vertex("127.0.0.1:7070")
    v.learn("shop", pages, {url: {"title": "Blue Kettle", "price": "$12.99"}})
    record = v.extract(other_url, other_html)   # {"title": ["..."], "price": ["..."]}

``pages`` are the site's sample pages ({url: html}); the examples say, for a
few of them, what each attribute's value is. Everything is done over gRPC
(proto/vertex/v1/*.proto); the generated stubs and messages are reachable
for the rest (``Vertex.learning``, ``Vertex.extraction``,
``Vertex.monitoring``; ``vertex_client.pb``).

Names exported: Vertex, VertexError, Record, LearnResult, ClusterLearnt,
MonitorResult, pb (the generated message modules). Importing them needs
Debian's python3-grpcio and python3-protobuf; the stubs are generated on
first import from a checkout when missing (vertex_client.codegen).
"""

_EXPORTS = ("Vertex", "VertexError", "Record", "LearnResult", "ClusterLearnt", "MonitorResult", "pb")
__all__ = list(_EXPORTS)


def __getattr__(name):
    # Lazy, so `python3 -m vertex_client.codegen` works before the stubs
    # (and without grpcio).
    if name in _EXPORTS:
        from vertex_client import client
        return getattr(client, name)
    raise AttributeError(f"module 'vertex_client' has no attribute {name!r}")
