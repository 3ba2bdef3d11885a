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

"""BMCs for the simulated hosts: a Redfish and an IPMI endpoint per host.

``BMCs(cloud, control_url).start()`` starts two processes: sushy-tools'
Redfish emulator (``redfish_bmc``: one system per compute host, named
after it) and pyghmi-based IPMI BMCs (``ipmi_bmc``: one UDP port per
host). Both are tied to the simulator's machines: a power off through
either BMC powers the host off (its compute service stops reporting), a
power on starts it again, and a power change made elsewhere (the other
BMC, the control API) is sent on to the Redfish emulator so that both
BMCs agree. ``fencing_entries()`` gives the per-host settings of a
Masakari fencing file pointing at them.

Each run keeps its files (configuration, htpasswd, the emulator's state)
in its own temporary directory, removed by ``stop()``.

Given a certificate and its key, the Redfish emulator serves HTTPS with
them (a BMC's self-signed certificate, to try TLS verification); the
fencing entries then name the CA bundle that verifies it.
"""

import base64
import ctypes
import json
import os
import queue
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from urllib import error as urlerror
from urllib import request as urlrequest

from masakari.simulator import model

DEFAULT_USERNAME = 'admin'
DEFAULT_PASSWORD = 'password'
START_TIMEOUT = 60
DRIVERS = ('ipmi', 'redfish')
POWER_STATES = {'on': 'On', 'off': 'Off'}
PR_SET_PDEATHSIG = 1


def system_id(host):
    """The Redfish system identity of a simulated host."""
    return model.stable_uuid('system', host)


def _free_tcp_port(address):
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


def _die_with_parent():
    """In the child, before exec: SIGTERM when the simulator dies (Linux),
    so that a killed simulator or test run leaves no BMC behind.

    The signal comes when the *thread* that started the child ends, so
    this is used only for children started by the main thread.
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG,
                                                signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def _write_private(path, text):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
              'w') as stream:
        stream.write(text)
    return path


class BMCs:
    """The BMC processes of one simulated cloud.

    :param cloud: the simulator's ``state.Cloud``.
    :param control_url: the simulator's control API URL (``/_simulator``).
    :param address: the address the BMCs listen on.
    :param power_delay: seconds a power change takes; None leaves the
        Redfish emulator's own 1-11 s and makes IPMI changes immediate.
    :param tls: ``(certificate file, key file)``: the Redfish emulator
        serves HTTPS with them; None: plain HTTP.
    :param tls_ca: the CA bundle the fencing entries give to verify the
        certificate (default: the certificate itself, self-signed).
    """

    def __init__(self, cloud, control_url, address='127.0.0.1',
                 username=DEFAULT_USERNAME, password=DEFAULT_PASSWORD,
                 power_delay=None, tls=None, tls_ca=None):
        self.cloud = cloud
        self.control_url = control_url
        self.address = address
        self.username = username
        self.password = password
        self.power_delay = power_delay
        self.tls = tls
        self.tls_ca = tls_ca or (tls[0] if tls else None)
        self.hosts = sorted(cloud.machines)
        self.redfish_url = None
        self.ipmi_ports = {}
        self._processes = []
        self._dir = None
        self._mirror_queue = None

    # --- start and stop ------------------------------------------------------

    def start(self):
        """Start both emulators and wait until they answer; return self.

        :raises: RuntimeError when one does not come up within
            START_TIMEOUT seconds (its output is in the message).
        """
        self._dir = tempfile.mkdtemp(prefix='masakari-simulator-bmc-')
        try:
            self._start_ipmi()
            self._start_redfish()
        except Exception:
            self.stop()
            raise
        # NOTE: one worker applies the changes in the order they happen.
        self._mirror_queue = queue.Queue()
        threading.Thread(target=self._mirror_worker, args=(
            self._mirror_queue,), daemon=True).start()
        self.cloud.power_listeners.append(self._mirror_to_redfish)
        return self

    def stop(self):
        if self._mirror_to_redfish in self.cloud.power_listeners:
            self.cloud.power_listeners.remove(self._mirror_to_redfish)
        if self._mirror_queue is not None:
            self._mirror_queue.put(None)
            self._mirror_queue = None
        for process, log in self._processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            log.close()
        self._processes = []
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def _spawn(self, name, argv, stdout=None):
        log = open(os.path.join(self._dir, '%s.log' % name), 'w+b')
        process = subprocess.Popen(
            [sys.executable, '-m', 'masakari.simulator.%s' % name] + argv,
            stdout=stdout or log, stderr=log, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent
            if threading.current_thread() is threading.main_thread()
            else None)
        self._processes.append((process, log))
        return process, log

    def _failure(self, name, log, why):
        log.seek(0)
        return RuntimeError('%s BMC emulator %s:\n%s' % (
            name, why, log.read()[-3000:].decode('utf-8', 'replace')))

    def _start_ipmi(self):
        config = _write_private(os.path.join(self._dir, 'ipmi.json'),
                                json.dumps({
                                    'control_url': self.control_url,
                                    'address': self.address,
                                    'username': self.username,
                                    'password': self.password,
                                    'power_delay': self.power_delay or 0,
                                    'hosts': self.hosts}))
        process, log = self._spawn('ipmi_bmc', [config],
                                   stdout=subprocess.PIPE)
        # NOTE: a reader thread, so that the deadline holds even when the
        # process neither prints nor exits.
        lines = []
        reader = threading.Thread(
            target=lambda: lines.append(process.stdout.readline()),
            daemon=True)
        reader.start()
        reader.join(START_TIMEOUT)
        line = lines[0].decode() if lines else ''
        if not line.startswith('ready '):
            process.kill()
            raise self._failure('IPMI', log, 'did not start')
        self.ipmi_ports = json.loads(line[len('ready '):])

    def _redfish_config(self, port):
        import bcrypt  # noqa: only needed with the BMCs (sushy-tools needs it)
        htpasswd = _write_private(
            os.path.join(self._dir, 'htpasswd'), '%s:%s\n' % (
                self.username, bcrypt.hashpw(self.password.encode(),
                                             bcrypt.gensalt(4)).decode()))
        state_dir = os.path.join(self._dir, 'redfish-state')
        os.mkdir(state_dir)
        systems = [{'uuid': system_id(host), 'name': host,
                    'power_state': self.cloud.machine(host)['power'].title(),
                    'external_notifier': True, 'nics': []}
                   for host in self.hosts]
        settings = {
            'SUSHY_EMULATOR_LISTEN_IP': self.address,
            'SUSHY_EMULATOR_LISTEN_PORT': port,
            'SUSHY_EMULATOR_FAKE_DRIVER': True,
            'SUSHY_EMULATOR_FAKE_SYSTEMS': systems,
            'SUSHY_EMULATOR_STATE_DIR': state_dir,
            'SUSHY_EMULATOR_AUTH_FILE': htpasswd,
            'EXTERNAL_NOTIFICATION_URL':
                self.control_url + '/redfish-events',
        }
        if self.tls:
            settings['SUSHY_EMULATOR_SSL_CERT'] = self.tls[0]
            settings['SUSHY_EMULATOR_SSL_KEY'] = self.tls[1]
        return _write_private(
            os.path.join(self._dir, 'redfish.conf'),
            ''.join('%s = %r\n' % item for item in settings.items()))

    def _start_redfish(self):
        port = _free_tcp_port(self.address)
        argv = [self._redfish_config(port)]
        if self.power_delay is not None:
            argv.append(str(self.power_delay))
        process, log = self._spawn('redfish_bmc', argv)
        url = '%s://%s:%d' % ('https' if self.tls else 'http', self.address,
                              port)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise self._failure('Redfish', log, 'exited')
            try:
                with urlrequest.urlopen(url + '/redfish/v1/', timeout=2,
                                        context=self._own_tls()):
                    break
            except urlerror.HTTPError:
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise self._failure('Redfish', log, 'did not answer')
        self.redfish_url = url

    def _own_tls(self):
        """The TLS context of the simulator's own calls to the emulator.

        NOTE: unverified: the simulator talks to the process it started;
        verifying is what the tests of the fencing driver are about.
        """
        if not self.tls:
            return None
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context

    # --- the tie -------------------------------------------------------------

    def _mirror_to_redfish(self, host, power, source):
        """Send a power change made elsewhere on to the Redfish system."""
        mirror_queue = self._mirror_queue
        if source != 'redfish' and host in self.hosts and mirror_queue:
            mirror_queue.put((host, power))

    def _mirror_worker(self, mirror_queue):
        for change in iter(mirror_queue.get, None):
            self._set_redfish_power(*change)

    def _set_redfish_power(self, host, power):
        call = urlrequest.Request(
            '%s/masakari-simulator/systems/%s/power'
            % (self.redfish_url, host),
            data=json.dumps({'power_state': POWER_STATES[power]}).encode(),
            method='PUT', headers={
                'Content-Type': 'application/json',
                'Authorization': 'Basic ' + base64.b64encode(
                    ('%s:%s' % (self.username, self.password)).encode()
                ).decode()})
        try:
            urlrequest.urlopen(call, timeout=10,
                               context=self._own_tls()).close()
        except OSError:
            # NOTE: the emulator is stopping with the simulator.
            pass

    # --- what Masakari needs -------------------------------------------------

    def endpoints(self):
        """{host: {'redfish': {...}, 'ipmi': {...}}}, without credentials."""
        return {host: {'redfish': {'url': self.redfish_url,
                                   'system_id': system_id(host)},
                       'ipmi': {'address': self.address,
                                'port': self.ipmi_ports[host]}}
                for host in self.hosts}

    def fencing_entries(self, driver='ipmi'):
        """Host entries of a Masakari fencing file for these BMCs."""
        if driver not in DRIVERS:
            raise ValueError('fencing driver must be one of %s'
                             % ', '.join(DRIVERS))
        credentials = {'username': self.username, 'password': self.password}
        if driver == 'redfish':
            if self.tls_ca:
                credentials['verify'] = self.tls_ca
            return {host: dict(credentials, driver='redfish',
                               address=self.redfish_url,
                               system_id=system_id(host))
                    for host in self.hosts}
        return {host: dict(credentials, driver='ipmi', address=self.address,
                           port=self.ipmi_ports[host])
                for host in self.hosts}

    def write_fencing_file(self, path, driver='ipmi'):
        """Write the fencing file (YAML is a superset of JSON; mode 0600)."""
        return _write_private(path, json.dumps(
            self.fencing_entries(driver), indent=2, sort_keys=True) + '\n')
