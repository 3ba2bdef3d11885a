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

"""The simulated Nova: versions, auth, os-services and os-aggregates."""

from tests.unit.simulator import base


class NovaCommonTestCase(base.SimulatorTestCase):

    def test_version_discovery_needs_no_token(self):
        response = self.http.get(self.simulator.url + '/compute/')
        self.assertEqual(200, response.status_code)
        versions = {v['id']: v for v in response.json()['versions']}
        self.assertEqual(('CURRENT', '2.53', '2.1'),
                         (versions['v2.1']['status'],
                          versions['v2.1']['version'],
                          versions['v2.1']['min_version']))
        response = self.http.get(self.simulator.compute_url + '/')
        self.assertEqual('v2.1', response.json()['version']['id'])

    def test_microversion_headers_echoed(self):
        for headers, expected in (
                ({'X-OpenStack-Nova-API-Version': '2.53'}, '2.53'),
                ({'OpenStack-API-Version': 'compute 2.20'}, '2.20'),
                ({'X-OpenStack-Nova-API-Version': 'latest'}, '2.53'),
                ({}, '2.1')):
            response = self.nova('GET', '/os-services', version=None,
                                 headers=headers)
            self.assertEqual(200, response.status_code)
            self.assertEqual(expected,
                             response.headers['X-OpenStack-Nova-API-Version'])
            self.assertEqual('compute ' + expected,
                             response.headers['OpenStack-API-Version'])
            self.assertIn('OpenStack-API-Version', response.headers['Vary'])
            self.assertTrue(response.headers['x-compute-request-id']
                            .startswith('req-'))

    def test_unsupported_microversions(self):
        self.assertFault(
            self.nova('GET', '/os-services', version='2.54'), 406,
            'computeFault', 'Version 2.54 is not supported by the API. '
            'Minimum is 2.1 and maximum is 2.53.')
        self.assertEqual(400, self.nova('GET', '/os-services',
                                        version='two').status_code)

    def test_token_required(self):
        response = self.nova('GET', '/os-services', token='bogus')
        self.assertEqual(401, response.status_code)
        self.assertEqual(401, response.json()['error']['code'])

    def test_unknown_paths_and_methods(self):
        self.assertFault(self.nova('GET', '/os-hypervisors'), 404,
                         'itemNotFound', 'The resource could not be found.')
        self.assertEqual(405, self.nova('DELETE', '/os-services').status_code)


class ServicesTestCase(base.SimulatorTestCase):

    def topology(self):
        topology = super().topology()
        topology['hosts'] = [
            'compute-1', {'name': 'compute-2', 'state': 'down'},
            {'name': 'controller', 'binaries': ['nova-scheduler',
                                                'nova-conductor']}]
        return topology

    def services(self, query=''):
        response = self.nova('GET', '/os-services' + query)
        self.assertEqual(200, response.status_code)
        return response.json()['services']

    def test_list_and_filters(self):
        self.assertEqual(
            [('compute-1', 'nova-compute', 'up', 'nova'),
             ('compute-2', 'nova-compute', 'down', 'nova'),
             ('controller', 'nova-scheduler', 'up', 'internal'),
             ('controller', 'nova-conductor', 'up', 'internal')],
            [(s['host'], s['binary'], s['state'], s['zone'])
             for s in self.services()])
        [service] = self.services('?host=compute-2&binary=nova-compute')
        self.assertEqual({'id', 'binary', 'disabled_reason', 'host', 'state',
                          'status', 'updated_at', 'forced_down', 'zone'},
                         set(service))
        self.assertEqual(36, len(service['id']))
        self.assertEqual([], self.services('?host=unknown&binary='
                                           'nova-compute'))
        self.assertEqual(2, len(self.services('?host=controller')))

    def test_disable_with_reason_then_enable(self):
        [service] = self.services('?host=compute-1')
        url = '/os-services/%s' % service['id']
        response = self.nova('PUT', url, {'status': 'disabled',
                                          'disabled_reason': 'broken'})
        self.assertEqual(200, response.status_code)
        self.assertEqual(('disabled', 'broken', 'up'),
                         tuple(response.json()['service'][key] for key in
                               ('status', 'disabled_reason', 'state')))
        response = self.nova('PUT', url, {'status': 'disabled'})
        self.assertEqual(200, response.status_code)
        response = self.nova('PUT', url, {'status': 'enabled'})
        self.assertEqual(('enabled', None),
                         (response.json()['service']['status'],
                          response.json()['service']['disabled_reason']))

    def test_forced_down_makes_the_service_down_for_evacuation(self):
        [service] = self.services('?host=compute-1')
        response = self.nova('PUT', '/os-services/%s' % service['id'],
                             {'forced_down': True})
        self.assertEqual((True, 'down'),
                         (response.json()['service']['forced_down'],
                          response.json()['service']['state']))
        self.assertFalse(self.cloud.compute_service('compute-1').is_up)

    def test_update_errors(self):
        [service] = self.services('?host=compute-1')
        url = '/os-services/%s' % service['id']
        self.assertFault(
            self.nova('PUT', url, {'status': 'enabled',
                                   'disabled_reason': 'x'}),
            400, 'badRequest',
            "Specifying 'disabled_reason' with status 'enabled' is invalid.")
        self.assertFault(
            self.nova('PUT', url, {}), 400, 'badRequest',
            "No updates were requested. Fields 'status' or 'forced_down' "
            "should be specified.")
        self.assertEqual(400, self.nova('PUT', url, {
            'status': 'disabled', 'disabled_reason': ''}).status_code)
        self.assertEqual(400, self.nova('PUT', url, {'status': 'gone'})
                         .status_code)
        self.assertFault(self.nova('PUT', '/os-services/disable',
                                   {'status': 'enabled'}),
                         400, 'badRequest', 'Invalid uuid disable')
        missing = '00000000-0000-0000-0000-000000000000'
        self.assertFault(self.nova('PUT', '/os-services/' + missing,
                                   {'status': 'enabled'}),
                         404, 'itemNotFound',
                         'Service %s could not be found.' % missing)

    def test_admin_only(self):
        self.assertFault(
            self.nova('GET', '/os-services', user=base.MEMBER), 403,
            'forbidden', "Policy doesn't allow os_compute_api:os-services:"
            "list to be performed.")


class AggregatesTestCase(base.SimulatorTestCase):

    def topology(self):
        topology = super().topology()
        topology['aggregates'] = [
            {'name': 'rack-a', 'hosts': ['compute-1', 'compute-2']},
            {'name': 'gpu', 'id': 7, 'hosts': [],
             'availability_zone': 'az-gpu'}]
        return topology

    def test_list(self):
        response = self.nova('GET', '/os-aggregates')
        self.assertEqual(200, response.status_code)
        aggregates = response.json()['aggregates']
        self.assertEqual([(1, 'rack-a', ['compute-1', 'compute-2']),
                          (7, 'gpu', [])],
                         [(a['id'], a['name'], a['hosts'])
                          for a in aggregates])
        self.assertEqual({'availability_zone': 'az-gpu'},
                         aggregates[1]['metadata'])

    def test_add_host(self):
        url = '/os-aggregates/1/action'
        response = self.nova('POST', url, {'add_host': {'host':
                                                        'compute-3'}})
        self.assertEqual(200, response.status_code)
        self.assertEqual(['compute-1', 'compute-2', 'compute-3'],
                         response.json()['aggregate']['hosts'])
        self.assertFault(
            self.nova('POST', url, {'add_host': {'host': 'compute-3'}}),
            409, 'conflictingRequest',
            'Aggregate 1 already has host compute-3.')
        self.assertFault(
            self.nova('POST', url, {'add_host': {'host': 'nowhere'}}),
            404, 'itemNotFound', 'Compute host nowhere could not be found.')
        self.assertFault(
            self.nova('POST', '/os-aggregates/99/action',
                      {'add_host': {'host': 'compute-3'}}),
            404, 'itemNotFound', 'Aggregate 99 could not be found.')
        self.assertEqual(400, self.nova('POST', url, {'grow': {}})
                         .status_code)

    def test_remove_host(self):
        url = '/os-aggregates/1/action'
        response = self.nova('POST', url, {'remove_host': {'host':
                                                           'compute-1'}})
        self.assertEqual(['compute-2'], response.json()['aggregate']['hosts'])
        self.assertEqual(404, self.nova('POST', url, {'remove_host': {
            'host': 'compute-1'}}).status_code)

    def test_admin_only(self):
        self.assertEqual(403, self.nova('GET', '/os-aggregates',
                                        user=base.MEMBER).status_code)
