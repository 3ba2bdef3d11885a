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

"""The Nova client used by the engine (recovery) and the API (host check).

python-novaclient at compute microversion 2.53 over a keystoneauth session
authenticated with the privileged account of the [DEFAULT] os_privileged_*
options. The requests, their order and the error translation are those of
Masakari 22.0.0, except for the fixes listed on the
"Differences from Masakari 22.0.0" page:

* one session and auth plugin per process for a given credential set: the
  token is reused until it is about to expire (or Nova answers 401), where
  22.0.0 authenticates again for every call;
* every HTTP request (to Keystone and Nova) times out after
  [DEFAULT]nova_api_timeout seconds;
* Nova and Keystone 5xx answers become MasakariException (same text);
* servers of a host are listed page after page until Nova's last page;
* a host without a matching compute service raises ComputeNotFoundByName
  instead of IndexError.
"""

import functools
import threading
from urllib import parse

from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import loading as ks_loading
from keystoneauth1 import session as ks_session
from novaclient import api_versions
from novaclient import client as nova_client
from novaclient import exceptions as nova_exceptions
from novaclient.v2 import servers as nova_servers
from oslo_log import log as logging
from oslo_utils import timeutils
import requests

import masakari.conf
from masakari import exception
from masakari.metrics import nova as nova_metrics

LOG = logging.getLogger(__name__)
CONF = masakari.conf.CONF
CONF.import_opt('auth_type', 'keystonemiddleware.auth_token',
                group='keystone_authtoken')

NOVA_API_VERSION = api_versions.APIVersion('2.53')
COMPUTE_BINARY = 'nova-compute'
# Fields of a Nova server (microversion 2.53).
VM_STATE = 'OS-EXT-STS:vm_state'
TASK_STATE = 'OS-EXT-STS:task_state'
POWER_STATE = 'OS-EXT-STS:power_state'
HYPERVISOR = 'OS-EXT-SRV-ATTR:hypervisor_hostname'

_session_lock = threading.Lock()
# (credential set, session): the one session of this process.
_current_session = (None, None)


def _credentials():
    """Everything that decides which token and TLS settings to use."""
    if CONF.nova_api_insecure:
        verify = False
    else:
        verify = CONF.nova_ca_certificates_file or True
    return (CONF.keystone_authtoken.auth_type,
            CONF.os_privileged_user_auth_url,
            CONF.os_privileged_user_name,
            CONF.os_privileged_user_password,
            CONF.os_privileged_user_tenant,
            CONF.os_user_domain_name,
            CONF.os_project_domain_name,
            CONF.os_system_scope,
            verify,
            CONF.nova_api_timeout)


def session():
    """The process's keystoneauth session for the configured account.

    Built on first use and whenever the options it depends on change; the
    auth plugin inside keeps its token until it is about to expire.
    """
    global _current_session
    credentials = _credentials()
    with _session_lock:
        if _current_session[0] != credentials:
            (auth_type, auth_url, username, password, project_name,
             user_domain_name, project_domain_name, system_scope, verify,
             timeout) = credentials
            loader = ks_loading.get_plugin_loader(auth_type)
            auth = loader.load_from_options(
                auth_url=auth_url, username=username, password=password,
                project_name=project_name, user_domain_name=user_domain_name,
                project_domain_name=project_domain_name,
                system_scope=system_scope)
            session = ks_session.Session(
                auth=auth, verify=verify, timeout=timeout,
                session=nova_metrics.requests_session(auth_url))
            _current_session = (credentials, session)
        return _current_session[1]


def forget_session():
    """Drop the cached session: the next call authenticates again.

    For tests that start a fresh cloud between cases.
    """
    global _current_session
    with _session_lock:
        _current_session = (None, None)


def novaclient(context):
    """A novaclient Client on the shared session, for this context.

    Its requests carry the context's global request id (or its request id)
    as X-OpenStack-Request-ID.
    """
    service_type, service_name, endpoint_type = (
        CONF.nova_catalog_admin_info.split(':'))
    return nova_client.Client(
        NOVA_API_VERSION, session=session(), service_type=service_type,
        service_name=service_name, endpoint_type=endpoint_type,
        region_name=CONF.os_region_name,
        global_request_id=context.global_request_id or context.request_id)


def translate_nova_exception(method):
    """Turn client errors into masakari.exception classes.

    Within a recovery run under a lease, the context first confirms that
    this engine still holds the recovery (RequestContext.
    confirm_ownership): an engine that lost it makes no Nova call.
    """
    @functools.wraps(method)
    def wrapper(self, context, *args, **kwargs):
        confirm = getattr(context, 'confirm_ownership', None)
        if confirm is not None:
            confirm()
        try:
            return method(self, context, *args, **kwargs)
        except (requests.Timeout, nova_exceptions.CommandError,
                ks_exceptions.ConnectionError,
                ks_exceptions.DiscoveryFailure) as error:
            raise exception.NovaUnreachable(reason=error) from error
        except (ks_exceptions.BadRequest, nova_exceptions.BadRequest) as error:
            raise exception.InvalidInput(reason=str(error)) from error
        except (ks_exceptions.Forbidden, nova_exceptions.Forbidden) as error:
            raise exception.Forbidden(str(error)) from error
        except nova_exceptions.NotFound as error:
            raise exception.NotFound() from error
        except nova_exceptions.Conflict as error:
            raise exception.Conflict() from error
        except nova_exceptions.ClientException as error:
            if (error.code or 0) < 500:
                raise
            raise exception.MasakariException(str(error)) from error
        except ks_exceptions.HttpError as error:
            if (error.http_status or 0) < 500:
                raise
            raise exception.MasakariException(str(error)) from error
    return wrapper


def _service(nova, host, binary):
    """The first service of host/binary; ComputeNotFoundByName if none."""
    services = nova.services.list(host=host, binary=binary)
    if not services:
        raise exception.ComputeNotFoundByName(compute_name=host)
    return services[0]


def _server_command(context, command, uuid):
    """``novaclient.servers.<command>(uuid)`` (get, stop, start, lock,
    unlock), logged as the reference logs it.
    """
    nova = novaclient(context)
    LOG.info('Call %(command)s server command for instance %(uuid)s',
             {'command': command, 'uuid': uuid})
    return getattr(nova.servers, command)(uuid)


class API:
    """One method per Nova operation Masakari performs.

    Every method takes the request context first; its global request id
    travels to Nova. Errors are translated by translate_nova_exception.
    """

    @translate_nova_exception
    def get_servers(self, context, host):
        """All servers of a compute host, in all projects and any state.

        GET /servers/detail?all_tenants=True&host={host}, then the same
        with &marker={last id} while Nova announces a next page.
        """
        nova = novaclient(context)
        LOG.info('Call get server command for host %s', host)
        query = {'all_tenants': True, 'host': host}
        servers = []
        while True:
            _response, body = nova.client.get(
                '/servers/detail?%s' % parse.urlencode(sorted(query.items())))
            page = [nova_servers.Server(nova.servers, info, loaded=True)
                    for info in body['servers']]
            servers.extend(page)
            if not page or not any(link.get('rel') == 'next' for link in
                                   body.get('servers_links', [])):
                return servers
            query['marker'] = page[-1].id

    @translate_nova_exception
    def enable_disable_service(self, context, host_name, enable=False,
                               reason=None):
        """Enable, or disable (with an optional reason), nova-compute."""
        nova = novaclient(context)
        service = _service(nova, host_name, COMPUTE_BINARY)
        if enable:
            LOG.info('Enable nova-compute on %s', host_name)
            nova.services.enable(service.id)
        elif reason:
            LOG.info('Disable nova-compute on %s (reason: %s)', host_name,
                     reason)
            nova.services.disable_log_reason(service.id, reason)
        else:
            LOG.info('Disable nova-compute on %s', host_name)
            nova.services.disable(service.id)

    @translate_nova_exception
    def force_down_service(self, context, host_name, forced_down=True):
        """Mark the host's nova-compute forced down (or clear the mark).

        Not in Masakari 22.0.0; used only for fenced hosts. Nova then
        reports the service down at once and accepts to evacuate from it:
        only to be done once the host is known to be powered off.
        """
        nova = novaclient(context)
        service = _service(nova, host_name, COMPUTE_BINARY)
        LOG.info('Set forced_down=%(forced_down)s on nova-compute of '
                 '%(host)s', {'forced_down': forced_down, 'host': host_name})
        nova.services.force_down(service.id, forced_down)

    @translate_nova_exception
    def is_service_disabled(self, context, host_name, binary):
        """Whether the host's service of that binary is disabled."""
        nova = novaclient(context)
        LOG.info('Fetch the %s service of %s', binary, host_name)
        return _service(nova, host_name, binary).status == 'disabled'

    @translate_nova_exception
    def is_service_down(self, context, host_name, binary=COMPUTE_BINARY):
        """Whether Nova reports the host's service of that binary down.

        Not in Masakari 22.0.0; used only by the opt-in
        [host_failure]/poll_compute_service_down.
        """
        nova = novaclient(context)
        LOG.info('Fetch the state of the %s service of %s', binary,
                 host_name)
        return _service(nova, host_name, binary).state == 'down'

    @translate_nova_exception
    def get_service_report(self, context, host_name,
                           binary=COMPUTE_BINARY):
        """``(up, reported_at)`` of the host's service: whether Nova
        reports it up, and its ``updated_at`` (the last heartbeat or
        change of the record; a naive UTC datetime, None when Nova gives
        none).

        Not in Masakari 22.0.0; used only by the return to service of
        fenced hosts.
        """
        nova = novaclient(context)
        LOG.info('Fetch the state and last report of the %s service of %s',
                 binary, host_name)
        service = _service(nova, host_name, binary)
        reported_at = getattr(service, 'updated_at', None)
        try:
            reported_at = timeutils.normalize_time(
                timeutils.parse_isotime(reported_at))
        except (TypeError, ValueError):
            reported_at = None
        return service.state == 'up', reported_at

    @translate_nova_exception
    def evacuate_instance(self, context, uuid, target=None):
        """Evacuate a server; Nova's scheduler picks a host unless target."""
        nova = novaclient(context)
        LOG.info('Call evacuate command for instance %(uuid)s on host '
                 '%(target)s', {'uuid': uuid, 'target': target})
        nova.servers.evacuate(uuid, host=target)

    @translate_nova_exception
    def reset_instance_state(self, context, uuid, status='error'):
        """Set a server's vm_state (error or active), clearing task_state."""
        nova = novaclient(context)
        LOG.info("Call reset state command on instance %(uuid)s to status "
                 "%(status)s", {'uuid': uuid, 'status': status})
        nova.servers.reset_state(uuid, status)

    @translate_nova_exception
    def get_server(self, context, uuid):
        """The server (NotFound when Nova does not know it)."""
        return _server_command(context, 'get', uuid)

    @translate_nova_exception
    def stop_server(self, context, uuid):
        """Power a server off (Conflict when its state forbids it)."""
        _server_command(context, 'stop', uuid)

    @translate_nova_exception
    def start_server(self, context, uuid):
        """Power a stopped server on."""
        _server_command(context, 'start', uuid)

    @translate_nova_exception
    def lock_server(self, context, uuid):
        """Lock a server against non-admin actions."""
        _server_command(context, 'lock', uuid)

    @translate_nova_exception
    def unlock_server(self, context, uuid):
        """Unlock a server."""
        _server_command(context, 'unlock', uuid)

    @translate_nova_exception
    def get_aggregate_list(self, context):
        """Every host aggregate (id, name, hosts, ...)."""
        nova = novaclient(context)
        LOG.info('Call aggregate-list command to get list of all '
                 'aggregates.')
        return nova.aggregates.list()

    @translate_nova_exception
    def add_host_to_aggregate(self, context, host, aggregate):
        """Add a compute host to an aggregate (Conflict if a member)."""
        nova = novaclient(context)
        LOG.info('Call add_host command to add host %(host)s to aggregate '
                 '%(aggregate)s.', {'host': host, 'aggregate': aggregate.name})
        return nova.aggregates.add_host(aggregate, host)

    @translate_nova_exception
    def compute_services(self, context):
        """Every nova-compute service, by host name (one request).

        Not in Masakari 22.0.0; read by the failover capacity model.
        """
        nova = novaclient(context)
        LOG.info('Call service list command for the %s services',
                 COMPUTE_BINARY)
        return {service.host: service
                for service in nova.services.list(binary=COMPUTE_BINARY)}

    @translate_nova_exception
    def find_compute_service(self, context, compute_name):
        """Check that a nova-compute service of that host name exists.

        :raises ComputeNotFoundByName: when Nova lists none.
        """
        nova = novaclient(context)
        LOG.info('Call compute service find command to get the compute '
                 'service of host %s', compute_name)
        _service(nova, compute_name, COMPUTE_BINARY)
