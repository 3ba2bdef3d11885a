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

"""Masakari exception hierarchy.

Every class keeps the reference's name, message template (``msg_fmt``) and
HTTP ``code``: the API maps them to responses, and the engine's failures
travel back over RPC under the module name ``masakari.exception``, where a
reference masakari-api rebuilds them by class name.
"""

from oslo_log import log as logging

import masakari.conf
from masakari.i18n import _

LOG = logging.getLogger(__name__)
CONF = masakari.conf.CONF


class RecoveryLost(Exception):
    """This engine no longer holds the recovery it was running: a peer
    took it over while this engine was silent (frozen or cut off past its
    lease, see masakari.engine.ownership).

    NOTE: not a MasakariException, so that no handler of recovery
    failures takes it for one: the recovery stops quietly, leaving the
    notification to its new owner.
    """

    def __init__(self, notification_uuid):
        super().__init__('Notification %s is recovered by another engine '
                         'now' % notification_uuid)
        self.notification_uuid = notification_uuid


class MasakariException(Exception):
    """Base Masakari Exception.

    Subclasses define ``msg_fmt``, a printf-style template filled from the
    keyword arguments given to the constructor, and ``code``, the HTTP
    status the API answers when the exception is expected.
    """

    msg_fmt = _("An unknown exception occurred.")
    code = 500
    headers = {}
    safe = False
    # (module, function) that the fault of a versioned error notification
    # names, when the raising layer sets it (masakari.db.api does); None:
    # the innermost frame of the traceback.
    raised_in = None

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs

        if 'code' not in self.kwargs:
            try:
                self.kwargs['code'] = self.code
            except AttributeError:
                pass

        if not message:
            try:
                message = self.msg_fmt % kwargs
            except Exception:
                # NOTE: a template that does not match its arguments is a
                # programming error; log it and fall back to the raw
                # template unless the operator asked for a hard failure.
                LOG.exception('Exception in string format operation, '
                              'kwargs: %s', kwargs)
                if CONF.fatal_exception_format_errors:
                    raise
                message = self.msg_fmt

        self.message = message
        super().__init__(message)

    def format_message(self):
        """Return the message as given or built from ``msg_fmt``."""
        return self.args[0]


# --- 4xx: bad requests -------------------------------------------------------

class Invalid(MasakariException):
    msg_fmt = _("Bad Request - Invalid Parameters")
    code = 400


class InvalidName(Invalid):
    msg_fmt = _("An invalid 'name' value was provided. "
                "The name must be: %(reason)s")


class InvalidInput(Invalid):
    msg_fmt = _("Invalid input received: %(reason)s")


class InvalidAPIVersionString(Invalid):
    msg_fmt = _("API Version String %(version)s is of invalid format. Must "
                "be of format MajorNum.MinorNum.")


class VersionNotFoundForAPIMethod(Invalid):
    msg_fmt = _("API version %(version)s is not supported on this method.")


class InvalidGlobalAPIVersion(Invalid):
    msg_fmt = _("Version %(req_ver)s is not supported by the API. Minimum "
                "is %(min_ver)s and maximum is %(max_ver)s.")
    code = 406


class ValidationError(Invalid):
    msg_fmt = "%(detail)s"


class InvalidContentType(Invalid):
    msg_fmt = _("Invalid content type %(content_type)s.")
    code = 415


class MalformedRequestBody(MasakariException):
    msg_fmt = _("Malformed message body: %(reason)s")


class InvalidSortKey(Invalid):
    msg_fmt = _("Sort key supplied was not valid.")


class InvalidUUID(Invalid):
    msg_fmt = _("Expected a uuid but received %(uuid)s.")


class InvalidConfiguration(Invalid):
    msg_fmt = _("Configuration is Invalid.")


class NotificationWithoutVMoves(Invalid):
    msg_fmt = _("This notification %(id)s without vm moves.")


# --- 401 / 403 ---------------------------------------------------------------

class Unauthorized(MasakariException):
    msg_fmt = _("Not authorized.")
    code = 401


class Forbidden(MasakariException):
    msg_fmt = _("Forbidden")
    code = 403


class AdminRequired(Forbidden):
    msg_fmt = _("User does not have admin privileges")


class PolicyNotAuthorized(Forbidden):
    msg_fmt = _("Policy doesn't allow %(action)s to be performed.")


# --- 404 ---------------------------------------------------------------------

class NotFound(MasakariException):
    msg_fmt = _("Resource could not be found.")
    code = 404


class ConfigNotFound(NotFound):
    msg_fmt = _("Could not find config at %(path)s")


class PasteAppNotFound(NotFound):
    msg_fmt = _("Could not load paste app '%(name)s' from %(path)s")


class FailoverSegmentNotFound(NotFound):
    msg_fmt = _("No failover segment with id %(id)s.")


class FailoverSegmentNotFoundByName(FailoverSegmentNotFound):
    msg_fmt = _("Failover segment with name %(segment_name)s could not "
                "be found.")


class HostNotFound(NotFound):
    msg_fmt = _("No host with id %(id)s.")


class HostNotFoundByName(HostNotFound):
    msg_fmt = _("Host with name %(host_name)s could not be found.")


class HostNotFoundUnderFailoverSegment(HostNotFound):
    msg_fmt = _("Host '%(host_uuid)s' under failover_segment "
                "'%(segment_uuid)s' could not be found.")


class ComputeNotFoundByName(NotFound):
    msg_fmt = _("Compute service with name %(compute_name)s could not "
                "be found.")


class NotificationNotFound(NotFound):
    msg_fmt = _("No notification with id %(id)s.")


class VMoveNotFound(NotFound):
    msg_fmt = _("No vm move with id %(id)s.")


class MarkerNotFound(NotFound):
    msg_fmt = _("Marker %(marker)s could not be found.")


# --- 409 ---------------------------------------------------------------------

class Conflict(MasakariException):
    msg_fmt = _("Conflict")
    code = 409


class FailoverSegmentExists(MasakariException):
    msg_fmt = _("Failover segment with name %(name)s already exists.")


class HostExists(MasakariException):
    msg_fmt = _("Host with name %(name)s already exists.")


class FailoverSegmentInUse(Conflict):
    msg_fmt = _("Failover segment %(uuid)s can't be updated as it is in-use "
                "to process notifications.")


class HostInUse(Conflict):
    msg_fmt = _("Host %(uuid)s can't be updated as it is in-use to process "
                "notifications.")


class DuplicateNotification(Invalid):
    msg_fmt = _("Notification received from host %(host)s of type "
                "%(type)s is duplicate.")
    code = 409


class HostOnMaintenanceError(Invalid):
    msg_fmt = _("Notification received from host %(host)s of type "
                "'%(type)s' is ignored as the host is already under "
                "maintenance.")
    code = 409


# --- objects -----------------------------------------------------------------

class ObjectActionError(MasakariException):
    msg_fmt = _('Object action %(action)s failed because: %(reason)s')


# --- engine ------------------------------------------------------------------

class FailoverSegmentDisabled(MasakariException):
    msg_fmt = _('Failover segment is disabled.')


class SkipHostRecoveryException(MasakariException):
    msg_fmt = _("Skipping execution of host recovery workflow.")


class HostRecoveryFailureException(MasakariException):
    msg_fmt = _('Failed to execute host recovery.')


class ReservedHostsUnavailable(MasakariException):
    msg_fmt = _('No reserved_hosts available for evacuation.')


class HostRecoveryHeld(MasakariException):
    # NOTE: not a failure: the mass-failure brake keeps the notification
    # running until the failures subside or an operator releases it.
    msg_fmt = _('Recovery of host %(host)s is held by the mass-failure '
                'brake: %(reason)s')


class LockAlreadyAcquired(MasakariException):
    msg_fmt = _('Lock is already acquired on %(resource)s.')


class InstanceEvacuateFailed(MasakariException):
    msg_fmt = _("Failed to evacuate instance %(instance_uuid)s")


class SkipInstanceRecoveryException(MasakariException):
    msg_fmt = _('Skipping execution of instance recovery workflow.')


class IgnoreInstanceRecoveryException(MasakariException):
    msg_fmt = _('Instance recovery is ignored.')


class InstanceRecoveryFailureException(MasakariException):
    msg_fmt = _('Failed to execute instance recovery workflow.')


class SkipProcessRecoveryException(MasakariException):
    msg_fmt = _('Skipping execution of process recovery workflow.')


class ProcessRecoveryFailureException(MasakariException):
    msg_fmt = _('Failed to execute process recovery workflow.')


# --- fencing -----------------------------------------------------------------

class FencingFailed(MasakariException):
    # NOTE: the reason is built by the fencing drivers, which strip the
    # BMC password from any library message before it gets here.
    msg_fmt = _('Fencing of host %(host)s failed: %(reason)s')


# --- dependencies out of reach -----------------------------------------------

class NovaUnreachable(MasakariException):
    """Nova did not answer (a timeout) or could not be connected to."""

    msg_fmt = _('Nova could not be reached or did not answer in time: '
                '%(reason)s')
    code = 503


class DependencyUnavailable(MasakariException):
    """A service the API depends on cannot be reached: answered 503 with
    Retry-After.
    """

    msg_fmt = _('The %(dependency)s cannot be reached; retry later.')
    code = 503
    retry_after = 5


class CapacityUnknown(MasakariException):
    """The failover capacity of a segment cannot be read (Placement has
    no endpoint or no provider for a host, or did not answer).
    """

    msg_fmt = _('The failover capacity cannot be read: %(reason)s')
