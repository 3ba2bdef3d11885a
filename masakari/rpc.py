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

"""RPC and notification plumbing shared by masakari-api and masakari-engine.

One RPC transport ([DEFAULT]/transport_url), one notification transport
([oslo_messaging_notifications]/transport_url, else the RPC one) and one
versioned notifier (topic ``versioned_notifications``) per process, created
by :func:`init`. Everything goes to the control exchange, ``masakari``
unless [DEFAULT]/control_exchange says otherwise (the default is set by
masakari.config before the configuration is parsed).
"""

import functools

import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher

from masakari import context as masakari_context
from masakari import exception

__all__ = [
    'ALLOWED_EXMODS',
    'ExposedMethodsAccessPolicy',
    'VERSIONED_NOTIFICATION_TOPIC',
    'RequestContextSerializer',
    'cleanup',
    'get_client',
    'get_server',
    'get_versioned_notifier',
    'init',
    'initialized',
]

TRANSPORT = None
NOTIFICATION_TRANSPORT = None
NOTIFIER = None

# Exceptions of these modules raised by an RPC endpoint are rebuilt with
# their own class on the caller's side (others become RemoteError).
ALLOWED_EXMODS = [exception.__name__]

# NOTE: fixed on purpose: [oslo_messaging_notifications]/topics is ignored,
# consumers of a reference deployment listen here.
VERSIONED_NOTIFICATION_TOPIC = 'versioned_notifications'


# How many times a notification is sent again (after a reconnection)
# before it is dropped, unless [oslo_messaging_notifications]/retry says
# otherwise.
NOTIFICATION_RETRIES = 1


def init(conf):
    """Create the transports and the versioned notifier of this process."""
    global TRANSPORT, NOTIFICATION_TRANSPORT, NOTIFIER
    TRANSPORT = messaging.get_rpc_transport(
        conf, allowed_remote_exmods=ALLOWED_EXMODS)
    NOTIFICATION_TRANSPORT = messaging.get_notification_transport(
        conf, allowed_remote_exmods=ALLOWED_EXMODS)
    # NOTE: oslo's default (-1) retries for ever once a connection was
    # made: with the broker down, every API request and recovery step
    # that publishes a notification would hang (the reference did).
    conf.set_default('retry', NOTIFICATION_RETRIES,
                     group='oslo_messaging_notifications')
    serializer = RequestContextSerializer(messaging.JsonPayloadSerializer())
    NOTIFIER = messaging.Notifier(NOTIFICATION_TRANSPORT,
                                  serializer=serializer,
                                  topics=[VERSIONED_NOTIFICATION_TOPIC])


def initialized():
    """True once :func:`init` ran (and :func:`cleanup` did not)."""
    return None not in (TRANSPORT, NOTIFICATION_TRANSPORT, NOTIFIER)


def cleanup():
    """Close both transports and forget the notifier."""
    global TRANSPORT, NOTIFICATION_TRANSPORT, NOTIFIER
    assert TRANSPORT is not None, 'rpc.init() was not called'
    assert NOTIFICATION_TRANSPORT is not None, 'rpc.init() was not called'
    TRANSPORT.cleanup()
    NOTIFICATION_TRANSPORT.cleanup()
    TRANSPORT = NOTIFICATION_TRANSPORT = NOTIFIER = None


class RequestContextSerializer(messaging.Serializer):
    """Put the request context on the wire and delegate the payload.

    The context travels as the ``_context_<key>`` entries of
    ``RequestContext.to_dict()`` and comes back through ``from_dict``.

    :param base: the entity serializer (MasakariObjectSerializer for RPC,
        a JSON payload serializer for notifications), or None.
    """

    def __init__(self, base):
        self._base = base

    def serialize_entity(self, context, entity):
        if not self._base:
            return entity
        return self._base.serialize_entity(context, entity)

    def deserialize_entity(self, context, entity):
        if not self._base:
            return entity
        return self._base.deserialize_entity(context, entity)

    def serialize_context(self, context):
        # NOTE: oslo.messaging hands notifications an empty dict when it
        # cannot redact the context.
        if isinstance(context, dict):
            return context
        return context.to_dict()

    def deserialize_context(self, context):
        return masakari_context.RequestContext.from_dict(context)


def get_client(target, version_cap=None, serializer=None):
    """Return an RPC client for ``target``.

    :param version_cap: highest version to send (Masakari sets none).
    :param serializer: entity serializer, wrapped in the context one.
    """
    assert TRANSPORT is not None, 'rpc.init() was not called'
    serializer = RequestContextSerializer(serializer)
    return messaging.get_rpc_client(TRANSPORT, target,
                                    version_cap=version_cap,
                                    serializer=serializer)


class ExposedMethodsAccessPolicy(dispatcher.RPCAccessPolicyBase):
    """Which endpoint methods a client may call.

    An endpoint that marks methods with ``oslo_messaging.expose`` offers
    those alone (the engine manager: its other public methods, such as
    ``init_host`` or ``periodic_tasks``, are not for clients). An endpoint
    that marks none offers its public methods, as oslo's default policy.
    """

    def is_allowed(self, endpoint, method):
        if _exposes_methods(type(endpoint)):
            return getattr(getattr(endpoint, method, None), 'exposed', False)
        return not method.startswith('_')


@functools.lru_cache(maxsize=None)
def _exposes_methods(endpoint_cls):
    return any(getattr(getattr(endpoint_cls, name, None), 'exposed', False)
               for name in dir(endpoint_cls))


def get_server(target, endpoints, serializer=None, executor=None):
    """Return an RPC server dispatching ``target``'s messages to endpoints.

    See ExposedMethodsAccessPolicy for the methods a client may call.

    :param executor: 'eventlet' or 'threading'; None lets oslo.messaging
        pick the one that matches the process (eventlet when monkey
        patched).
    """
    assert TRANSPORT is not None, 'rpc.init() was not called'
    serializer = RequestContextSerializer(serializer)
    access_policy = ExposedMethodsAccessPolicy
    kwargs = {}
    if executor is not None:
        kwargs['executor'] = executor
    return messaging.get_rpc_server(TRANSPORT, target, endpoints,
                                    serializer=serializer,
                                    access_policy=access_policy, **kwargs)


def get_versioned_notifier(publisher_id):
    """Return the versioned notifier prepared for ``publisher_id``."""
    assert NOTIFIER is not None, 'rpc.init() was not called'
    return NOTIFIER.prepare(publisher_id=publisher_id)
