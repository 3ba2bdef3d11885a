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

"""A notification sender that behaves as masakari-monitors does.

Written from what the monitors do, not from their code: each monitor builds
an event (type, host name, generated_time = naive UTC now, payload) and
sends it with openstacksdk's instance_ha proxy, no microversion configured;
an HTTP 400 or 409 answer is final, any other failure is retried after a
pause up to a maximum number of retries, after which the cached client is
dropped.
"""

import datetime
import logging

from openstack import exceptions

LOG = logging.getLogger(__name__)
FINAL_STATUSES = (400, 409)


def _event(type, hostname, payload, generated_time=None):
    if generated_time is None:
        # NOTE: naive UTC, serialised by keystoneauth with isoformat().
        generated_time = datetime.datetime.now(
            datetime.timezone.utc).replace(tzinfo=None)
    return {'notification': {'type': type, 'hostname': hostname,
                             'generated_time': generated_time,
                             'payload': payload}}


def host_event(node, online, driver='default', ipmi_power_off=True):
    """hostmonitor: a Pacemaker/Consul/Kubernetes node went on/offline.

    The default/simple drivers report ``host_status`` UNKNOWN when the node
    is offline and IPMI does not confirm it is powered off; the kubernetes
    driver sends no ``cluster_status`` and only reports nodes going down.
    """
    payload = {'event': 'STARTED' if online else 'STOPPED',
               'cluster_status': 'ONLINE' if online else 'OFFLINE',
               'host_status': 'NORMAL'}
    if driver in ('default', 'simple') and not online and not ipmi_power_off:
        payload['host_status'] = 'UNKNOWN'
    if driver == 'kubernetes':
        del payload['cluster_status']
    return _event('COMPUTE_HOST', node, payload)


def instance_event(hostname, instance_uuid, event, detail):
    """instancemonitor: a libvirt domain event (e.g. LIFECYCLE,
    STOPPED_FAILED); introspective monitor: QEMU_GUEST_AGENT_ERROR.
    """
    return _event('VM', hostname, {'event': event,
                                   'instance_uuid': instance_uuid,
                                   'vir_domain_event': detail})


def process_event(hostname, process_path):
    """processmonitor: a watched process is down and was not restarted."""
    return _event('PROCESS', hostname, {
        'event': 'STOPPED', 'process_name': process_path.rsplit('/', 1)[-1]})


class NotificationSender:
    """send(event) as a monitor does it.

    :param client_factory: returns an instance_ha proxy (built once and
        cached, rebuilt after a send that failed for good).
    :param retry_max: retries after the first attempt.
    :param retry_interval: seconds between attempts, slept with ``sleep``.
    """

    def __init__(self, client_factory, retry_max, retry_interval, sleep):
        self.client_factory = client_factory
        self.retry_max = retry_max
        self.retry_interval = retry_interval
        self.sleep = sleep
        self._client = None

    def _get_client(self):
        if self._client is None:
            self._client = self.client_factory()
        return self._client

    def send(self, event):
        """The created notification, or None when the API refused it (400,
        409) or every attempt failed.
        """
        LOG.info('Send a notification. %s', event)
        notification = event['notification']
        for attempt in range(self.retry_max + 1):
            try:
                response = self._get_client().create_notification(
                    type=notification['type'],
                    hostname=notification['hostname'],
                    generated_time=notification['generated_time'],
                    payload=notification['payload'])
                LOG.info('Response: %s', response)
                return response
            except exceptions.HttpException as error:
                if error.status_code in FINAL_STATUSES:
                    LOG.info('%s', error)
                    return None
                failure = error
            except Exception as error:
                # NOTE: connection failures, timeouts, discovery errors...
                failure = error
            if attempt < self.retry_max:
                LOG.info('Retry sending a notification. (%s)', failure)
                self.sleep(self.retry_interval)
        LOG.error('Exception caught: %s', failure)
        self._client = None
        return None
