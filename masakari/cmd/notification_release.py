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

"""``masakari-manage notification release <uuid>``: release a host
recovery held by the mass-failure brake.

The notification goes back to ``new`` with the released message, and an
engine is asked to recover it at once, with the message masakari-api
sends for a new notification (``process_notification``); the brake then
lets it through.
"""

import oslo_messaging as messaging

import masakari.conf
from masakari import config
from masakari import context
from masakari.engine import brake
from masakari.engine import rpcapi
from masakari import exception
from masakari.i18n import _
from masakari import objects
from masakari import rpc

CONF = masakari.conf.CONF


def add_parser(actions):
    """Add ``release <notification_uuid>`` to the category's actions."""
    parser = actions.add_parser('release')
    parser.add_argument('notification_uuid',
                        help=_('The notification held by the mass-failure '
                               'brake.'))


def _tell_an_engine(admin, notification):
    """Cast ``process_notification`` on the engines' topic.

    :raises: the transport's error when the bus cannot be reached.
    """
    own_transport = not rpc.initialized()
    if own_transport:
        messaging.set_transport_defaults(
            control_exchange=config.CONTROL_EXCHANGE)
        rpc.init(CONF)
    try:
        rpcapi.EngineAPI().process_notification(admin, notification)
    finally:
        if own_transport:
            rpc.cleanup()


def release_notification(notification_uuid):
    """Release a held notification and ask an engine to recover it.

    :returns: ``(exit status, text to print)``.
    """
    objects.register_all()
    admin = context.get_admin_context()
    try:
        notification = objects.Notification.get_by_uuid(admin,
                                                        notification_uuid)
    except exception.NotificationNotFound as error:
        return 1, error.format_message()
    if not brake.release(notification):
        return 1, (_('Notification %s is not held by the mass-failure '
                     'brake.') % notification_uuid)
    try:
        _tell_an_engine(admin, notification)
    except Exception as error:
        # NOTE: the release itself is done; an engine recovers it as any
        # notification whose message was lost.
        return 0, (_('Notification %(uuid)s released, but no engine could '
                     'be told (%(error)s): it is recovered as a '
                     'notification whose message was lost, after '
                     '[takeover]/new_notification_age seconds or at the '
                     'periodic retry.')
                   % {'uuid': notification_uuid, 'error': error})
    return 0, (_('Notification %s released: an engine recovers it now, '
                 'without the brake.') % notification_uuid)


def release():
    """The ``notification release`` action."""
    code, text = release_notification(CONF.category.notification_uuid)
    print(text)
    return code
