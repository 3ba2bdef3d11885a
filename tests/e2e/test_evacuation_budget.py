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

"""A rack fails: several hosts down at once, recovered through the real
masakari-api and masakari-engine with [host_failure]/
max_concurrent_evacuations set; Nova never has more evacuations in
progress than the budget, and every server is evacuated once.
"""

import collections

from tests.e2e import base

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
RACK = ['rack-%d' % number for number in range(1, 5)]
SERVERS_PER_HOST = 3
BUDGET = 2


class TestRackFailure(base.E2ETestCase):

    topology = {
        # NOTE: long enough for the hosts' evacuations to overlap; Nova
        # itself has no limit here: only the budget bounds them.
        'delays': {'evacuate': 0.5, 'stop': 0, 'start': 0},
        'hosts': RACK + ['spare-1', 'spare-2'],
        'servers': [{'name': '%s-vm' % host, 'count': SERVERS_PER_HOST,
                     'host': host, 'metadata': {'HA_Enabled': 'True'}}
                    for host in RACK],
    }
    options = {'host_failure': {'max_concurrent_evacuations': BUDGET,
                                'evacuation_poll_interval': 0.1}}

    def test_hosts_share_the_budget_each_server_evacuated_once(self):
        segment = self.api.create_segment(self.unique('rack'), 'auto')
        for host in RACK:
            self.api.create_host(segment['uuid'], host)
            self.simulator.set_host_state(host, 'down')
        servers = {server['id']: server['host']
                   for server in self.simulator.state()['servers']
                   if server['host'] in RACK}
        notifications = [self.post_notification('COMPUTE_HOST', host,
                                                HOST_DOWN)
                         for host in RACK]
        for notification in notifications:
            final = self.api.wait_for_notification(
                notification['notification_uuid'], timeout=120)
            self.assertEqual('finished', final['status'])

        evacuations = collections.Counter(
            call['line'].split('/')[2]
            for call in self.simulator.nova_calls()
            if call['body'] and 'evacuate' in call['body'])
        self.assertEqual(dict.fromkeys(servers, 1), dict(evacuations))
        # NOTE: without the budget the four hosts' threads give Nova 12.
        self.assertLessEqual(self.simulator.state()['evacuations']['peak'],
                             BUDGET)
        state = {server['id']: server
                 for server in self.simulator.state()['servers']}
        for server_id in servers:
            self.assertNotIn(state[server_id]['host'], RACK)
