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

"""Base test case of the clients' tests and the ways clients are run.

The ``openstack`` command (python-openstackclient with the unchanged
python-masakariclient plugin) runs as a subprocess; openstacksdk runs
in-process; plain HTTP (requests) reads the API's state to check what a
command did.
"""

import json
import os
import subprocess
import sys

from keystoneauth1 import noauth
from keystoneauth1 import session as ks_session
import openstack
import requests
import testtools

from tests.fixtures import polling
from tests.functional.clients import server

BIN_DIR = os.path.dirname(sys.executable)
# What the plugin sends by default (its DEFAULT_HA_API_VERSION).
OSC_MICROVERSION = 'instance-ha 1.3'
COMMAND_TIMEOUT = 120
# The tests' own reads and writes, told apart from the clients' requests.
JSON_HEADERS = {'Accept': 'application/json',
                'Content-Type': 'application/json',
                'User-Agent': server.TEST_USER_AGENT}


def openstack_command():
    """Path of the ``openstack`` console script; fails when missing."""
    path = os.path.join(BIN_DIR, 'openstack')
    if not os.access(path, os.X_OK):
        raise AssertionError(
            '%s not found: install python-openstackclient and '
            'python-masakariclient (test extras)' % path)
    return path


def client_environment(**variables):
    """This process's environment without any OS_* variable, plus
    ``variables``: the command sees only the cloud the test gives it.
    """
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith('OS_')}
    environment.update(variables)
    return environment


def run_openstack(args, environment, expect_status=0):
    """``openstack ARGS``; asserts the exit status, returns the result."""
    result = subprocess.run(
        [openstack_command()] + list(args), env=environment,
        capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    if result.returncode != expect_status:
        raise AssertionError(
            'openstack %s: exit status %s, expected %s\nstdout: %s\n'
            'stderr: %s' % (' '.join(args), result.returncode,
                            expect_status, result.stdout,
                            result.stderr[-3000:]))
    return result


class ClientsTestCase(testtools.TestCase):
    """A fresh API over HTTP (noauth2, MariaDB) for every test."""

    def setUp(self):
        super().setUp()
        self.api = self.useFixture(server.ClientsAPI())
        self.environment = client_environment(
            OS_AUTH_TYPE='none', OS_ENDPOINT=self.api.url + '/v1')

    # --- the clients -------------------------------------------------------

    def openstack(self, *args, expect_status=0):
        """Run the CLI against the API (auth type none + endpoint)."""
        return run_openstack(args, self.environment, expect_status)

    def openstack_json(self, *args):
        """Run ``openstack ARGS -f json``; returns the parsed output."""
        return json.loads(self.openstack(*(args + ('-f', 'json'))).stdout)

    def sdk(self, **config):
        """An openstacksdk Connection to the API, no authentication;
        ``config`` e.g. ``instance_ha_api_version='1.1'``.
        """
        session = ks_session.Session(
            auth=noauth.NoAuth(endpoint=self.api.url + '/v1'))
        return openstack.connection.Connection(session=session, **config)

    # --- the API's state, read and written directly ----------------------

    def rest(self, method, path, expect_status=None, **kwargs):
        """A plain HTTP request to ``/v1`` + path (noauth2: admin)."""
        kwargs.setdefault('headers', JSON_HEADERS)
        response = requests.request(method, self.api.url + '/v1' + path,
                                    timeout=60, **kwargs)
        if expect_status is not None:
            self.assertEqual(expect_status, response.status_code,
                             response.text)
        return response

    def create_segment(self, name='segment-1', recovery_method='auto'):
        body = {'segment': {'name': name, 'recovery_method': recovery_method,
                            'service_type': 'COMPUTE'}}
        return self.rest('POST', '/segments', 201, json=body).json()[
            'segment']

    def create_host(self, segment, name='compute-1', **fields):
        body = {'host': dict({'name': name, 'type': 'COMPUTE',
                              'control_attributes': 'SSH'}, **fields)}
        return self.rest('POST', '/segments/%s/hosts' % segment['uuid'],
                         201, json=body).json()['host']

    def create_notification(self, hostname='compute-1', type='COMPUTE_HOST',
                            payload=None,
                            generated_time='2026-01-01T10:00:00'):
        body = {'notification': {
            'type': type, 'hostname': hostname,
            'generated_time': generated_time,
            'payload': payload or {'event': 'STOPPED',
                                   'host_status': 'NORMAL',
                                   'cluster_status': 'OFFLINE'}}}
        return self.rest('POST', '/notifications', 202, json=body).json()[
            'notification']

    def wait_processed(self, notification_uuid, timeout=30):
        """Wait until the engine stand-in has handled the RPC cast (and,
        for a COMPUTE_HOST notification, written its vmove).
        """
        polling.wait_until(
            lambda: notification_uuid in self.api.api.engine.processed,
            timeout, message='notification %s never reached the engine' %
            notification_uuid)
