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

"""The simulated Nova: server listing, paging and show."""

from urllib import parse

from tests.unit.simulator import base


class ServersTestCase(base.SimulatorTestCase):

    def topology(self):
        topology = super().topology()
        topology['max_limit'] = 3
        topology['servers'] = [
            {'name': 'a', 'count': 4, 'host': 'compute-1',
             'metadata': {'HA_Enabled': 'True'}},
            {'name': 'b', 'host': 'compute-2', 'vm_state': 'stopped'},
            {'name': 'svc', 'host': 'compute-1', 'project': 'service'},
        ]
        return topology

    def names(self, query, **kwargs):
        response = self.nova('GET', '/servers/detail' + query, **kwargs)
        self.assertEqual(200, response.status_code, response.text)
        return [server['name'] for server in response.json()['servers']]

    def test_newest_first_and_host_filter(self):
        self.assertEqual(['svc', 'a-4', 'a-3'],
                         self.names('?all_tenants=True&host=compute-1'))
        self.assertEqual(['b'], self.names('?all_tenants=True&host=compute-2'))
        self.assertEqual([], self.names('?all_tenants=True&host=compute-3'))

    def test_without_all_tenants_only_own_project(self):
        self.assertEqual(['svc'], self.names('?host=compute-1'))
        # A member sees its project's servers; host is an admin-only filter.
        self.assertEqual(['b', 'a-4', 'a-3'],
                         self.names('?host=compute-2', user=base.MEMBER))
        self.assertFault(
            self.nova('GET', '/servers/detail?all_tenants=1',
                      user=base.MEMBER), 403, 'forbidden',
            "Policy doesn't allow os_compute_api:servers:detail:"
            "get_all_tenants to be performed.")
        self.assertEqual(400, self.nova(
            'GET', '/servers/detail?all_tenants=maybe').status_code)

    def test_paging_with_marker_and_next_links(self):
        query = '?all_tenants=True&host=compute-1'
        response = self.nova('GET', '/servers/detail' + query).json()
        self.assertEqual(3, len(response['servers']))
        [link] = response['servers_links']
        self.assertEqual('next', link['rel'])
        next_url = parse.urlsplit(link['href'])
        self.assertEqual('/compute/v2.1/servers/detail', next_url.path)
        self.assertEqual([('all_tenants', 'True'), ('host', 'compute-1'),
                          ('marker', self.server_id('a-3'))],
                         parse.parse_qsl(next_url.query))
        response = self.nova('GET', '/servers/detail?%s' %
                             next_url.query).json()
        self.assertEqual(['a-2', 'a-1'],
                         [s['name'] for s in response['servers']])
        self.assertNotIn('servers_links', response)
        self.assertEqual(['a-4', 'a-3'], self.names(
            query + '&limit=2&marker=%s' % self.server_id('svc')))
        self.assertFault(
            self.nova('GET', '/servers/detail?marker=nope'), 400,
            'badRequest', 'marker [nope] not found')
        self.assertEqual(400, self.nova('GET', '/servers/detail?limit=x')
                         .status_code)

    def test_summary_listing(self):
        response = self.nova('GET', '/servers?all_tenants=True&limit=1')
        [server] = response.json()['servers']
        self.assertEqual({'id', 'name', 'links'}, set(server))

    def test_show_has_the_fields_masakari_reads(self):
        server = self.server(self.server_id('b'))
        self.assertEqual(
            {'OS-EXT-STS:vm_state': 'stopped', 'OS-EXT-STS:task_state': None,
             'OS-EXT-STS:power_state': 4, 'locked': False,
             'OS-EXT-SRV-ATTR:hypervisor_hostname': 'compute-2',
             'OS-EXT-SRV-ATTR:host': 'compute-2', 'metadata': {},
             'status': 'SHUTOFF', 'host_status': 'UP'},
            {key: server[key] for key in (
                'OS-EXT-STS:vm_state', 'OS-EXT-STS:task_state',
                'OS-EXT-STS:power_state', 'locked',
                'OS-EXT-SRV-ATTR:hypervisor_hostname',
                'OS-EXT-SRV-ATTR:host', 'metadata', 'status',
                'host_status')})
        self.assertEqual({'HA_Enabled': 'True'},
                         self.server(self.server_id('a-1'))['metadata'])

    def test_show_for_members(self):
        own = self.nova('GET', '/servers/%s' % self.server_id('b'),
                        user=base.MEMBER).json()['server']
        self.assertNotIn('OS-EXT-SRV-ATTR:host', own)
        self.assertFault(
            self.nova('GET', '/servers/%s' % self.server_id('svc'),
                      user=base.MEMBER), 404, 'itemNotFound',
            'Instance %s could not be found.' % self.server_id('svc'))

    def test_show_unknown(self):
        self.assertFault(self.nova('GET', '/servers/nope'), 404,
                         'itemNotFound', 'Instance nope could not be found.')
