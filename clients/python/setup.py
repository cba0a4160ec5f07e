"""Builds the vertex-client package: build_py also generates the gRPC stubs.

The stubs come from the repository's proto/ (or $VERTEX_PROTO_DIR) through
vertex_client/codegen.py, loaded from its file: the package itself needs
grpcio, which the build does not.
"""

import importlib.util
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _codegen():
    path = os.path.join(HERE, "vertex_client", "codegen.py")
    spec = importlib.util.spec_from_file_location("_vertex_client_codegen", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithStubs(build_py):
    """build_py, then the stubs written into the built package (never the source tree)."""

    def run(self):
        super().run()
        if not self.dry_run:
            codegen = _codegen()
            try:
                codegen.generate(os.path.join(self.build_lib, "vertex_client"), codegen.default_proto_dir())
            except codegen.CodegenError as e:
                raise SystemExit(f"vertex-client: cannot generate the gRPC stubs: {e}") from None


setup(cmdclass={"build_py": BuildPyWithStubs})
