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

"""COMPUTE_HOST notifications through the real masakari-api and
masakari-engine, one scenario per recovery method (Nova calls, vmoves and
bus notifications).
"""

import time

from testtools import content

from tests.e2e import base
from tests.e2e import nova_calls
from tests.fixtures import polling

HOST_DOWN = {'event': 'STOPPED', 'host_status': 'NORMAL',
             'cluster_status': 'OFFLINE'}
HA = {'HA_Enabled': 'True'}
RESERVED = {'status': 'disabled', 'disabled_reason': 'reserved'}


def _scenario_hosts(prefix, reserved=False):
    hosts = ['%s-src' % prefix]
    if reserved:
        hosts.append(dict(RESERVED, name='%s-rsv' % prefix))
    return hosts


class TestHostFailure(base.E2ETestCase):

    topology = {
        'delays': base.INSTANT,
        'hosts': (['spare-1'] + _scenario_hosts('auto') +
                  _scenario_hosts('rh', reserved=True) +
                  _scenario_hosts('ap', reserved=True) +
                  _scenario_hosts('rp')),
        'servers': [{'name': '%s-vm' % prefix, 'host': '%s-src' % prefix,
                     'metadata': HA}
                    for prefix in ('rh', 'ap', 'rp')] + [
            # Slow enough to watch the recovery while it runs.
            {'name': 'auto-vm', 'host': 'auto-src', 'metadata': HA,
             'evacuate_delay': 2}],
        'aggregates': [{'name': 'rh-agg', 'hosts': ['rh-src']}],
    }

    def _fail_host(self, prefix, recovery_method, watch=False):
        """Register the scenario's hosts, take its source host down in Nova,
        post the host-down notification and wait for its end (with
        ``watch``, reading the 1.1 details while it runs: self.running).

        :returns: (final notification, server id, {host name: nova
            service id}).
        """
        segment = self.api.create_segment(self.unique(prefix),
                                          recovery_method)
        self.segment_uuid = segment['uuid']
        self.hosts = {}
        for service in self.simulator.state()['services']:
            if service['host'].startswith(prefix + '-'):
                self.hosts[service['host']] = self.api.create_host(
                    segment['uuid'], service['host'],
                    reserved=service['status'] == 'disabled')
        source = '%s-src' % prefix
        self.simulator.set_host_state(source, 'down')
        state = self.simulator.state()
        service_ids = {service['host']: service['id']
                       for service in state['services']}
        server_id = self.simulator.server('%s-vm' % prefix)['id']
        self.simulator.reset_calls()
        self.bus.clear()

        notification = self.post_notification('COMPUTE_HOST', source,
                                              HOST_DOWN)
        uuid = notification['notification_uuid']
        if watch:
            self._watch(uuid)
        final = self.api.wait_for_notification(uuid)
        return final, server_id, service_ids

    def _watch(self, uuid, timeout=120):
        """Poll at 1.1 until the end; keep the (task, state) pairs seen
        while the notification was running in ``self.running``.
        """
        self.running = set()

        def ended():
            started = time.monotonic()
            notification = self.api.notification(uuid)
            # The engine answers the RPC call while it recovers.
            self.assertLess(time.monotonic() - started, 5)
            if notification['status'] == 'running':
                self.running.update(
                    (task['name'], task['state'])
                    for task in notification['recovery_workflow_details'])
                return False
            return notification['status'] != 'new'

        polling.wait_until(ended, timeout, interval=0.2,
                           message='notification %s to end' % uuid)

    def _host(self, name):
        return self.api.call('GET', '/segments/%s/hosts/%s' % (
            self.segment_uuid, self.hosts[name]['uuid']))['host']

    def assert_nova_calls(self, expected):
        actual = nova_calls.fold(self.simulator.nova_calls())
        self.assertEqual(expected, nova_calls.comparable(expected, actual))

    def assert_host_events(self, source, reserved=None):
        """create (API), process.start, the failed host's update, the
        reserved host's update (engine), process.end.
        """
        engine = base.ENGINE_PUBLISHER
        expected = [('notification.create.start', base.API_PUBLISHER),
                    ('notification.create.end', base.API_PUBLISHER),
                    ('notification.process.start', engine),
                    ('host.update.start', engine),
                    ('host.update.end', engine)]
        if reserved:
            expected += [('host.update.start', engine),
                         ('host.update.end', engine)]
        expected.append(('notification.process.end', engine))
        events = self.assert_events(expected)
        failed_host = self.payload(events[4])
        self.assertEqual((source, True), (failed_host['name'],
                                          failed_host['on_maintenance']))
        if reserved:
            taken = self.payload(events[6])
            self.assertEqual((reserved, False),
                             (taken['name'], taken['reserved']))
        self.assertEqual('running', self.payload(events[-1])['status'])
        self.assertIsNone(self.payload(events[-1])['fault'])

    def assert_evacuated(self, notification, server_id, source,
                         target=None):
        """One succeeded vmove (1.3) per attempt that worked; the server
        active, unlocked, on ``target`` (any other host when None).
        """
        vmoves = self.api.vmoves(notification['notification_uuid'])
        succeeded = [vmove for vmove in vmoves
                     if vmove['status'] == 'succeeded']
        self.assertEqual(1, len(succeeded), vmoves)
        vmove = succeeded[0]
        server = self.simulator.server(vmove['instance_name'])
        self.assertEqual(
            (server_id, source, 'evacuation', None),
            (vmove['instance_uuid'], vmove['source_host'], vmove['type'],
             vmove['message']))
        self.assertIsNotNone(vmove['start_time'])
        self.assertIsNotNone(vmove['end_time'])
        self.assertEqual(server['host'], vmove['dest_host'])
        self.assertNotEqual(source, server['host'])
        if target:
            self.assertEqual(target, server['host'])
        self.assertEqual(('active', False), (server['vm_state'],
                                             server['locked']))
        return vmoves

    def details(self, notification_uuid):
        """The 1.1 recovery_workflow_details as (task, state, [(message,
        progress)]) tuples.
        """
        notification = self.api.notification(notification_uuid)
        return [(task['name'], task['state'],
                 [(item['message'], item['progress'])
                  for item in task['progress_details']])
                for task in notification['recovery_workflow_details']]

    def test_auto(self):
        final, server_id, services = self._fail_host('auto', 'auto',
                                                     watch=True)
        self.assertEqual('finished', final['status'])
        self.assertIn(('EvacuateInstancesTask', 'RUNNING'), self.running)
        self.assertIsNone(final['message'])
        self.assert_nova_calls(
            nova_calls.disable_service('auto-src', services['auto-src']) +
            nova_calls.list_servers('auto-src') +
            nova_calls.evacuate(server_id))
        self.assert_evacuated(final, server_id, 'auto-src')
        # The engine's Nova calls carry the request id of the API request
        # that posted the notification.
        self.assertEqual({self.request_id}, {
            call['request_id'] for call in self.simulator.nova_calls()})
        self.assert_host_events('auto-src')
        self.assertTrue(self._host('auto-src')['on_maintenance'])
        service = self.simulator.service('auto-src')
        self.assertEqual(('disabled', nova_calls.HOST_DISABLE_REASON),
                         (service['status'], service['disabled_reason']))

        host = "'auto-src'"
        self.assertEqual([
            ('DisableComputeServiceTask', 'SUCCESS', [
                ('Disabling compute service on host: %s' % host, '0.0'),
                ('Disabled compute service on host: %s' % host, '1.0')]),
            ('PrepareHAEnabledInstancesTask', 'SUCCESS', [
                ('Preparing instances for evacuation', '0.0'),
                ('Total instances running on failed host %s is 1' % host,
                 '0.3'),
                ("Total HA Enabled instances count: '1'", '0.6'),
                ("Total Non-HA Enabled instances count: '0'", '0.7'),
                ('All instances (HA Enabled/Non-HA Enabled) should be '
                 "considered for evacuation. Total count is: '1'", '0.8'),
                ("Instances to be evacuated are: '%s'" % server_id,
                 '1.0')]),
            ('EvacuateInstancesTask', 'SUCCESS', [
                ('Start evacuation of instances from failed host %s, '
                 "instance uuids are: '%s'" % (host, server_id), '0.0'),
                ("Evacuation of instance started: '%s'" % server_id, '0.5'),
                ("Successfully evacuate instances '%s' from host %s"
                 % (server_id, host), '0.7'),
                ('Evacuation process completed!', '1.0')]),
        ], self.details(final['notification_uuid']))

    def test_reserved_host(self):
        final, server_id, services = self._fail_host('rh', 'reserved_host')
        self.assertEqual('finished', final['status'])
        aggregate = self.simulator.state()['aggregates'][0]
        self.assert_nova_calls(
            nova_calls.disable_service('rh-src', services['rh-src']) +
            nova_calls.list_servers('rh-src') +
            nova_calls.enable_reserved_host('rh-rsv', services['rh-rsv'],
                                            [aggregate['id']]) +
            nova_calls.evacuate(server_id, target='rh-rsv'))
        self.assert_evacuated(final, server_id, 'rh-src', target='rh-rsv')
        self.assert_host_events('rh-src', reserved='rh-rsv')
        self.assertFalse(self._host('rh-rsv')['reserved'])
        self.assertEqual('enabled',
                         self.simulator.service('rh-rsv')['status'])
        self.assertIn('rh-rsv', aggregate['hosts'])
        tasks = self.details(final['notification_uuid'])
        self.assertEqual(
            [('DisableComputeServiceTask', 'SUCCESS'),
             ('PrepareHAEnabledInstancesTask', 'SUCCESS'),
             ('EvacuateInstancesTask', 'SUCCESS')],
            [task[:2] for task in tasks])
        self.assertEqual([
            ("Start evacuation of instances from failed host 'rh-src', "
             "instance uuids are: '%s'" % server_id, '0.0'),
            ("Enabling reserved host: 'rh-rsv'", '0.1'),
            ('Add host rh-rsv to aggregate rh-agg', '0.2'),
            ('Added host rh-rsv to aggregate rh-agg', '0.3'),
            ("Evacuation of instance started: '%s'" % server_id, '0.5'),
            ("Successfully evacuate instances '%s' from host 'rh-src'"
             % server_id, '0.7'),
            ('Evacuation process completed!', '1.0')], tasks[2][2])

    def test_auto_priority_falls_back_to_reserved_host(self):
        # Nova refuses the first evacuation: the auto workflow fails, the
        # reserved-host workflow runs and succeeds.
        self.simulator.add_fault(service='nova', method='POST',
                                 path='/servers/*/action',
                                 action='evacuate', status=503,
                                 message='Nova is restarting', times=1)
        final, server_id, services = self._fail_host('ap', 'auto_priority')
        self.assertEqual('finished', final['status'])
        self.assert_nova_calls(
            nova_calls.disable_service('ap-src', services['ap-src']) +
            nova_calls.list_servers('ap-src') +
            nova_calls.evacuate_rejected(server_id) +
            nova_calls.disable_service('ap-src', services['ap-src']) +
            nova_calls.list_servers('ap-src') +
            nova_calls.enable_reserved_host('ap-rsv', services['ap-rsv']) +
            nova_calls.evacuate(server_id, target='ap-rsv'))
        vmoves = self.assert_evacuated(final, server_id, 'ap-src',
                                       target='ap-rsv')
        failed = [vmove for vmove in vmoves if vmove['status'] == 'failed']
        self.assertEqual(1, len(failed), vmoves)
        self.assertIn('Nova is restarting', failed[0]['message'])
        self.assert_host_events('ap-src', reserved='ap-rsv')
        # One group of tasks per workflow run: the auto run reverted.
        self.assertEqual(sorted(
            [(name, 'REVERTED') for name in (
                'DisableComputeServiceTask', 'PrepareHAEnabledInstancesTask',
                'EvacuateInstancesTask')] +
            [(name, 'SUCCESS') for name in (
                'DisableComputeServiceTask', 'PrepareHAEnabledInstancesTask',
                'EvacuateInstancesTask')]),
            sorted(task[:2] for task in self.details(
                final['notification_uuid'])))

    def test_rh_priority_without_reserved_host_falls_back_to_auto(self):
        final, server_id, services = self._fail_host('rp', 'rh_priority')
        self.assertEqual('finished', final['status'])
        # No reserved host: no reserved-host workflow, only the auto one.
        self.assert_nova_calls(
            nova_calls.disable_service('rp-src', services['rp-src']) +
            nova_calls.list_servers('rp-src') +
            nova_calls.evacuate(server_id))
        self.assert_evacuated(final, server_id, 'rp-src')
        self.assert_host_events('rp-src')


class TestEngineCrash(base.E2ETestCase):
    """An engine killed in the middle of an evacuation: the next engine
    takes the notification over instead of leaving it ``running`` (the
    reference left it so until it expired).
    """

    topology = {
        'delays': base.INSTANT,
        'hosts': ['crash-src', 'crash-dst'],
        'servers': [{'name': 'crash-vm', 'host': 'crash-src',
                     'metadata': HA, 'evacuate_delay': 3}],
    }

    def _wait(self, condition, what, timeout=30):
        polling.wait_until(condition, timeout, interval=0.2, message=what)

    def test_next_engine_takes_the_recovery_over(self):
        segment = self.api.create_segment(self.unique('crash'), 'auto')
        for name in ('crash-src', 'crash-dst'):
            self.api.create_host(segment['uuid'], name)
        self.simulator.set_host_state('crash-src', 'down')
        uuid = self.post_notification('COMPUTE_HOST', 'crash-src',
                                      HOST_DOWN)['notification_uuid']
        self._wait(lambda: [vmove for vmove in self.api.vmoves(uuid)
                            if vmove['status'] == 'ongoing'],
                   'no evacuation started')
        self.deployment.engine.kill()
        self.assertEqual('running',
                         self.api.notification(uuid, '1.0')['status'])
        # Nova finishes the evacuation on its own meanwhile.
        self._wait(lambda: self.simulator.server('crash-vm')['host'] ==
                   'crash-dst', 'the evacuation did not end in Nova')
        self.bus.clear()

        engine = self.deployment.start_engine()
        self.addDetail('masakari-engine (restarted)', content.Content(
            content.UTF8_TEXT, lambda: [engine.log_text().encode()]))
        # Resumed by the restarted engine (two watch rounds of a third of
        # [takeover]/lease_timeout): the evacuation Nova finished is
        # confirmed, not requested again.
        final = self.api.wait_for_notification(
            uuid, statuses=('finished', 'failed'), timeout=60)
        self.assertEqual('finished', final['status'])
        [vmove] = self.api.vmoves(uuid)
        self.assertEqual(('succeeded', 'crash-dst', None),
                         (vmove['status'], vmove['dest_host'],
                          vmove['message']))
        self.assertIsNotNone(vmove['end_time'])
        # One evacuation in all: the killed engine's.
        self.assertEqual(1, len([call for call in self.simulator.nova_calls()
                                 if 'evacuate' in (call['body'] or {})]))
        events = self.assert_events([
            ('host.update.start', base.ENGINE_PUBLISHER),
            ('host.update.end', base.ENGINE_PUBLISHER),
            ('notification.process.end', base.ENGINE_PUBLISHER)])
        self.assertEqual('running', self.payload(events[-1])['status'])
        messages = [item['message'] for task in self.api.notification(uuid)[
            'recovery_workflow_details'] for item in task['progress_details']]
        self.assertTrue(any(
            message.startswith("Recovery taken over from engine '%s' by "
                               "engine '%s'" % ((self.deployment.engine_host,)
                                                * 2))
            for message in messages), messages)
