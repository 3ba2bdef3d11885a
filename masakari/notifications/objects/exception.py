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

"""The ``fault`` payload of ``*.error`` notifications."""

import inspect

from masakari.notifications.objects import base
from masakari.objects import base as masakari_base
from masakari.objects import fields

UNKNOWN = 'unknown'


@masakari_base.MasakariObjectRegistry.register_notification
class ExceptionPayload(base.NotificationPayloadBase):
    """What failed, where, and the traceback."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'module_name': fields.StringField(),
        'function_name': fields.StringField(),
        'exception': fields.StringField(),
        'exception_message': fields.StringField(),
        'traceback': fields.StringField(),
    }

    @classmethod
    def from_exc_and_traceback(cls, fault, traceback):
        """Describe ``fault``, raised where the handled exception was.

        Call it inside the ``except`` block: module and function are the
        ``raised_in`` of a Masakari exception that has one (the database
        layer names its operation as Masakari 22.0.0 does), else those of
        the innermost frame of the exception being handled (``unknown``
        when none is).

        :param fault: the exception (its class name and text are recorded).
        :param traceback: the formatted traceback, recorded as given.
        """
        module_name, function_name = (getattr(fault, 'raised_in', None) or
                                      _innermost_frame())
        return cls(module_name=module_name,
                   function_name=function_name,
                   exception=fault.__class__.__name__,
                   exception_message=str(fault),
                   traceback=traceback)


def _innermost_frame():
    """(module, function) of the innermost frame of the exception being
    handled, ``unknown`` for what cannot be told.
    """
    trace = inspect.trace()
    if not trace:
        return UNKNOWN, UNKNOWN
    frame = trace[-1]
    module = inspect.getmodule(frame[0])
    return (UNKNOWN if module is None else module.__name__), frame[3]


@masakari_base.MasakariObjectRegistry.register_notification
class ExceptionNotification(base.NotificationBase):
    """Registered and documented, never sent (as in the reference)."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'payload': fields.ObjectField('ExceptionPayload'),
    }
