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

"""Each wrapper method: the exact Nova requests and what it returns."""

from keystoneauth1 import exceptions as ks_exceptions

from masakari.compute import nova
from masakari import context
from masakari import exception
from tests.unit.compute import base


class MethodsTestCase(base.WrapperTestCase):

    def test_get_servers(self):
        servers = self.api.get_servers(self.context, 'compute-1')
        self.assertEqual([('GET', '/v2.1/servers/detail',
                           'all_tenants=True&host=compute-1', None)],
                         self.nova_calls())
        self.assertEqual(['vm-3', 'vm-2', 'vm-1'],
                         [server.name for server in servers])
        self.assertEqual(self.cloud.server_id('vm-3'), servers[0].id)
        self.assertEqual({'HA_Enabled': 'True'}, servers[0].metadata)
        self.assertEqual('active', getattr(servers[0], 'OS-EXT-STS:vm_state'))

    def test_enable_disable_service(self):
        service_id = self.cloud.service('compute-1')['id']
        lookup = ('GET', '/v2.1/os-services',
                  'host=compute-1&binary=nova-compute', None)
        update = '/v2.1/os-services/%s' % service_id
        self.api.enable_disable_service(self.context, 'compute-1',
                                        reason='Masakari detected host '
                                               'failed.')
        self.assertEqual(
            ('disabled', 'Masakari detected host failed.'),
            (self.cloud.service('compute-1')['status'],
             self.cloud.service('compute-1')['disabled_reason']))
        self.api.enable_disable_service(self.context, 'compute-1')
        self.api.enable_disable_service(self.context, 'compute-1',
                                        reason='')
        self.api.enable_disable_service(self.context, 'compute-1',
                                        enable=True)
        self.assertEqual(
            [lookup, ('PUT', update, '', {
                'status': 'disabled',
                'disabled_reason': 'Masakari detected host failed.'}),
             lookup, ('PUT', update, '', {'status': 'disabled'}),
             lookup, ('PUT', update, '', {'status': 'disabled'}),
             lookup, ('PUT', update, '', {'status': 'enabled'})],
            self.nova_calls())
        self.assertEqual(('enabled', None),
                         (self.cloud.service('compute-1')['status'],
                          self.cloud.service('compute-1')['disabled_reason']))

    def test_is_service_disabled(self):
        self.assertTrue(self.api.is_service_disabled(
            self.context, 'reserved-1', 'nova-compute'))
        self.assertFalse(self.api.is_service_disabled(
            self.context, 'compute-1', 'nova-compute'))
        self.assertEqual(
            ('GET', '/v2.1/os-services',
             'host=reserved-1&binary=nova-compute', None),
            self.nova_calls()[0])

    def test_is_service_down(self):
        self.assertFalse(self.api.is_service_down(self.context, 'compute-1'))
        self.cloud.set_host_state('compute-1', 'down')
        self.assertTrue(self.api.is_service_down(self.context, 'compute-1'))
        self.cloud.set_host_state('compute-1', 'up')
        self.cloud.update_host('compute-1', forced_down=True)
        self.assertTrue(self.api.is_service_down(self.context, 'compute-1'))
        self.assertEqual(
            ['GET /os-services?host=compute-1&binary=nova-compute'] * 3,
            self.cloud.nova_requests())
        self.assertRaises(exception.ComputeNotFoundByName,
                          self.api.is_service_down, self.context, 'ghost')

    def test_find_compute_service(self):
        self.assertIsNone(self.api.find_compute_service(self.context,
                                                        'compute-2'))
        error = self.assertRaises(exception.ComputeNotFoundByName,
                                  self.api.find_compute_service,
                                  self.context, 'nowhere')
        self.assertEqual('Compute service with name nowhere could not be '
                         'found.', str(error))
        self.assertEqual(
            [('GET', '/v2.1/os-services',
              'host=compute-2&binary=nova-compute', None),
             ('GET', '/v2.1/os-services',
              'host=nowhere&binary=nova-compute', None)],
            self.nova_calls())

    def test_evacuate_instance(self):
        self.cloud.set_host_state('compute-1', 'down')
        first, second = (self.cloud.server_id('vm-1'),
                         self.cloud.server_id('vm-2'))
        self.assertIsNone(self.api.evacuate_instance(self.context, first))
        self.api.evacuate_instance(self.context, second, target='compute-2')
        self.assertEqual(
            [('POST', '/v2.1/servers/%s/action' % first, '',
              {'evacuate': {}}),
             ('POST', '/v2.1/servers/%s/action' % second, '',
              {'evacuate': {'host': 'compute-2'}})],
            self.nova_calls())
        self.assertEqual('compute-2', self.cloud.server(second)[
            'host'])

    def test_reset_instance_state(self):
        server_id = self.cloud.server_id('vm-1')
        self.api.reset_instance_state(self.context, server_id)
        self.assertEqual('error', self.cloud.server(server_id)['vm_state'])
        self.api.reset_instance_state(self.context, server_id, 'active')
        self.assertEqual(
            [('POST', '/v2.1/servers/%s/action' % server_id, '',
              {'os-resetState': {'state': 'error'}}),
             ('POST', '/v2.1/servers/%s/action' % server_id, '',
              {'os-resetState': {'state': 'active'}})],
            self.nova_calls())

    def test_get_server_has_every_field_the_engine_reads(self):
        server_id = self.cloud.server_id('vm-1')
        server = self.api.get_server(self.context, server_id)
        self.assertEqual([('GET', '/v2.1/servers/%s' % server_id, '', None)],
                         self.nova_calls())
        self.assertEqual(
            (server_id, False, {'HA_Enabled': 'True'}, 'active', None, 1,
             'compute-1'),
            (server.id, server.locked, server.metadata,
             getattr(server, 'OS-EXT-STS:vm_state'),
             getattr(server, 'OS-EXT-STS:task_state'),
             getattr(server, 'OS-EXT-STS:power_state'),
             getattr(server, 'OS-EXT-SRV-ATTR:hypervisor_hostname')))

    def test_power_and_lock_actions(self):
        server_id = self.cloud.server_id('vm-1')
        self.api.lock_server(self.context, server_id)
        self.assertTrue(self.cloud.server(server_id)['locked'])
        self.api.stop_server(self.context, server_id)
        self.assertEqual('stopped', self.cloud.server(server_id)['vm_state'])
        self.api.start_server(self.context, server_id)
        self.assertEqual('active', self.cloud.server(server_id)['vm_state'])
        self.api.unlock_server(self.context, server_id)
        self.assertFalse(self.cloud.server(server_id)['locked'])
        self.assertEqual(
            [{'lock': None}, {'os-stop': None}, {'os-start': None},
             {'unlock': None}],
            [body for _server, body in self.cloud.nova_actions()])

    def test_aggregates(self):
        [aggregate] = self.api.get_aggregate_list(self.context)
        self.assertEqual((1, 'rack-a', ['compute-1', 'compute-2']),
                         (aggregate.id, aggregate.name, aggregate.hosts))
        self.api.add_host_to_aggregate(self.context, 'reserved-1', aggregate)
        self.assertEqual(
            [('GET', '/v2.1/os-aggregates', '', None),
             ('POST', '/v2.1/os-aggregates/1/action', '',
              {'add_host': {'host': 'reserved-1'}})],
            self.nova_calls())
        self.assertIn('reserved-1', self.cloud.aggregate('rack-a')['hosts'])


class HeadersTestCase(base.WrapperTestCase):

    def test_nova_requests_carry_microversion_and_global_request_id(self):
        self.api.get_aggregate_list(self.context)
        self.api.get_servers(self.context, 'compute-1')
        for call in self.cloud.calls('nova'):
            self.assertEqual(
                {'X-OpenStack-Nova-API-Version': '2.53',
                 'OpenStack-API-Version': 'compute 2.53',
                 'X-OpenStack-Request-ID':
                     'req-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
                 'User-Agent': 'python-novaclient',
                 'Accept': 'application/json'},
                {key: call['headers'][key] for key in (
                    'X-OpenStack-Nova-API-Version', 'OpenStack-API-Version',
                    'X-OpenStack-Request-ID', 'User-Agent', 'Accept')})
        for call in self.cloud.calls('keystone'):
            self.assertNotIn('X-OpenStack-Request-ID', call['headers'])
            self.assertNotIn('X-OpenStack-Nova-API-Version', call['headers'])

    def test_request_id_when_no_global_request_id(self):
        own = context.RequestContext(is_admin=True)
        self.api.get_aggregate_list(own)
        [call] = self.cloud.calls('nova')
        self.assertEqual(own.request_id,
                         call['headers']['X-OpenStack-Request-ID'])

    def test_body_requests_are_json(self):
        self.api.lock_server(self.context, self.cloud.server_id('vm-1'))
        [call] = self.cloud.calls('nova')
        self.assertEqual('application/json', call['headers']['Content-Type'])


class CatalogueTestCase(base.WrapperTestCase):

    def test_catalogue_triple_is_honoured(self):
        self.conf.config(nova_catalog_admin_info='compute:nova:internalURL')
        self.api.get_aggregate_list(self.context)
        self.conf.config(nova_catalog_admin_info='compute:nova')
        self.assertRaises(ValueError, self.api.get_aggregate_list,
                          self.context)

    def test_unnamed_compute_entry_is_not_found(self):
        # As in 22.0.0, the catalogue entry must be named "nova".
        self.conf.config(nova_catalog_admin_info='compute:nova-api:publicURL')
        self.assertRaises(ks_exceptions.EndpointNotFound,
                          self.api.get_aggregate_list, self.context)

    def test_module_exposes_a_client_on_the_shared_session(self):
        client = nova.novaclient(self.context)
        self.assertEqual('2.53', client.api_version.get_string())
        self.assertIs(client.client.session, nova.novaclient(
            self.context).client.session)


class PagingTestCase(base.WrapperTestCase):
    """Fixed: 22.0.0 reads one page and ignores servers beyond max_limit."""

    def topology(self):
        topology = super().topology()
        topology['max_limit'] = 2
        topology['servers'] = [{'name': 'vm', 'count': 5,
                                'host': 'compute-1'},
                               {'name': 'other', 'host': 'compute-2'}]
        return topology

    def test_pages_are_followed_with_marker_until_the_last(self):
        servers = self.api.get_servers(self.context, 'compute-1')
        self.assertEqual(['vm-5', 'vm-4', 'vm-3', 'vm-2', 'vm-1'],
                         [server.name for server in servers])
        query = 'all_tenants=True&host=compute-1'
        self.assertEqual(
            ['GET /servers/detail?' + query,
             'GET /servers/detail?%s&marker=%s' % (
                 query, self.cloud.server_id('vm-4')),
             'GET /servers/detail?%s&marker=%s' % (
                 query, self.cloud.server_id('vm-2'))],
            self.cloud.nova_requests())

    def test_a_full_last_page_costs_one_empty_page(self):
        self.cloud.update_server('vm-5', host='compute-2')
        self.assertEqual(4, len(self.api.get_servers(self.context,
                                                     'compute-1')))
        self.assertEqual(3, len(self.cloud.nova_requests()))

    def test_one_page_is_one_request_as_in_the_reference(self):
        self.assertEqual(['other'], [s.name for s in self.api.get_servers(
            self.context, 'compute-2')])
        self.assertEqual(
            ['GET /servers/detail?all_tenants=True&host=compute-2'],
            self.cloud.nova_requests())
