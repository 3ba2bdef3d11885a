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

"""The options of 22.0.0 and our extensions, as data: the expectation of
the option tests.

One row per option: (group, name, type, default, flags). Flags not given
take their "absent" value: no min/max/choices, no deprecated alias, not
deprecated for removal, not mutable, not secret, no sample default.
"""

import os
import socket
import sys

import masakari

Str, Int, Bool, List, Dict, URI, Host, Float = (
    'String', 'Integer', 'Boolean', 'List', 'Dict', 'URI', 'HostAddress',
    'Float')

PACKAGE_PARENT = os.path.dirname(os.path.dirname(masakari.__file__))

_REMOVAL = {'for_removal': True}
_OSAPI_V1 = {'for_removal': True, 'deprecated': [('osapi_v1', None)]}

DEFAULT = [
    # api
    ('DEFAULT', 'auth_strategy', Str, 'keystone',
     {'choices': ['keystone', 'noauth2']}),
    ('DEFAULT', 'use_forwarded_for', Bool, False, _REMOVAL),
    ('DEFAULT', 'osapi_max_limit', Int, 1000, {}),
    ('DEFAULT', 'osapi_masakari_link_prefix', Str, None, {}),
    ('DEFAULT', 'notification_delay_max', Int, 5, {'min': 0}),
    # base
    ('DEFAULT', 'tempdir', Str, None, {}),
    ('DEFAULT', 'monkey_patch', Bool, False, {}),
    ('DEFAULT', 'monkey_patch_modules', List,
     ['masakari.api:masakari.cmd'], {}),
    # engine
    ('DEFAULT', 'masakari_topic', Str, 'ha_engine',
     {'for_removal': True, 'since': '3.0.0'}),
    ('DEFAULT', 'duplicate_notification_detection_interval', Int, 180,
     {'min': 0}),
    ('DEFAULT', 'wait_period_after_service_update', Int, 180, {}),
    ('DEFAULT', 'wait_period_after_evacuation', Int, 90, {}),
    ('DEFAULT', 'verify_interval', Int, 1, {}),
    ('DEFAULT', 'wait_period_after_power_off', Int, 180, {}),
    ('DEFAULT', 'wait_period_after_power_on', Int, 60, {}),
    ('DEFAULT', 'process_unfinished_notifications_interval', Int, 120, {}),
    ('DEFAULT', 'retry_notification_new_status_interval', Int, 60,
     {'mutable': True}),
    ('DEFAULT', 'check_expired_notifications_interval', Int, 600, {}),
    ('DEFAULT', 'notifications_expired_interval', Int, 86400, {}),
    ('DEFAULT', 'host_failure_recovery_threads', Int, 3, {'min': 1}),
    ('DEFAULT', 'notification_driver', Str, 'taskflow_driver', {}),
    # exceptions
    ('DEFAULT', 'fatal_exception_format_errors', Bool, False, {}),
    # nova
    ('DEFAULT', 'nova_catalog_admin_info', Str, 'compute:nova:publicURL',
     {}),
    ('DEFAULT', 'os_region_name', Str, None, {}),
    ('DEFAULT', 'nova_ca_certificates_file', Str, None, {}),
    ('DEFAULT', 'nova_api_insecure', Bool, False, {}),
    ('DEFAULT', 'os_privileged_user_name', Str, None, {}),
    ('DEFAULT', 'os_privileged_user_password', Str, None, {'secret': True}),
    ('DEFAULT', 'os_privileged_user_tenant', Str, None, {}),
    ('DEFAULT', 'os_privileged_user_auth_url', URI, None, {}),
    ('DEFAULT', 'os_user_domain_name', Str, 'default', {}),
    ('DEFAULT', 'os_project_domain_name', Str, 'default', {}),
    ('DEFAULT', 'os_system_scope', Str, None, {}),
    # NOTE: not in the reference: our bound on every Nova/Keystone request.
    ('DEFAULT', 'nova_api_timeout', Float, 60.0, {'min': 1.0}),
    # paths
    ('DEFAULT', 'pybasedir', Str, PACKAGE_PARENT,
     {'sample_default': '<Path>'}),
    ('DEFAULT', 'bindir', Str, os.path.join(sys.prefix, 'local', 'bin'),
     {'sample_default': '<sys.prefix>/local/bin'}),
    ('DEFAULT', 'state_path', Str, '$pybasedir', {}),
    # service
    ('DEFAULT', 'host', Host, socket.gethostname(),
     {'sample_default': '<HOSTNAME>'}),
    ('DEFAULT', 'engine_manager', Str,
     'masakari.engine.manager.MasakariManager', {}),
    ('DEFAULT', 'report_interval', Int, 10, {}),
    ('DEFAULT', 'periodic_enable', Bool, True, {}),
    ('DEFAULT', 'periodic_interval_max', Int, 300, {}),
    ('DEFAULT', 'periodic_fuzzy_delay', Int, 60, {}),
    ('DEFAULT', 'use_ssl', Bool, False, {}),
    ('DEFAULT', 'masakari_api_listen', Host, '0.0.0.0', {}),
    ('DEFAULT', 'masakari_api_listen_port', Int, 15868,
     {'min': 1, 'max': 65535}),
    ('DEFAULT', 'masakari_api_workers', Int, None, {}),
    ('DEFAULT', 'service_down_time', Int, 60, {}),
]

GROUPS = [
    ('coordination', 'backend_url', Str, None, {'secret': True}),
    ('host_failure', 'evacuate_all_instances', Bool, True, {}),
    ('host_failure', 'ha_enabled_instance_metadata_key', Str, 'HA_Enabled',
     {}),
    ('host_failure', 'ignore_instances_in_error_state', Bool, False, {}),
    ('host_failure', 'add_reserved_host_to_aggregate', Bool, False, {}),
    ('host_failure', 'service_disable_reason', Str,
     'Masakari detected host failed.', {}),
    ('host_failure', 'poll_compute_service_down', Bool, False, {}),
    ('host_failure', 'evacuation_poll_interval', Float, None,
     {'min': 0.05}),
    # Extension: one evacuation budget for the engine.
    ('host_failure', 'max_concurrent_evacuations', Int, None, {'min': 1}),
    # Extension: the per-phase timeline's budget (metrics).
    ('host_failure', 'recovery_time_budget', Float, None, {'min': 0}),
    ('instance_failure', 'process_all_instances', Bool, False, {}),
    ('instance_failure', 'ha_enabled_instance_metadata_key', Str,
     'HA_Enabled', {}),
    ('process_failure', 'service_disable_reason', Str,
     'Masakari detected process failed.', {}),
    ('taskflow', 'connection', Str, None, {'secret': True}),
    ('osapi_v1', 'extensions_blacklist', List, [], _OSAPI_V1),
    ('osapi_v1', 'extensions_whitelist', List, [], _OSAPI_V1),
    ('osapi_v1', 'project_id_regex', Str, None, _OSAPI_V1),
    ('ssl', 'ca_file', Str, None, _REMOVAL),
    ('ssl', 'cert_file', Str, None, _REMOVAL),
    ('ssl', 'key_file', Str, None, _REMOVAL),
    ('ssl', 'version', Str, None, _REMOVAL),
    ('ssl', 'ciphers', Str, None, _REMOVAL),
    ('wsgi', 'api_paste_config', Str, 'api-paste.ini', {}),
    ('wsgi', 'wsgi_log_format', Str,
     '%(client_ip)s "%(request_line)s" status: %(status_code)s len: '
     '%(body_length)s time: %(wall_seconds).7f', {}),
    ('wsgi', 'secure_proxy_ssl_header', Str, None, _REMOVAL),
    ('wsgi', 'ssl_ca_file', Str, None, {}),
    ('wsgi', 'ssl_cert_file', Str, None, {}),
    ('wsgi', 'ssl_key_file', Str, None, {}),
    ('wsgi', 'tcp_keepidle', Int, 600, {}),
    ('wsgi', 'default_pool_size', Int, 1000, {}),
    ('wsgi', 'max_header_line', Int, 16384, {}),
    ('wsgi', 'keep_alive', Bool, True, {}),
    ('wsgi', 'client_socket_timeout', Int, 900, {}),
    # Extension: Prometheus metrics.
    ('metrics', 'enabled', Bool, False, {}),
    ('metrics', 'listen_address', Host, '127.0.0.1', {}),
    ('metrics', 'api_listen_port', Int, 9781, {'min': 1, 'max': 65535}),
    ('metrics', 'engine_listen_port', Int, 9782,
     {'min': 1, 'max': 65535}),
    ('metrics', 'multiprocess_dir', Str, None, {}),
    # NOTE: not in the reference: fencing through the BMC.
    ('fencing', 'config_file', Str, None, {}),
    ('fencing', 'required', Bool, False, {}),
    ('fencing', 'power_off_timeout', Int, 60, {'min': 1}),
    ('fencing', 'poll_interval', Float, 1.0, {'min': 0.01}),
    # NOTE: not in the reference: the mass-failure brake and the return to
    # service of fenced hosts.
    ('host_failure', 'max_failed_hosts', Int, 0, {'min': 0}),
    ('host_failure', 'max_failed_hosts_percent', Int, 0,
     {'min': 0, 'max': 100}),
    ('host_failure', 'failed_hosts_window', Int, 600, {'min': 1}),
    ('host_failure', 'held_notifications_check_interval', Int, 30,
     {'min': 1}),
    ('fencing', 'return_to_service', Bool, False, {}),
    ('fencing', 'compute_up_timeout', Int, 600, {'min': 1}),
    ('fencing', 'return_to_service_interval', Int, 30, {'min': 1}),
    # takeover (an extension: recoveries of dead engines, lost casts)
    ('takeover', 'lease_timeout', Int, 30, {'min': 0}),
    ('takeover', 'new_notification_age', Int, 10, {'min': 0}),
    # NOTE: not in the reference: the failover capacity.
    ('host_failure', 'placement_aware', Bool, False, {}),
    ('host_failure', 'priority_metadata_key', Str, 'HA_Priority', {}),
    ('metrics', 'segment_capacity_interval', Int, 0, {'min': 0}),
    ('metrics', 'failures_tolerated_target', Int, 1, {'min': 0}),
]

_FLOWS = 'taskflow_driver_recovery_flows'
RECOVERY_FLOWS = [
    (_FLOWS, 'host_auto_failure_recovery_tasks', Dict,
     {'pre': ['disable_compute_service_task'],
      'main': ['prepare_HA_enabled_instances_task'],
      'post': ['evacuate_instances_task']}, {}),
    (_FLOWS, 'host_rh_failure_recovery_tasks', Dict,
     {'pre': ['disable_compute_service_task'],
      'main': ['prepare_HA_enabled_instances_task',
               'evacuate_instances_task'],
      'post': []}, {}),
    (_FLOWS, 'instance_failure_recovery_tasks', Dict,
     {'pre': ['stop_instance_task'],
      'main': ['start_instance_task'],
      'post': ['confirm_instance_active_task']}, {}),
    (_FLOWS, 'process_failure_recovery_tasks', Dict,
     {'pre': ['disable_compute_node_task'],
      'main': ['confirm_compute_node_disabled_task'],
      'post': []}, {}),
]

# Listed by the masakari.conf generator namespace.
LISTED = DEFAULT + GROUPS

# keystoneauth session options, registered in [DEFAULT] but never listed:
# (file spelling, type, default).
SESSION = [
    ('cafile', Str, None),
    ('certfile', Str, None),
    ('keyfile', Str, None),
    ('insecure', Bool, False),
    ('timeout', Float, None),
    ('collect_timing', Bool, False),
    ('split_loggers', Bool, False),
    ('tls_ciphers', Str, None),
    ('tls_min_version', Str, None),
]

# Group order of the generated masakari.conf sample.
SAMPLE_GROUPS = [
    'DEFAULT', 'coordination', 'cors', 'database', 'fencing',
    'healthcheck', 'host_failure', 'instance_failure', 'keystone_authtoken',
    'metrics', 'osapi_v1',
    'oslo_messaging_kafka', 'oslo_messaging_notifications',
    'oslo_messaging_rabbit', 'oslo_middleware', 'oslo_middleware_tracing',
    'oslo_policy', 'oslo_versionedobjects', 'process_failure', 'ssl',
    'takeover', 'taskflow', 'wsgi',
]


def count_by_group(rows):
    counts = {}
    for row in rows:
        counts[row[0]] = counts.get(row[0], 0) + 1
    return counts
