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

"""ObjectTestCase: objects on in-memory SQLite, without a notifier.

Objects send no versioned notification; what their writes publish is
tested with the layer that announces them (tests/unit/notifications).
"""

import datetime

from oslotest import base as test_base

import masakari.conf
from masakari import context
from masakari import objects
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database as database_fixture

CONF = masakari.conf.CONF
objects.register_all()

SEGMENT_UUID = 'f9703c93-8acc-4d9f-b44b-0bc97e581222'
HOST_UUID = '907be468-9eb1-44a8-9360-b07152519417'
NOTIFICATION_UUID = '7882ccb9-ebb1-43b3-848b-f2333ae4b79c'


class ObjectTestCase(test_base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(conf_fixture.ConfFixture(CONF))
        self.useFixture(database_fixture.Database(CONF))
        self.ctxt = context.RequestContext(user_id='u1', project_id='p1',
                                           is_admin=True)

    def create_segment(self, **values):
        fields = {'name': 'seg1', 'service_type': 'compute',
                  'description': None, 'recovery_method': 'auto',
                  'enabled': True}
        fields.update(values)
        segment = objects.FailoverSegment(self.ctxt, **fields)
        segment.create()
        return segment

    def create_host(self, segment, **values):
        fields = {'name': 'h1', 'type': 'COMPUTE',
                  'control_attributes': 'SSH', 'reserved': False,
                  'on_maintenance': False, 'failover_segment': segment}
        fields.update(values)
        host = objects.Host(self.ctxt, **fields)
        host.create()
        return host

    def new_notification(self, **values):
        """A PROCESS notification, not yet created."""
        fields = {'type': 'PROCESS', 'status': 'new',
                  'generated_time': datetime.datetime(2026, 10, 28, 10),
                  'source_host_uuid': HOST_UUID,
                  'payload': {'event': 'STOPPED',
                              'process_name': 'nova-compute'},
                  'failover_segment_uuid': SEGMENT_UUID}
        fields.update(values)
        return objects.Notification(self.ctxt, **fields)

    def create_notification(self, **values):
        notification = self.new_notification(**values)
        notification.create()
        return notification
