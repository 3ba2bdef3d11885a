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

"""Test case for the DB API: configuration plus an empty SQLite database."""

import datetime
import logging

import fixtures
from oslo_utils import uuidutils
import testtools

from masakari import context
from masakari.db import api as db
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database


class DbTestCase(testtools.TestCase):
    """Each test gets a fresh in-memory database with the schema of
    ``SCHEMA`` (models by default) and an admin context in ``self.ctx``.
    """

    SCHEMA = database.SCHEMA_FROM_MODELS
    # The functional tests rerun these cases with database.MySQLDatabase.
    DATABASE = database.Database

    def setUp(self):
        super().setUp()
        # NOTE: logs are kept per test (and shown when it fails).
        self.logs = self.useFixture(fixtures.FakeLogger(
            level=logging.INFO, format='%(levelname)s %(message)s'))
        self.conf_fixture = self.useFixture(conf_fixture.ConfFixture())
        self.database = self.useFixture(self.DATABASE(schema=self.SCHEMA))
        self.ctx = context.get_admin_context()

    def create_segment(self, **values):
        values = dict({'uuid': uuidutils.generate_uuid(),
                       'name': 'segment-%s' % uuidutils.generate_uuid()[:8],
                       'service_type': 'COMPUTE',
                       'recovery_method': 'auto',
                       'description': 'a segment'}, **values)
        return db.failover_segment_create(self.ctx, values)

    def create_host(self, segment, **values):
        values = dict({'uuid': uuidutils.generate_uuid(),
                       'name': 'host-%s' % uuidutils.generate_uuid()[:8],
                       'type': 'COMPUTE',
                       'control_attributes': 'SSH',
                       'failover_segment_id': segment.uuid}, **values)
        return db.host_create(self.ctx, values)

    def create_notification(self, **values):
        values = dict({'notification_uuid': uuidutils.generate_uuid(),
                       'generated_time': datetime.datetime(2026, 1, 1, 10),
                       'source_host_uuid': uuidutils.generate_uuid(),
                       'type': 'COMPUTE_HOST',
                       'payload': '{"event": "STOPPED"}',
                       'status': 'new'}, **values)
        return db.notification_create(self.ctx, values)

    def create_vmove(self, notification_uuid, **values):
        values = dict({'uuid': uuidutils.generate_uuid(),
                       'notification_uuid': notification_uuid,
                       'instance_uuid': uuidutils.generate_uuid(),
                       'instance_name': 'vm',
                       'type': 'evacuation',
                       'status': 'pending'}, **values)
        return db.vmove_create(self.ctx, values)
