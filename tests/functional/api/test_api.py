"""Load the gabbi YAML files of gabbits/ once per database backend.

SQLite (in memory) and MariaDB (a throwaway database) run the same files;
test ids are ``tests.functional.api.test_api.<backend>.<file>_<test>``, so
.stestr.conf's group_regex keeps each file on one worker.
"""

import os

from gabbi import driver

from tests.functional.api import fixtures

GABBITS = os.path.join(os.path.dirname(__file__), 'gabbits')
BACKENDS = ('sqlite', 'mysql')


def load_tests(loader, tests, pattern):
    """Build one suite per backend from the YAML files."""
    for backend in BACKENDS:
        tests.addTests(driver.build_tests(
            GABBITS, loader, intercept=fixtures.application,
            fixture_module=fixtures.for_backend(backend),
            test_loader_name='%s.%s' % (__name__, backend)))
    return tests
