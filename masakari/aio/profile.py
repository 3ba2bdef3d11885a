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

"""The embedded configuration of masakari-aio.

One masakari.conf, written into the state directory so that an operator can
read (and reuse) it: SQLite files for the main and the taskflow databases,
the in-process ``fake:/`` transport, noauth2, no random notification delay,
a short wait after disabling a failed host's service, and the Nova options
pointing at the simulated cloud. Files given with ``--config-file`` are
read after it, so their values win.
"""

import os
import sys

import yaml

import masakari

CONFIG_FILE = 'masakari.conf'
LOG_FILE = 'masakari.log'
MAIN_DB_FILE = 'masakari.sqlite'
TASKFLOW_DB_FILE = 'taskflow.sqlite'
PASTE_FILE = 'api-paste.ini'
FENCING_FILE = 'fencing.yaml'
FENCING_CONFIG_FILE = 'fencing.conf'
METRICS_CONFIG_FILE = 'metrics.conf'
PROMETHEUS_FILE = 'prometheus.yml'
ALERTS_FILE = os.path.join('monitoring', 'prometheus-alerts.yaml')
DASHBOARD_FILE = os.path.join('monitoring', 'grafana-dashboard.json')
# Seconds a host recovery may take before it is over budget with
# --metrics: less than the demo's, so that its recovery shows the warning
# and the MasakariRecoveryOverBudget alert.
METRICS_RECOVERY_BUDGET = 1
# Seconds between two computations of the failover capacity with
# --metrics ([metrics]/segment_capacity_interval).
METRICS_CAPACITY_INTERVAL = 10
# Seconds between Prometheus's scrapes of the all-in-one.
SCRAPE_INTERVAL = 5
# Seconds to wait after disabling a failed host's service (Masakari: 180).
DEFAULT_WAIT = 3

_TEMPLATE = """\
# Written by masakari-aio: the all-in-one profile (see masakari-aio --help).
[DEFAULT]
auth_strategy = noauth2
transport_url = fake:/
notification_delay_max = 0
wait_period_after_service_update = {wait}
periodic_fuzzy_delay = 0
debug = {debug}
log_file = {log_file}
os_privileged_user_auth_url = {auth_url}
os_privileged_user_name = {user}
os_privileged_user_password = {password}
{project_line}
[keystone_authtoken]
auth_type = password

[wsgi]
api_paste_config = {paste_file}

[database]
connection = sqlite:///{main_db}

[taskflow]
connection = sqlite:///{taskflow_db}
"""


def data_file(name):
    """A file of etc/masakari in this installation (e.g. api-paste.ini):
    the source tree's (a checkout, an editable install), else the data
    files installed under the environment's prefix.

    :raises: FileNotFoundError when neither exists.
    """
    package_dir = os.path.dirname(os.path.abspath(masakari.__file__))
    candidates = [
        os.path.join(os.path.dirname(package_dir), 'etc', 'masakari', name),
        os.path.join(sys.prefix, 'etc', 'masakari', name),
    ]
    for path in candidates:
        if os.path.exists(path):
            return path
    raise FileNotFoundError('%s not found in %s' % (
        name, ', '.join(candidates)))


def write(state_dir, simulator_identity_url, user, wait, debug=False):
    """Write ``<state_dir>/masakari.conf`` and return its path.

    :param simulator_identity_url: the simulated Keystone's URL.
    :param user: the topology's user entry (``name``, ``password``,
        ``roles`` keyed by project) Masakari authenticates as.
    :param wait: [DEFAULT]/wait_period_after_service_update, in seconds.
    """
    project = next(iter(user.get('roles') or {}), None)
    # NOTE: a user with system roles only authenticates system-scoped.
    project_line = ('os_privileged_user_tenant = %s\n' % project if project
                    else 'os_system_scope = all\n')
    text = _TEMPLATE.format(
        wait=int(wait), debug=str(bool(debug)).lower(),
        log_file=os.path.join(state_dir, LOG_FILE),
        auth_url=simulator_identity_url, user=user['name'],
        password=user['password'], project_line=project_line,
        paste_file=data_file(PASTE_FILE),
        main_db=os.path.join(state_dir, MAIN_DB_FILE),
        taskflow_db=os.path.join(state_dir, TASKFLOW_DB_FILE))
    path = os.path.join(state_dir, CONFIG_FILE)
    with open(path, 'w') as conf_file:
        conf_file.write(text)
    return path


def _write_private(path, text):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
              'w') as stream:
        stream.write(text)
    return path


def write_fencing(state_dir, entries):
    """Write the fencing file of ``entries`` (host -> BMC settings) and
    ``<state_dir>/fencing.conf`` pointing the engine at it; return the
    configuration file's path.

    The BMC poll is short so that the demo shows the power off promptly.
    """
    entries = {host: dict(settings, verify=False, poll_interval=0.1)
               for host, settings in entries.items()}
    fencing_file = _write_private(os.path.join(state_dir, FENCING_FILE),
                                  yaml.safe_dump(entries))
    return _write_private(
        os.path.join(state_dir, FENCING_CONFIG_FILE),
        '[fencing]\nconfig_file = %s\n\n'
        '[DEFAULT]\nhost_failure_recovery_threads = 20\n\n'
        '[host_failure]\nevacuation_poll_interval = 0.2\n' % fencing_file)


_METRICS_TEMPLATE = """\
# Written by masakari-aio --metrics.
[metrics]
enabled = true
# Every segment's failover capacity, for the dashboard's capacity panels.
segment_capacity_interval = {capacity_interval}

[host_failure]
# Short, so that the demo's recovery is over budget (the WARNING and the
# MasakariRecoveryOverBudget alert); a --config-file may change it.
recovery_time_budget = {budget}
"""

_PROMETHEUS_TEMPLATE = """\
# Written by masakari-aio --metrics: scrape its two endpoints, with the
# shipped alert rules.
global:
  scrape_interval: {interval}s
  evaluation_interval: {interval}s
rule_files:
  - {alerts}
scrape_configs:
  - job_name: masakari-api
    static_configs:
      - targets: ['{api}']
  - job_name: masakari-engine
    static_configs:
      - targets: ['{engine}']
"""


def write_metrics(state_dir):
    """Write ``<state_dir>/metrics.conf`` (metrics on, a short recovery
    budget) and return its path.
    """
    path = os.path.join(state_dir, METRICS_CONFIG_FILE)
    with open(path, 'w') as conf_file:
        conf_file.write(_METRICS_TEMPLATE.format(
            budget=METRICS_RECOVERY_BUDGET,
            capacity_interval=METRICS_CAPACITY_INTERVAL))
    return path


def write_prometheus(state_dir, api_target, engine_target):
    """Write ``<state_dir>/prometheus.yml``, a Prometheus configuration
    scraping the endpoints (``host:port``) as the jobs masakari-api and
    masakari-engine with the shipped alert rules; return its path.
    """
    path = os.path.join(state_dir, PROMETHEUS_FILE)
    with open(path, 'w') as stream:
        stream.write(_PROMETHEUS_TEMPLATE.format(
            interval=SCRAPE_INTERVAL, alerts=data_file(ALERTS_FILE),
            api=api_target, engine=engine_target))
    return path
