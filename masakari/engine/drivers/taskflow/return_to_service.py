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

"""Return to service of fenced hosts whose maintenance an operator ended.

The logbook of a host failure notification tells whether its recovery
fenced the host (a successful FenceHostTask, whose result says whether
the host was reserved) and whether the host was brought back since (a
successful return-to-service run, recorded in the same logbook, so that
API 1.1 shows its steps next to the recovery's). No new RPC method, no
new column: the engine looks for such hosts periodically, so an API of
any version that sets ``on_maintenance`` to false starts it.
"""

from oslo_log import log as logging
from taskflow import states

from masakari.compute import nova
from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import host_workflows
from masakari.engine.drivers.taskflow import progress
from masakari import exception
from masakari import objects
from masakari.objects import fields

LOG = logging.getLogger(__name__)

Status = fields.NotificationStatus
# A fenced host stays fenced whatever became of the evacuation.
ENDED = [Status.FINISHED, Status.ERROR, Status.FAILED]

# Notifications known to need nothing more (returned, or never fenced);
# only grows with notifications that ended, so it stays small.
_settled = set()


def _succeeded(run, task_name):
    atom = next((atom for atom in run
                 if atom.name == progress.atom_name(task_name)), None)
    return atom if atom is not None and atom.state == states.SUCCESS else None


def pending_return(notification_uuid):
    """The fencing result of the notification's recovery when the host
    was fenced and not yet returned to service, else None.
    """
    fenced = None
    for run in progress.runs(notification_uuid):
        if _succeeded(run, host_workflows.RETURN_TASK) is not None:
            fenced = None
            continue
        atom = _succeeded(run, host_workflows.FENCE_TASK)
        if atom is not None:
            fenced = atom.results or {}
    return fenced


def _latest_per_host(context):
    latest = {}
    for notification in objects.NotificationList.get_all(
            context, filters={'type': fields.NotificationType.COMPUTE_HOST,
                              'status': ENDED},
            sort_keys=['generated_time'], sort_dirs=['asc']):
        latest[notification.source_host_uuid] = notification
    return latest.values()


def candidates(context):
    """``(host, fencing result)`` of fenced hosts out of maintenance."""
    for notification in _latest_per_host(context):
        uuid = notification.notification_uuid
        if uuid in _settled:
            continue
        try:
            host = objects.Host.get_by_uuid(context,
                                            notification.source_host_uuid)
        except exception.HostNotFound:
            _settled.add(uuid)
            continue
        if host.on_maintenance:
            continue
        fenced = pending_return(uuid)
        if fenced is None:
            _settled.add(uuid)
            continue
        yield host, notification, fenced


def return_host(context, host, notification, fenced):
    """Run the return-to-service flow of one host, in the logbook of the
    notification whose recovery fenced it.

    :returns: True when the host is back in service.
    """
    tasks = base.get_recovery_flow(host_workflows.RETURN_TASKS,
                                   context=context, novaclient=nova.API())
    flow = base.build_flow(host_workflows.RETURN_ACTION, tasks)
    store = {'host_name': host.name,
             'notification_uuid': notification.notification_uuid,
             'host_was_reserved': fenced.get('host_was_reserved', False)}
    try:
        base.run(base.load_flow(host_workflows.RETURN_ACTION, flow,
                                notification.notification_uuid, store))
    except Exception as error:
        LOG.warning('Return to service of host %(host)s failed, to be '
                    'tried again: %(error)s',
                    {'host': host.name, 'error': error})
        return False
    _settled.add(notification.notification_uuid)
    LOG.info('Host %s returned to service.', host.name)
    return True


def return_fenced_hosts(context):
    """Return every fenced host out of maintenance to service."""
    for host, notification, fenced in list(candidates(context)):
        return_host(context, host, notification, fenced)
