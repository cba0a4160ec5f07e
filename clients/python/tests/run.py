"""Runs one of the Python client's test modules (ctest: python_client_*).

Usage: python3 run.py MODULE (test_client or test_install). Exits 0 when
every test passed, 1 when one failed, 77 (ctest's SKIP_RETURN_CODE) when
Debian's python3-grpcio or python3-protobuf is missing, or every test of
the module skipped, with the reason on stderr. The package under test is
$VERTEX_PYTHON_CLIENT_DIR (the build tree's copy with generated stubs).
"""

import os
import sys
import unittest

SKIP = 77


def main():
    try:
        import google.protobuf  # noqa: F401
        import grpc  # noqa: F401
    except ImportError as e:
        print(f"SKIPPED: the Python client needs Debian's python3-grpcio and python3-protobuf ({e})",
              file=sys.stderr)
        return SKIP
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.environ.get("VERTEX_PYTHON_CLIENT_DIR", os.path.dirname(here)), here]
    suite = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    if result.testsRun and len(result.skipped) == result.testsRun:
        print("SKIPPED: every test skipped: " + "; ".join(sorted({r for _, r in result.skipped})), file=sys.stderr)
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
