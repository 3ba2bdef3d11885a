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

"""Build and emit the versioned notifications of segments, hosts and
notifications (doc/source/user/notifications.rst).

Callers own their event families and hand the ``notify_about_*`` helper
to :func:`around_write`: masakari.ha wraps every API write (start, end
and error), the engine its host updates and ``notification.process.*``.
Objects emit nothing. Emission only sends anything when
[oslo_messaging_notifications]/driver is set; oslo.messaging drops the
message otherwise.

The publisher is ``<binary>:<socket hostname>``. The binary is the
running process's, set once at start-up with :func:`set_binary`
(``masakari-api`` until then).
"""

import socket

from masakari.notifications.objects import base
from masakari.notifications.objects import exception as exception_obj
from masakari.notifications.objects import notification as notification_obj
from masakari.objects import fields

API_BINARY = 'masakari-api'
ENGINE_BINARY = 'masakari-engine'

_binary = API_BINARY


def set_binary(binary):
    """Record which service this process is; call once at start-up.

    masakari-engine calls ``set_binary(ENGINE_BINARY)`` so that host
    updates it makes are published as masakari-engine (the reference
    publishes them as masakari-api).
    """
    global _binary
    _binary = binary


def get_binary():
    """The binary recorded by :func:`set_binary` (default masakari-api)."""
    return _binary


def _api_fault_and_priority(exception, tb):
    # NOTE: called from the API's except block, so the fault records where
    # the handled exception was raised.
    if exception:
        fault = exception_obj.ExceptionPayload.from_exc_and_traceback(
            exception, tb)
        return fault, fields.EventNotificationPriority.ERROR
    return None, fields.EventNotificationPriority.INFO


def _engine_fault_and_priority(exception):
    # NOTE: a reference engine passes the exception's text and builds the
    # fault after its except block has ended, which always yields these
    # constant values; consumers see exactly the same.
    if exception:
        fault = exception_obj.ExceptionPayload(
            module_name=exception_obj.UNKNOWN,
            function_name=exception_obj.UNKNOWN,
            exception='str',
            exception_message=str(exception),
            traceback='NoneType: None\n')
        return fault, fields.EventNotificationPriority.ERROR
    return None, fields.EventNotificationPriority.INFO


def _emit(context, notification_cls, payload, priority, action, phase,
          binary):
    # NOTE: an unset phase gives "<action>"; a None one would give
    # "<action>.None".
    event_fields = {'action': action}
    if phase is not None:
        event_fields['phase'] = phase
    event_type = base.EventType(**event_fields)
    publisher = base.NotificationPublisher(host=socket.gethostname(),
                                           binary=binary or _binary)
    notification = notification_cls(
        context=context, priority=priority, publisher=publisher,
        event_type=event_type, payload=payload)
    notification.emit(context)


def around_write(notify, context, obj, action, write):
    """Run ``write()``, a write of ``obj``, between ``<action>.start`` and
    ``<action>.end``; returns what it returns.

    Both payloads show ``obj`` as it was before the write: as in Masakari
    22.0.0, the .end is built before the write reloads the object from its
    row (no id or uuid after a create, the id still there after a
    delete). A failing write sends no .end; its .error is the caller's.

    :param notify: a ``notify_about_*_api`` function of this module.
    :param action: a fields.EventNotificationAction value.
    """
    notify(context, obj, action=action,
           phase=fields.EventNotificationPhase.START)
    before = obj.obj_clone()
    result = write()
    notify(context, before, action=action,
           phase=fields.EventNotificationPhase.END)
    return result


def notify_about_segment_api(context, segment, action, phase=None,
                             binary=None, exception=None, tb=None):
    """Emit ``segment.<action>.<phase>`` about a FailoverSegment.

    :param action: a fields.EventNotificationAction value.
    :param phase: a fields.EventNotificationPhase value.
    :param binary: the publisher binary; default: the process's.
    :param exception: the caught exception, for the error phase (priority
        ERROR and a ``fault``); call from within the ``except`` block.
    :param tb: its formatted traceback (``traceback.format_exc()``).
    """
    fault, priority = _api_fault_and_priority(exception, tb)
    payload = notification_obj.SegmentApiPayload(segment=segment,
                                                 fault=fault)
    _emit(context, notification_obj.SegmentApiNotification, payload,
          priority, action, phase, binary)


def notify_about_host_api(context, host, action, phase=None, binary=None,
                          exception=None, tb=None):
    """Emit ``host.<action>.<phase>`` about a Host; see segment's helper."""
    fault, priority = _api_fault_and_priority(exception, tb)
    payload = notification_obj.HostApiPayload(host=host, fault=fault)
    _emit(context, notification_obj.HostApiNotification, payload,
          priority, action, phase, binary)


def notify_about_notification_api(context, notification, action, phase=None,
                                  binary=None, exception=None, tb=None):
    """Emit ``notification.<action>.<phase>`` from the API side.

    Same parameters as :func:`notify_about_segment_api`.
    """
    fault, priority = _api_fault_and_priority(exception, tb)
    payload = notification_obj.NotificationApiPayload(
        notification=notification, fault=fault)
    _emit(context, notification_obj.NotificationApiNotification, payload,
          priority, action, phase, binary)


def notify_about_notification_update(context, notification, action,
                                     phase=None, binary=ENGINE_BINARY,
                                     exception=None):
    """Emit ``notification.process.<phase>`` from the engine.

    :param exception: the error (exception or text) for the error phase;
        the fault then holds only its text, with the constant module,
        function and traceback of a reference engine.
    """
    fault, priority = _engine_fault_and_priority(exception)
    payload = notification_obj.NotificationApiPayload(
        notification=notification, fault=fault)
    _emit(context, notification_obj.NotificationApiNotification, payload,
          priority, action, phase, binary)
