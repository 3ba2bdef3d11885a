# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""Gabbi fixtures: start the API (tests.fixtures.api) around a YAML file.

``for_backend(name)`` gives the fixture classes YAML files name (APIFixture,
KeystoneFixture) bound to one database backend; ``application`` is the
intercept gabbi calls into, forwarding to the app of the running fixture;
``build_tests`` makes the contract suite of gabbits/ on one backend.
"""

import os
import types

from gabbi import driver
from gabbi import fixture

from tests.fixtures import api as api_fixture

_current = {}


def application():
    """The WSGI app for gabbi's intercept (built before the fixtures run,
    so it forwards to whichever API the current fixture started).
    """
    def app(environ, start_response):
        # NOTE: httpx's WSGI transport (gabbi's intercept) passes the path
        # decoded as UTF-8; a server passes its bytes as latin-1 (PEP 3333).
        environ['PATH_INFO'] = environ['PATH_INFO'].encode(
            'utf-8').decode('latin-1')
        return _current['app'](environ, start_response)
    return app


class _Fixture(fixture.GabbiFixture):
    auth_strategy = 'noauth2'
    backend = 'sqlite'

    def start_fixture(self):
        self.api = api_fixture.APIFixture(self.auth_strategy, self.backend)
        self.api.setUp()
        _current['app'] = self.api.app

    def stop_fixture(self):
        _current.pop('app', None)
        self.api.cleanUp()


def for_backend(backend):
    """A module-like namespace of the fixture classes for ``backend``."""
    attributes = {'auth_strategy': None, 'backend': backend}
    return types.SimpleNamespace(
        APIFixture=type('APIFixture', (_Fixture,),
                        dict(attributes, auth_strategy='noauth2')),
        KeystoneFixture=type('KeystoneFixture', (_Fixture,),
                             dict(attributes, auth_strategy='keystone')))


GABBITS = os.path.join(os.path.dirname(__file__), 'gabbits')


def build_tests(loader, backend, module_name):
    """The suite of the YAML files of gabbits/ on ``backend``; test ids are
    ``<module_name>.<backend>.<file>_<test>``, so .stestr.conf's
    group_regex keeps each file on one worker.
    """
    return driver.build_tests(
        GABBITS, loader, intercept=application,
        fixture_module=for_backend(backend),
        test_loader_name='%s.%s' % (module_name, backend))
