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

"""The simulated Keystone: discovery, password tokens, validation, expiry."""

import time

from tests.unit.simulator import base


class KeystoneTestCase(base.SimulatorTestCase):

    def url(self, path):
        return self.simulator.identity_url + path

    def authenticate(self, user=base.ADMIN, password=None, scope=None):
        body = {'auth': {'identity': {'methods': ['password'], 'password': {
            'user': {'name': user['name'],
                     'password': password or user['password'],
                     'domain': {'name': 'default'}}}}}}
        if scope is not None:
            body['auth']['scope'] = scope
        return self.http.post(self.url('/v3/auth/tokens'), json=body)

    def test_version_discovery(self):
        response = self.http.get(self.url(''))
        self.assertEqual(300, response.status_code)
        [version] = response.json()['versions']['values']
        self.assertEqual('v3.14', version['id'])
        self.assertEqual(self.url('/v3/'), version['links'][0]['href'])
        response = self.http.get(self.url('/v3'))
        self.assertEqual(200, response.status_code)
        self.assertEqual('stable', response.json()['version']['status'])

    def test_project_token_has_catalogue_pointing_at_nova(self):
        response = self.authenticate(scope={'project': {
            'name': 'service', 'domain': {'name': 'Default'}}})
        self.assertEqual(201, response.status_code)
        self.assertTrue(response.headers['X-Subject-Token'])
        token = response.json()['token']
        self.assertEqual('service', token['project']['name'])
        self.assertEqual([{'id': token['roles'][0]['id'], 'name': 'admin'}],
                         token['roles'])
        compute = [entry for entry in token['catalog']
                   if entry['type'] == 'compute']
        self.assertEqual('nova', compute[0]['name'])
        self.assertEqual(
            {('public', self.simulator.compute_url, 'RegionOne'),
             ('internal', self.simulator.compute_url, 'RegionOne'),
             ('admin', self.simulator.compute_url, 'RegionOne')},
            {(endpoint['interface'], endpoint['url'], endpoint['region'])
             for endpoint in compute[0]['endpoints']})

    def test_system_scope(self):
        response = self.authenticate(scope={'system': {'all': True}})
        self.assertEqual(201, response.status_code)
        token = response.json()['token']
        self.assertEqual({'all': True}, token['system'])
        self.assertNotIn('project', token)

    def test_unscoped_token_has_no_catalogue(self):
        response = self.authenticate()
        self.assertEqual(201, response.status_code)
        self.assertNotIn('catalog', response.json()['token'])

    def test_refusals(self):
        for response in (
                self.authenticate(password='wrong'),
                self.authenticate(scope={'project': {
                    'name': 'nowhere', 'domain': {'name': 'Default'}}}),
                # alice has no role on "service" nor on the system
                self.authenticate(base.MEMBER, scope={'project': {
                    'name': 'service', 'domain': {'name': 'Default'}}}),
                self.authenticate(base.MEMBER,
                                  scope={'system': {'all': True}})):
            self.assertEqual(401, response.status_code)
            self.assertEqual('The request you have made requires '
                             'authentication.',
                             response.json()['error']['message'])
        response = self.http.post(self.url('/v3/auth/tokens'), data='{')
        self.assertEqual(400, response.status_code)

    def validate(self, subject, method='GET', query=''):
        return self.http.request(
            method, self.url('/v3/auth/tokens' + query),
            headers={'X-Auth-Token': self.token(),
                     'X-Subject-Token': subject})

    def test_validation(self):
        subject = self.token(base.MEMBER)
        response = self.validate(subject)
        self.assertEqual(200, response.status_code)
        self.assertEqual(subject, response.headers['X-Subject-Token'])
        self.assertEqual('alice', response.json()['token']['user']['name'])
        self.assertIn('catalog', response.json()['token'])
        self.assertNotIn('catalog',
                         self.validate(subject, query='?nocatalog')
                         .json()['token'])
        self.assertEqual(200, self.validate(subject, 'HEAD').status_code)
        response = self.validate('bogus')
        self.assertEqual(404, response.status_code)
        self.assertEqual('Could not find token: bogus.',
                         response.json()['error']['message'])
        self.assertEqual(404, self.validate('bogus', 'HEAD').status_code)
        response = self.http.get(self.url('/v3/auth/tokens'), headers={
            'X-Auth-Token': 'bogus', 'X-Subject-Token': subject})
        self.assertEqual(401, response.status_code)

    def test_revocation(self):
        subject = self.token(base.MEMBER)
        self.assertEqual(204, self.validate(subject, 'DELETE').status_code)
        self.assertEqual(404, self.validate(subject).status_code)

    def test_tokens_expire_after_token_ttl(self):
        self.cloud.token_ttl = 0.2
        subject = self.authenticate(scope={'system': {'all': True}}).headers[
            'X-Subject-Token']
        self.assertEqual(200, self.nova('GET', '/os-services',
                                        token=subject).status_code)
        time.sleep(0.3)
        response = self.nova('GET', '/os-services', token=subject)
        self.assertEqual(401, response.status_code)
        self.assertIn('Keystone uri=', response.headers['WWW-Authenticate'])

    def test_revoke_all_tokens(self):
        token = self.token()
        self.cloud.revoke_tokens()
        self.assertEqual(401, self.nova('GET', '/os-services',
                                        token=token).status_code)

    def test_catalogue_follows_the_address_the_client_used(self):
        response = self.http.post(
            self.url('/v3/auth/tokens'), headers={'Host': 'cloud.test:5000'},
            json={'auth': {'identity': {'methods': ['password'], 'password': {
                'user': {'name': 'admin', 'password': 'secret',
                         'domain': {'id': 'default'}}}},
                'scope': {'system': {'all': True}}}})
        [compute] = [entry for entry in response.json()['token']['catalog']
                     if entry['type'] == 'compute']
        self.assertEqual('http://cloud.test:5000/compute/v2.1',
                         compute['endpoints'][0]['url'])
