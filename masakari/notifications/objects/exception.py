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

        Call it inside the ``except`` block: module and function come from
        the innermost frame of the exception being handled (``unknown``
        when none is).

        :param fault: the exception (its class name and text are recorded).
        :param traceback: the formatted traceback, recorded as given.
        """
        module_name = function_name = UNKNOWN
        trace = inspect.trace()
        if trace:
            frame = trace[-1]
            module = inspect.getmodule(frame[0])
            if module is not None:
                module_name = module.__name__
            function_name = frame[3]
        return cls(module_name=module_name,
                   function_name=function_name,
                   exception=fault.__class__.__name__,
                   exception_message=str(fault),
                   traceback=traceback)


@masakari_base.MasakariObjectRegistry.register_notification
class ExceptionNotification(base.NotificationBase):
    """Registered and documented, never sent (as in the reference)."""

    # Version 1.0: Initial version
    VERSION = '1.0'

    fields = {
        'payload': fields.ObjectField('ExceptionPayload'),
    }
