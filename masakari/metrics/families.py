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

"""The metric families, one group per component, built on first use.

Label values are bounded: route templates, HTTP methods and statuses,
notification types and statuses, recovery methods, phase names, Nova
operation names. No host name, uuid or free text is ever a label value.
The "Monitoring Masakari" page of the administrator guide describes
every family.
"""

import functools
import types

import prometheus_client as prom

# Seconds: API requests, Nova requests (prometheus_client's defaults
# stop at 10 s, short of a slow Nova).
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
                   30, 60)
# Seconds: whole recoveries and their phases, up to the default budget of
# a slow cloud (wait_period_after_service_update is 180 s).
RECOVERY_BUCKETS = (0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800,
                    3600)
INSTANCE_BUCKETS = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500)
# The gauges of a process that may be one of several: the sum of the
# live processes.
LIVE_SUM = {'multiprocess_mode': 'livesum'}

# attribute: (kind, name, help, labels, keyword arguments)
API = {
    'requests': (
        prom.Counter, 'masakari_api_requests',
        'API requests answered, by route template, method and HTTP '
        'status.', ['route', 'method', 'status'], {}),
    'latency': (
        prom.Histogram, 'masakari_api_request_duration_seconds',
        'Time to answer an API request, by route template and method.',
        ['route', 'method'], {'buckets': REQUEST_BUCKETS}),
    'accepted': (
        prom.Counter, 'masakari_api_notifications_accepted',
        'Notifications recorded and sent to an engine, by notification '
        'type.', ['type'], {}),
}

ENGINE = {
    'processed': (
        prom.Counter, 'masakari_engine_notifications_processed',
        'Notifications processed, by type, recovery method (of the '
        'segment; "none" for instance and process notifications) and '
        'final status.', ['type', 'recovery_method', 'status'], {}),
    'duration': (
        prom.Histogram, 'masakari_engine_recovery_duration_seconds',
        'Time to process a notification, by type and recovery method.',
        ['type', 'recovery_method'], {'buckets': RECOVERY_BUCKETS}),
    'phase': (
        prom.Histogram, 'masakari_engine_recovery_phase_duration_seconds',
        'Time spent in each phase of a recovery, from its stored progress '
        'details.', ['type', 'phase'], {'buckets': RECOVERY_BUCKETS}),
    'over_budget': (
        prom.Counter, 'masakari_engine_recovery_over_budget',
        'Host recoveries that took longer than [host_failure]/'
        'recovery_time_budget, by their slowest phase.',
        ['slowest_phase'], {}),
    'evacuations': (
        prom.Counter, 'masakari_engine_evacuations',
        'Instance evacuations ended, by result (the vmove status: '
        'succeeded, failed, ignored).', ['result'], {}),
    'instances': (
        prom.Histogram, 'masakari_engine_instances_recovered',
        'Instances evacuated successfully per host recovery.', [],
        {'buckets': INSTANCE_BUCKETS}),
    'in_progress': (
        prom.Gauge, 'masakari_engine_recoveries_in_progress',
        'Notifications this engine is processing now, by type.', ['type'],
        LIVE_SUM),
    'retries': (
        prom.Counter, 'masakari_engine_notification_retries',
        'Notifications processed again after an error, by type.', ['type'],
        {}),
    'holds': (
        prom.Counter, 'masakari_engine_brake_holds',
        'Times the mass-failure brake held a host notification.', [], {}),
}

NOVA = {
    'requests': (
        prom.Counter, 'masakari_nova_requests',
        'Requests to the Nova API, by operation and HTTP status ("error" '
        'when no answer came).', ['operation', 'status'], {}),
    'latency': (
        prom.Histogram, 'masakari_nova_request_duration_seconds',
        "Time to Nova's answer, by operation.", ['operation'],
        {'buckets': REQUEST_BUCKETS}),
    'keystone': (
        prom.Counter, 'masakari_keystone_requests',
        'Requests to Keystone, by operation (a token request is "POST '
        '/auth/tokens") and HTTP status ("error" when no answer came).',
        ['operation', 'status'], {}),
}


def build(table, registry=prom.REGISTRY):
    """The families of ``table`` as attributes, registered in
    ``registry`` (a test gives a fresh one, to see series appear).
    """
    return types.SimpleNamespace(**{
        attribute: kind(name, documentation, labels, registry=registry,
                        **options)
        for attribute, (kind, name, documentation, labels, options)
        in table.items()})


@functools.cache
def api():
    """masakari-api: requests and accepted notifications."""
    return build(API)


@functools.cache
def engine():
    """masakari-engine: notifications, recoveries, evacuations."""
    return build(ENGINE)


@functools.cache
def nova():
    """Both services: HTTP requests to Nova and Keystone."""
    return build(NOVA)
