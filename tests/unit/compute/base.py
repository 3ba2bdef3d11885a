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

"""Configuration, a simulated cloud and a request context for the tests."""

import testtools

from masakari.compute import nova
from masakari import context
from tests.fixtures import conf as conf_fixture
from tests.fixtures import nova as nova_fixture

HOSTS = ['compute-1', 'compute-2', {'name': 'reserved-1',
                                    'status': 'disabled'}]


class WrapperTestCase(testtools.TestCase):
    """``self.api`` talks to ``self.cloud`` (a NovaFixture)."""

    def topology(self):
        return {'hosts': HOSTS,
                'servers': [{'name': 'vm', 'count': 3, 'host': 'compute-1',
                             'metadata': {'HA_Enabled': 'True'}}],
                'aggregates': [{'name': 'rack-a',
                                'hosts': ['compute-1', 'compute-2']}],
                'delays': {'evacuate': 0, 'stop': 0, 'start': 0}}

    def setUp(self):
        super().setUp()
        self.conf = self.useFixture(conf_fixture.ConfFixture())
        self.cloud = self.useFixture(nova_fixture.NovaFixture(
            self.topology()))
        self.api = nova.API()
        self.context = context.RequestContext(
            user_id='u', project_id='p', is_admin=True,
            global_request_id='req-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee')

    def nova_calls(self):
        return [(call['method'], call['path'], call['query'], call['body'])
                for call in self.cloud.calls('nova')]
