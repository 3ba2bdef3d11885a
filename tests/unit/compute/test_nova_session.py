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

"""One keystoneauth session per process: tokens are reused, not re-fetched.

Fixed: Masakari 22.0.0 builds a new session for every call, i.e. one
identity discovery and one token request per Nova request.
"""

from concurrent import futures

from masakari.compute import nova
from masakari import context
from tests.fixtures import nova as nova_fixture
from tests.unit.compute import base


class SessionTestCase(base.WrapperTestCase):

    def test_one_token_for_many_calls_and_contexts(self):
        for number in range(10):
            own = context.RequestContext(is_admin=True)
            self.api.get_server(own, self.cloud.server_id('vm-1'))
            self.api.is_service_disabled(self.context, 'compute-1',
                                         'nova-compute')
        self.assertEqual(20, len(self.cloud.calls('nova')))
        self.assertEqual(
            [('GET', '/'), ('POST', '/v3/auth/tokens')],
            [(c['method'], c['path']) for c in self.cloud.calls('keystone')])
        tokens = {c['headers']['X-Auth-Token']
                  for c in self.cloud.calls('nova')}
        self.assertEqual(1, len(tokens))

    def test_token_is_renewed_when_rejected(self):
        self.api.get_aggregate_list(self.context)
        self.cloud.revoke_tokens()
        self.api.get_aggregate_list(self.context)
        self.api.get_aggregate_list(self.context)
        self.assertEqual(2, self.cloud.token_requests())
        self.assertEqual([200, 401, 200, 200],
                         [c['status'] for c in self.cloud.calls('nova')])

    def test_token_is_renewed_before_it_expires(self):
        # keystoneauth renews a token that expires within two minutes (each
        # time it needs it: endpoint lookup and headers), so a short-lived
        # token is never sent stale.
        self.cloud.cloud.token_ttl = 60
        self.api.get_aggregate_list(self.context)
        self.api.get_aggregate_list(self.context)
        self.assertGreater(self.cloud.token_requests(), 2)
        self.assertEqual([200, 200],
                         [c['status'] for c in self.cloud.calls('nova')])

    def test_new_credentials_new_session(self):
        self.api.get_aggregate_list(self.context)
        first = nova.novaclient(self.context).client.session
        self.conf.config(nova_api_timeout=30.0)
        second = nova.novaclient(self.context).client.session
        self.assertIsNot(first, second)
        self.assertEqual(30.0, second.timeout)
        self.api.get_aggregate_list(self.context)
        self.assertEqual(2, self.cloud.token_requests())

    def test_default_timeout(self):
        self.assertEqual(60.0, nova.novaclient(self.context).client
                         .session.timeout)

    def test_tls_options(self):
        self.conf.config(nova_ca_certificates_file='/etc/ssl/ca.pem')
        self.assertEqual('/etc/ssl/ca.pem', nova.novaclient(
            self.context).client.session.verify)
        self.conf.config(nova_api_insecure=True)
        self.assertFalse(nova.novaclient(self.context).client.session.verify)


class AuthVariantsTestCase(base.WrapperTestCase):

    def test_project_scoped_password_token_request(self):
        self.api.get_aggregate_list(self.context)
        token_call = self.cloud.calls('keystone')[1]
        user = {'password': 'masakari', 'name': 'masakari',
                'domain': {'name': 'default'}}
        scope = {'project': {'name': 'service',
                             'domain': {'name': 'default'}}}
        self.assertEqual(
            {'auth': {'identity': {'methods': ['password'],
                                   'password': {'user': user}},
                      'scope': scope}},
            token_call['body'])


class SystemScopeTestCase(base.WrapperTestCase):

    def setUp(self):
        super().setUp()
        self.system = self.useFixture(nova_fixture.NovaFixture(
            self.topology(), system_scope=True))

    def test_system_scoped_token(self):
        self.api.get_aggregate_list(self.context)
        token_call = self.system.calls('keystone')[1]
        self.assertEqual({'system': {'all': True}},
                         token_call['body']['auth']['scope'])
        self.assertEqual(1, len(self.system.calls('nova')))


class V3PasswordTestCase(base.WrapperTestCase):

    def setUp(self):
        super().setUp()
        self.v3 = self.useFixture(nova_fixture.NovaFixture(
            self.topology(), auth_type='v3password'))
        self.conf.config(os_privileged_user_auth_url=(
            self.v3.simulator.identity_url + '/v3'))

    def test_no_version_discovery(self):
        self.api.get_aggregate_list(self.context)
        self.assertEqual(['/v3/auth/tokens'],
                         [c['path'] for c in self.v3.calls('keystone')])


class TwentyServerRecoveryTestCase(base.WrapperTestCase):
    """The call counts of a 20-server host recovery."""

    def topology(self):
        topology = super().topology()
        topology['hosts'] = ['compute-1', 'compute-2', 'compute-3']
        topology['servers'] = [{'name': 'vm', 'count': 20,
                                'host': 'compute-1'}]
        return topology

    def recover(self, server):
        self.api.get_server(self.context, server.id)
        locked = self.api.get_server(self.context, server.id).locked
        if not locked:
            self.api.lock_server(self.context, server.id)
        self.api.evacuate_instance(self.context, server.id)
        moved = self.api.get_server(self.context, server.id)
        self.assertNotEqual('compute-1', getattr(
            moved, 'OS-EXT-SRV-ATTR:hypervisor_hostname'))
        self.api.get_server(self.context, server.id)
        self.api.unlock_server(self.context, server.id)

    def test_listing_and_evacuating_twenty_servers(self):
        self.api.enable_disable_service(self.context, 'compute-1',
                                        reason='Masakari detected host '
                                               'failed.')
        self.cloud.set_host_state('compute-1', 'down')
        servers = self.api.get_servers(self.context, 'compute-1')
        self.assertEqual(20, len(servers))
        with futures.ThreadPoolExecutor(3) as pool:
            list(pool.map(self.recover, servers))
        # 2 + 1 + 20 x 7 Nova calls; 22.0.0 would also make one discovery
        # and one token request before each of them (286 Keystone calls).
        self.assertEqual(143, len(self.cloud.calls('nova')))
        self.assertEqual(2, len(self.cloud.calls('keystone')))
        self.assertEqual(1, self.cloud.token_requests())
        self.assertEqual(20, sum(1 for _id, body in self.cloud.nova_actions()
                                 if 'evacuate' in body))
