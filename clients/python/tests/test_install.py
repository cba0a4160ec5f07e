"""Installing and generating the Python client (ctest: python_client_install_test).

`pip install ./clients/python` into a `python3 -m venv --system-site-packages`
(offline: --no-build-isolation --no-deps; grpcio and protobuf are Debian's),
then the installed package used against a vertexd; the codegen entry point,
the stubs generated on first import from a checkout, and the error when
protoc is missing. Each test works on a copy of clients/python and proto/ in
a temporary directory laid out as the repository is, so the checkout stays
free of generated files.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import unittest

import harness

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
CLIENT_DIR = os.path.join(harness.SOURCE_DIR, "clients", "python")
TOKEN = "py-install-test-token"
_IGNORED = shutil.ignore_patterns("_gen", "build", "*.egg-info", "__pycache__", ".gen-*", ".old-*")


def checkout_copy(root):
    """clients/python and proto/ copied under root, as in the repository."""
    shutil.copytree(CLIENT_DIR, os.path.join(root, "clients", "python"), ignore=_IGNORED)
    shutil.copytree(os.path.join(harness.SOURCE_DIR, "proto"), os.path.join(root, "proto"))
    return os.path.join(root, "clients", "python")


def run(command, cwd=None, env=None, check=True):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def with_path(directory, **extra):
    """The environment with `directory` first on PYTHONPATH (the rest kept)."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [directory, os.environ.get("PYTHONPATH")]))
    env.pop("VERTEX_PROTO_DIR", None)
    return env


def venv_available():
    probe = run([PYTHON, "-c", "import ensurepip, venv"], check=False)
    return probe.returncode == 0


# Run by the venv's python: learn a small demo site and extract a page.
_USE_INSTALLED = textwrap.dedent("""
    import json, sys, vertex_client
    from vertex_client import Vertex
    address, token, pages_file = sys.argv[1:4]
    with open(pages_file) as f:
        given = json.load(f)
    v = Vertex(address, token=token)
    result = v.learn("installed", given["pages"], given["examples"])
    record = v.extract(given["url"], given["html"])
    print(json.dumps({"module": vertex_client.__file__, "ok": result.ok,
                      "record": record.as_dict()}))
""")


class PipInstallTest(unittest.TestCase):
    @unittest.skipUnless(venv_available(), "python3 -m venv needs Debian's python3-venv")
    def test_pip_install_into_a_venv_then_use_it(self):
        work = harness.temp_dir(self.addCleanup, "py_client_pip_")
        checkout_copy(os.path.join(work, "src"))
        venv = os.path.join(work, "venv")
        run([PYTHON, "-m", "venv", "--system-site-packages", venv])
        python = os.path.join(venv, "bin", "python")
        run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
             "./clients/python"], cwd=os.path.join(work, "src"))
        # Installed with its stubs; the package imported is the venv's.
        shown = run([python, "-m", "pip", "show", "-f", "vertex-client"]).stdout
        self.assertIn("vertex_client/_gen/vertex/v1/learning_pb2_grpc.py", shown)
        self.assertIn("vertex_client/_gen/vertex/v1/extraction_pb2.py", shown)

        site = harness.DemoSite(os.path.join(work, "demo"), "--products", "20", "--categories", "5",
                                "--reviews", "5", "--stores", "5")
        i, j, k = sorted(site.truth)[:3]
        given = {"pages": {u: h.decode("utf-8") for u, h in site.pages.items()},
                 "examples": {site.url_of[n]: {"title": site.truth[n]["title"][0]} for n in (i, j)},
                 "url": site.url_of[k], "html": site.pages[site.url_of[k]].decode("utf-8")}
        pages_file = os.path.join(work, "given.json")
        with open(pages_file, "w") as f:
            json.dump(given, f)
        server = harness.Vertexd(harness.temp_dir(self.addCleanup, "py_client_pip_server_"), TOKEN)
        self.addCleanup(server.stop)
        env = dict(os.environ)
        env.pop("VERTEX_PYTHON_CLIENT_DIR", None)
        out = json.loads(run([python, "-c", _USE_INSTALLED, server.address, TOKEN, pages_file], cwd=work,
                             env=env).stdout)
        self.assertTrue(out["module"].startswith(os.path.join(venv, "lib")), out["module"])
        self.assertTrue(out["ok"], out)
        self.assertEqual(out["record"]["status"], "OK", out)
        self.assertEqual(out["record"]["attributes"]["title"], site.truth[k]["title"], out)


class CodegenTest(unittest.TestCase):
    def test_the_codegen_entry_point_writes_the_stubs(self):
        package = checkout_copy(harness.temp_dir(self.addCleanup, "py_client_codegen_"))
        result = run([PYTHON, "-m", "vertex_client.codegen"], cwd=package, env=with_path(package))
        gen = os.path.join(package, "vertex_client", "_gen", "vertex", "v1")
        self.assertIn(os.path.join(package, "vertex_client", "_gen"), result.stdout)
        for name in ("rule", "learning", "extraction", "monitoring", "list_model"):
            self.assertTrue(os.path.exists(os.path.join(gen, f"{name}_pb2.py")), name)
        for name in ("learning", "extraction", "monitoring"):
            self.assertTrue(os.path.exists(os.path.join(gen, f"{name}_pb2_grpc.py")), name)
        # Imports between the stubs are relative: no top-level `vertex` package.
        with open(os.path.join(gen, "learning_pb2.py")) as f:
            text = f.read()
        self.assertIn("from . import rule_pb2", text)
        self.assertNotIn("from vertex.v1", text)
        # Run again: replaced whole, still importable.
        run([PYTHON, "-m", "vertex_client.codegen"], cwd=package, env=with_path(package))
        probe = "from vertex_client import pb; print(pb.learning.LearnRequest(site='s').site)"
        self.assertEqual(run([PYTHON, "-c", probe], cwd="/", env=with_path(package)).stdout.strip(), "s")

    def test_the_first_import_from_a_checkout_generates_missing_stubs(self):
        package = checkout_copy(harness.temp_dir(self.addCleanup, "py_client_first_import_"))
        self.assertFalse(os.path.exists(os.path.join(package, "vertex_client", "_gen")))
        probe = "from vertex_client import Vertex, pb; print(pb.extraction.ExtractRequest.DESCRIPTOR.full_name)"
        out = run([PYTHON, "-c", probe], cwd="/", env=with_path(package)).stdout.strip()
        self.assertEqual(out, "vertex.v1.ExtractRequest")
        self.assertTrue(os.path.exists(os.path.join(package, "vertex_client", "_gen", "vertex", "v1",
                                                    "extraction_pb2_grpc.py")))

    def test_without_protoc_the_error_says_what_to_install(self):
        package = checkout_copy(harness.temp_dir(self.addCleanup, "py_client_no_protoc_"))
        env = with_path(package, PATH=os.path.join(package, "no-such-bin"))
        env.pop("VERTEX_PROTOC", None)
        result = run([PYTHON, "-c", "from vertex_client import Vertex"], cwd="/", env=env, check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("ImportError", result.stderr)
        self.assertIn("protoc not found on PATH: install Debian's protobuf-compiler", result.stderr)
        self.assertIn("python3 -m vertex_client.codegen", result.stderr)
        result = run([PYTHON, "-m", "vertex_client.codegen"], cwd=package, env=env, check=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn("protoc not found on PATH", result.stderr)
        env["VERTEX_PROTOC"] = os.path.join(package, "no-such-protoc")
        result = run([PYTHON, "-m", "vertex_client.codegen"], cwd=package, env=env, check=False)
        self.assertIn("no-such-protoc is not an executable file", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(package, "vertex_client", "_gen")))

    def test_a_proto_dir_without_the_protos_is_named(self):
        package = checkout_copy(harness.temp_dir(self.addCleanup, "py_client_no_proto_"))
        empty = harness.temp_dir(self.addCleanup, "py_client_empty_")
        result = run([PYTHON, "-m", "vertex_client.codegen", "--proto-dir", empty], cwd=package,
                     env=with_path(package), check=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"no vertex/v1/ under {empty}", result.stderr)


if __name__ == "__main__":
    unittest.main()
