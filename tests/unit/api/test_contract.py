"""The REST API contract suite (the gabbi YAML files of
tests/functional/api/gabbits) on SQLite in memory: no service needed. The
functional run has the same files on MariaDB (tests/functional/api/test_api).
"""

from tests.functional.api import fixtures


def load_tests(loader, tests, pattern):
    """Build the suite from the YAML files."""
    tests.addTests(fixtures.build_tests(loader, 'sqlite', __name__))
    return tests
