"""The REST API contract suite (the gabbi YAML files of gabbits/) on
MariaDB, a throwaway database; the unit run has the same files on SQLite
(tests/unit/api/test_contract.py).
"""

from tests.functional.api import fixtures


def load_tests(loader, tests, pattern):
    """Build the suite from the YAML files."""
    tests.addTests(fixtures.build_tests(loader, 'mysql', __name__))
    return tests
