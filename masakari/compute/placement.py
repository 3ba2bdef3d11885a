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

"""Reads of the Placement API for the failover capacity model.

Placement is found in the Keystone catalogue (service type
``placement``, the endpoint type and region of the Nova endpoint) and
called on the Nova client's keystoneauth session, with its token. Not in
Masakari 22.0.0: only the capacity commands, metrics and the opt-in
[host_failure]/placement_aware recovery call it. Errors are translated
as the Nova client's are.
"""

from keystoneauth1 import adapter
from keystoneauth1 import exceptions as ks_exceptions
from oslo_log import log as logging

from masakari.compute import nova
import masakari.conf
from masakari import exception

LOG = logging.getLogger(__name__)
CONF = masakari.conf.CONF

SERVICE_TYPE = 'placement'
# 1.14: providers carry root_provider_uuid, so nested providers (which
# the model leaves out) are told apart from a compute node's root.
API_VERSION = '1.14'


def _client(context):
    parts = CONF.nova_catalog_admin_info.split(':')
    return adapter.Adapter(
        nova.session(), service_type=SERVICE_TYPE,
        interface=parts[2] if len(parts) > 2 else 'public',
        region_name=CONF.os_region_name, default_microversion=API_VERSION,
        global_request_id=context.global_request_id or context.request_id)


def _get(context, path):
    try:
        return _client(context).get(path).json()
    except ks_exceptions.EndpointNotFound as error:
        raise exception.CapacityUnknown(
            reason='no Placement endpoint in the catalogue (%s)' % error)


class API:
    """One method per Placement read; each takes the context first."""

    @nova.translate_nova_exception
    def providers(self, context):
        """Root resource providers, by name: ``{name: uuid}``."""
        LOG.debug('List the resource providers')
        return {provider['name']: provider['uuid']
                for provider in _get(context, '/resource_providers')[
                    'resource_providers']
                if provider.get('root_provider_uuid',
                                provider['uuid']) == provider['uuid']}

    @nova.translate_nova_exception
    def inventories(self, context, provider):
        """``{resource class: {total, reserved, min_unit, max_unit,
        step_size, allocation_ratio}}`` of a provider.
        """
        return _get(context, '/resource_providers/%s/inventories'
                    % provider)['inventories']

    @nova.translate_nova_exception
    def allocations(self, context, provider):
        """``{consumer uuid: {resource class: amount}}`` held on a
        provider (their sums are the provider's usages).
        """
        return {consumer: allocation['resources']
                for consumer, allocation in _get(
                    context, '/resource_providers/%s/allocations'
                    % provider)['allocations'].items()}
