"""Generates the client's gRPC stubs from the repository's proto/ files.

The stubs (``vertex_client/_gen/vertex/v1/*_pb2.py`` and ``*_pb2_grpc.py``)
are never hand-edited nor committed: they are made by Debian's ``protoc``
(package protobuf-compiler) and ``grpc_python_plugin`` (package
protobuf-compiler-grpc), so they always match the Python protobuf and grpcio
runtimes Debian ships with those compilers (python3-protobuf,
python3-grpcio). This module uses the standard library only: ``setup.py``
runs it before the package's dependencies may be importable.

Three callers:
  * ``pip install ./clients/python`` (setup.py's build step),
  * ``python3 -m vertex_client.codegen`` from a checkout (stubs written
    into the checkout's package, where ``import vertex_client`` finds them;
    ``import vertex_client`` also runs it once when they are missing),
  * the CMake target ``python_client`` for the tests (stubs written beside
    a copy of the package in the build tree).

The generated modules import each other as ``vertex.v1.x_pb2`` (the
package path of the .proto files); those imports are rewritten to relative
ones so the stubs live inside ``vertex_client._gen`` and install no
top-level ``vertex`` package.

Environment: ``VERTEX_PROTO_DIR`` (the directory holding vertex/v1/*.proto;
default: the checkout's proto/ two levels above this package),
``VERTEX_PROTOC`` (default: protoc on PATH) and
``VERTEX_GRPC_PYTHON_PLUGIN`` (default: grpc_python_plugin on PATH, else
/usr/bin/grpc_python_plugin).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# The stubs' package inside vertex_client, and the proto package path.
GEN_DIR_NAME = "_gen"
PROTO_PACKAGE = ("vertex", "v1")


class CodegenError(Exception):
    """The stubs could not be generated; the message says what to install or set."""


def default_proto_dir():
    """The proto/ directory: $VERTEX_PROTO_DIR, else the checkout's."""
    env = os.environ.get("VERTEX_PROTO_DIR")
    if env:
        return env
    return os.path.normpath(os.path.join(PACKAGE_DIR, "..", "..", "..", "proto"))


def _find_tool(env, name, fallback, package):
    given = os.environ.get(env)
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            raise CodegenError(f"${env}={given} is not an executable file")
        return given
    path = shutil.which(name) or (fallback if fallback and os.access(fallback, os.X_OK) else None)
    if not path:
        raise CodegenError(
            f"{name} not found on PATH: install Debian's {package} (apt-get install {package}) or set ${env}")
    return path


def proto_files(proto_dir):
    """The .proto files of the vertex.v1 package under proto_dir, sorted."""
    source = os.path.join(proto_dir, *PROTO_PACKAGE)
    if not os.path.isdir(source):
        raise CodegenError(
            f"no {'/'.join(PROTO_PACKAGE)}/ under {proto_dir}: set $VERTEX_PROTO_DIR to the "
            "repository's proto/ directory")
    files = sorted(f for f in os.listdir(source) if f.endswith(".proto"))
    if not files:
        raise CodegenError(f"no .proto file in {source}")
    return [os.path.join(source, f) for f in files]


_ABSOLUTE_IMPORT = re.compile(r"^from vertex\.v1 import ", re.MULTILINE)


def _make_relative(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(_ABSOLUTE_IMPORT.sub("from . import ", text))


def _run_protoc(proto_dir, out_dir):
    protoc = _find_tool("VERTEX_PROTOC", "protoc", None, "protobuf-compiler")
    plugin = _find_tool("VERTEX_GRPC_PYTHON_PLUGIN", "grpc_python_plugin", "/usr/bin/grpc_python_plugin",
                        "protobuf-compiler-grpc")
    command = [protoc, f"-I{proto_dir}", f"--python_out={out_dir}",
               f"--plugin=protoc-gen-grpc_python={plugin}", f"--grpc_python_out={out_dir}"]
    command += proto_files(proto_dir)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise CodegenError(f"{' '.join(command)} failed (exit {result.returncode}): {result.stderr.strip()}")


def generate(package_dir=PACKAGE_DIR, proto_dir=None):
    """Writes the stubs into package_dir/_gen, replacing any earlier ones.

    package_dir is a vertex_client package directory (this one by default);
    proto_dir the directory holding vertex/v1/*.proto (default_proto_dir()).
    The new stubs replace the old at once (a rename), so a concurrent
    importer sees the old set or the new one. Returns the stubs' directory.
    Raises CodegenError when protoc or the plugin is missing or fails.
    """
    proto_dir = os.path.abspath(proto_dir or default_proto_dir())
    target = os.path.join(package_dir, GEN_DIR_NAME)
    staging = tempfile.mkdtemp(prefix=".gen-", dir=package_dir)
    try:
        _run_protoc(proto_dir, staging)
        inner = os.path.join(staging, *PROTO_PACKAGE)
        for d in (staging, os.path.join(staging, PROTO_PACKAGE[0]), inner):
            with open(os.path.join(d, "__init__.py"), "w", encoding="utf-8") as f:
                f.write("# Generated by vertex_client.codegen from proto/: do not edit.\n")
        for name in os.listdir(inner):
            if name.endswith(".py"):
                _make_relative(os.path.join(inner, name))
        old = None
        if os.path.exists(target):
            old = tempfile.mkdtemp(prefix=".old-", dir=package_dir)
            os.rename(target, os.path.join(old, GEN_DIR_NAME))
        os.rename(staging, target)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging, ignore_errors=True)
    return target


def stubs_present(package_dir=PACKAGE_DIR):
    """Whether package_dir/_gen holds the generated service stubs."""
    inner = os.path.join(package_dir, GEN_DIR_NAME, *PROTO_PACKAGE)
    return all(os.path.exists(os.path.join(inner, f"{name}_pb2_grpc.py"))
               for name in ("learning", "extraction", "monitoring"))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m vertex_client.codegen",
        description="Generates vertex_client's gRPC stubs from proto/ with protoc and grpc_python_plugin.")
    parser.add_argument("--proto-dir", default=None,
                        help="the directory holding vertex/v1/*.proto (default: $VERTEX_PROTO_DIR, else the "
                             "checkout's proto/)")
    parser.add_argument("--package-dir", default=PACKAGE_DIR,
                        help="the vertex_client package directory to write _gen/ into (default: this one)")
    args = parser.parse_args(argv)
    try:
        out = generate(args.package_dir, args.proto_dir)
    except CodegenError as e:
        print(f"vertex_client.codegen: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
