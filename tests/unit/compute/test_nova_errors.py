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

"""Error translation and the fixes of 5xx and empty lists."""

import time

from keystoneauth1 import exceptions as ks_exceptions
from novaclient import exceptions as nova_exceptions

from masakari import exception
from tests.unit.compute import base

REQUEST_ID_SUFFIX = ' (Request-ID: req-'


class TranslationTestCase(base.WrapperTestCase):

    def test_400_becomes_invalid_input_with_novas_text(self):
        # The failed host's service is still up: Nova refuses to evacuate.
        error = self.assertRaises(
            exception.InvalidInput, self.api.evacuate_instance,
            self.context, self.cloud.server_id('vm-1'))
        self.assertTrue(str(error).startswith(
            'Invalid input received: Compute service of compute-1 is still '
            'in use. (HTTP 400)' + REQUEST_ID_SUFFIX), str(error))

    def test_403_becomes_forbidden_with_novas_text(self):
        self.cloud.add_fault(path='/os-aggregates', status=403,
                             message='Not for you')
        error = self.assertRaises(exception.Forbidden,
                                  self.api.get_aggregate_list, self.context)
        self.assertEqual('Not for you (HTTP 403) (Request-ID: req-injected)',
                         str(error))

    def test_404_becomes_not_found(self):
        error = self.assertRaises(exception.NotFound, self.api.get_server,
                                  self.context, 'nope')
        self.assertEqual('Resource could not be found.', str(error))

    def test_409_becomes_conflict(self):
        server_id = self.cloud.server_id('vm-1')
        self.cloud.update_server(server_id, vm_state='stopped')
        error = self.assertRaises(exception.Conflict, self.api.stop_server,
                                  self.context, server_id)
        self.assertEqual('Conflict', str(error))
        [aggregate] = self.api.get_aggregate_list(self.context)
        self.assertRaises(exception.Conflict, self.api.add_host_to_aggregate,
                          self.context, 'compute-2', aggregate)

    def test_nova_5xx_becomes_masakari_exception_with_its_text(self):
        # Fixed: 22.0.0 lets novaclient's ClientException escape.
        for status in (500, 503):
            self.cloud.add_fault(path='/servers/detail', status=status,
                                 message='Nova is down', times=1)
            error = self.assertRaises(exception.MasakariException,
                                      self.api.get_servers, self.context,
                                      'compute-1')
            self.assertIs(exception.MasakariException, type(error))
            self.assertEqual('Nova is down (HTTP %d) (Request-ID: '
                             'req-injected)' % status, str(error))
            self.assertIsInstance(error.__cause__,
                                  nova_exceptions.ClientException)

    def test_keystone_5xx_becomes_masakari_exception(self):
        self.cloud.add_fault(service='keystone', method='POST',
                             path='/v3/auth/tokens', status=503,
                             message='Keystone is down')
        error = self.assertRaises(exception.MasakariException,
                                  self.api.get_aggregate_list, self.context)
        self.assertIn('Keystone is down', str(error))

    def test_discovery_failure_says_nova_is_unreachable(self):
        self.cloud.add_fault(service='keystone', method='GET', path='/',
                             status=503)
        error = self.assertRaises(exception.MasakariException,
                                  self.api.get_aggregate_list, self.context)
        # Fixed: 22.0.0 says "An unknown exception occurred.".
        self.assertIsInstance(error, exception.NovaUnreachable)
        self.assertTrue(str(error).startswith(
            'Nova could not be reached or did not answer in time: '), error)

    def test_connection_error_says_nova_is_unreachable(self):
        self.cloud.simulator.stop()
        error = self.assertRaises(exception.MasakariException,
                                  self.api.get_aggregate_list, self.context)
        # Fixed: 22.0.0 says "An unknown exception occurred.".
        self.assertIsInstance(error, exception.NovaUnreachable)
        self.assertTrue(str(error).startswith(
            'Nova could not be reached or did not answer in time: '), error)

    def test_hung_nova_times_out_after_nova_api_timeout(self):
        # Fixed: 22.0.0 sets no timeout and waits forever.
        self.conf.config(nova_api_timeout=1.0)
        self.api.get_aggregate_list(self.context)
        self.cloud.add_fault(path='/os-aggregates', hang=10)
        started = time.monotonic()
        error = self.assertRaises(exception.MasakariException,
                                  self.api.get_aggregate_list, self.context)
        self.assertLess(time.monotonic() - started, 3)
        # Fixed: 22.0.0 says "An unknown exception occurred.".
        self.assertIsInstance(error, exception.NovaUnreachable)
        self.assertTrue(str(error).startswith(
            'Nova could not be reached or did not answer in time: '), error)

    def test_hung_keystone_times_out_too(self):
        self.conf.config(nova_api_timeout=1.0)
        self.cloud.add_fault(service='keystone', path='/v3/auth/tokens',
                             hang=10)
        started = time.monotonic()
        self.assertRaises(exception.MasakariException,
                          self.api.get_aggregate_list, self.context)
        self.assertLess(time.monotonic() - started, 3)

    def test_401_twice_escapes_untranslated(self):
        # Reproduced: keystoneauth re-authenticates once, then the
        # novaclient Unauthorized escapes.
        self.cloud.add_fault(path='/os-aggregates', status=401)
        self.assertRaises(nova_exceptions.Unauthorized,
                          self.api.get_aggregate_list, self.context)
        self.assertEqual(2, self.cloud.token_requests())
        self.assertEqual(2, len(self.cloud.calls('nova')))

    def test_keystone_refusal_escapes_untranslated(self):
        # Reproduced: a wrong password is keystoneauth's 401.
        self.conf.config(os_privileged_user_password='wrong')
        self.assertRaises(ks_exceptions.Unauthorized,
                          self.api.get_aggregate_list, self.context)

    def test_system_scope_and_project_together_escape_untranslated(self):
        # Reproduced from 22.0.0: keystoneauth refuses a system scope
        # together with the privileged project.
        self.conf.config(os_system_scope='all')
        self.assertRaises(ks_exceptions.AuthorizationFailure,
                          self.api.get_aggregate_list, self.context)
        self.assertEqual([], self.cloud.calls('nova'))

    def test_other_4xx_escape_untranslated(self):
        self.cloud.add_fault(path='/os-aggregates', status=429)
        self.assertRaises(nova_exceptions.RateLimit,
                          self.api.get_aggregate_list, self.context)


class EmptyServiceListTestCase(base.WrapperTestCase):
    """Fixed: 22.0.0 raises IndexError for a host Nova does not know."""

    def test_enable_disable_service(self):
        for kwargs in ({}, {'reason': 'x'}, {'enable': True}):
            error = self.assertRaises(
                exception.ComputeNotFoundByName,
                self.api.enable_disable_service, self.context, 'ghost',
                **kwargs)
            self.assertEqual('Compute service with name ghost could not be '
                             'found.', str(error))
        self.assertEqual(['GET /os-services?host=ghost&binary=nova-compute']
                         * 3, self.cloud.nova_requests())

    def test_is_service_disabled(self):
        self.assertRaises(exception.ComputeNotFoundByName,
                          self.api.is_service_disabled, self.context,
                          'ghost', 'nova-compute')
