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

"""Where the ``fault`` of a versioned error notification says an error of
the database layer was raised: the values Masakari 22.0.0 sends.

22.0.0 names its database module ``masakari.db.sqlalchemy.api`` and the
operation (``host_create`` ...), or the private row reader
(``_host_get_by_uuid`` ...) when a not-found comes from reading the row.
"""

import traceback

import testtools

from masakari import context
from masakari.db import api as db
from masakari import exception
from masakari.notifications.objects import exception as exception_obj
from tests.fixtures import api as api_fixture
from tests.fixtures import conf as conf_fixture
from tests.fixtures import database as database_fixture

DB_MODULE = 'masakari.db.sqlalchemy.api'
MISSING = 'c2a8f0a4-51a8-4a51-8a64-3c4c16f7e2b1'


def fault_of(event):
    return event['payload']['masakari_object.data']['fault'][
        'masakari_object.data']


class TestApiErrors(testtools.TestCase):
    """The five error notifications of a CRUD run, through the real
    pipeline and notifier.
    """

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(api_fixture.APIFixture())
        self.segment, self.host = self.api.create_segment_and_host()
        self.api.create_segment_and_host('compute-2')
        self.api.rpc.clear()

    def send(self, method, path, body, status):
        response = self.api.request(method, path, body)
        self.assertEqual(status, response.status_int, response.text)

    def test_module_and_function_of_each_error(self):
        segments = '/v1/segments'
        hosts = '%s/%s/hosts' % (segments, self.segment['uuid'])
        self.send('POST', segments, {'segment': {
            'name': self.segment['name'], 'recovery_method': 'auto',
            'service_type': 'COMPUTE'}}, 409)
        self.send('PUT', '%s/%s' % (segments, self.segment['uuid']),
                  {'segment': {'name': 'segment-of-compute-2'}}, 409)
        for _ in range(2):
            self.send('POST', hosts, {'host': {
                'name': 'compute-1', 'type': 'COMPUTE',
                'control_attributes': 'SSH'}}, 409)
        self.send('PUT', '%s/%s' % (hosts, self.host['uuid']),
                  {'host': {'name': 'compute-2'}}, 409)

        errors = [event for event in self.api.rpc.notifications
                  if event['priority'] == 'ERROR']
        self.assertEqual(
            [('segment.create.error', 'FailoverSegmentExists',
              DB_MODULE, 'failover_segment_create'),
             ('segment.update.error', 'FailoverSegmentExists',
              DB_MODULE, 'failover_segment_update'),
             ('host.create.error', 'HostExists', DB_MODULE, 'host_create'),
             ('host.create.error', 'HostExists', DB_MODULE, 'host_create'),
             ('host.update.error', 'HostExists', DB_MODULE, 'host_update')],
            [(event['event_type'], fault_of(event)['exception'],
              fault_of(event)['module_name'],
              fault_of(event)['function_name']) for event in errors])
        # The rest of the fault is unchanged: the message and the whole
        # formatted traceback.
        fault = fault_of(errors[0])
        self.assertEqual('Failover segment with name %s already exists.'
                         % self.segment['name'], fault['exception_message'])
        self.assertTrue(fault['traceback'].startswith(
            'Traceback (most recent call last):\n'))
        self.assertTrue(fault['traceback'].endswith(
            'FailoverSegmentExists: Failover segment with name %s already '
            'exists.\n' % self.segment['name']))


class TestNotFoundDuringAWrite(testtools.TestCase):
    """A row gone before the write: the operation, or the reader that
    looked for it.
    """

    def setUp(self):
        super().setUp()
        conf = self.useFixture(conf_fixture.ConfFixture()).conf
        self.useFixture(database_fixture.Database(conf))
        self.ctxt = context.get_admin_context()

    def where(self, operation, *args):
        try:
            operation(self.ctxt, *args)
        except exception.NotFound as error:
            fault = exception_obj.ExceptionPayload.from_exc_and_traceback(
                error, traceback.format_exc())
            return fault.module_name, fault.function_name
        self.fail('%s raised nothing' % operation.__name__)

    def test_each_operation(self):
        cases = [
            (db.failover_segment_update, (MISSING, {}),
             '_failover_segment_get_by_uuid'),
            (db.failover_segment_delete, (MISSING,),
             'failover_segment_delete'),
            (db.host_update, (MISSING, {}), '_host_get_by_uuid'),
            (db.host_delete, (MISSING,), 'host_delete'),
            (db.notification_update, (MISSING, {}),
             '_notification_get_by_uuid'),
            (db.notification_delete, (MISSING,), 'notification_delete'),
        ]
        for operation, args, function_name in cases:
            self.assertEqual((DB_MODULE, function_name),
                             self.where(operation, *args),
                             operation.__name__)

    def test_other_errors_keep_the_innermost_frame(self):
        try:
            raise exception.HostExists(name='h1')
        except exception.HostExists as error:
            fault = exception_obj.ExceptionPayload.from_exc_and_traceback(
                error, traceback.format_exc())
        self.assertEqual(
            (__name__, 'test_other_errors_keep_the_innermost_frame'),
            (fault.module_name, fault.function_name))
