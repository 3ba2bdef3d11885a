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

"""What a recovery leaves on record when it ends: no vmove of it stays
``pending`` or ``ongoing``; each gets a final state that says why.
"""

from oslo_utils import timeutils

from masakari import objects
from masakari.objects import fields

UNFINISHED = [fields.VMoveStatus.PENDING, fields.VMoveStatus.ONGOING]
ENDED_MESSAGE = ('Failed reason: the recovery ended (%(status)s) before '
                 'this move was %(what)s.')


def close_unfinished_moves(context, notification_uuid, status,
                           message=None):
    """Mark the notification's pending and ongoing vmoves ``failed``.

    :param status: the notification's final status, quoted in the default
        message.
    :param message: the vmoves' message; by default it says that the
        recovery ended before the evacuation was started (pending) or
        confirmed (ongoing).
    :returns: ``(vmove, was_ongoing)`` of each vmove closed.
    """
    closed = []
    for move in objects.VMoveList.get_all_vmoves(context, notification_uuid,
                                                 status=UNFINISHED):
        was_ongoing = move.status == fields.VMoveStatus.ONGOING
        move.status = fields.VMoveStatus.FAILED
        move.message = message or ENDED_MESSAGE % {
            'status': status,
            'what': 'confirmed' if was_ongoing else 'started'}
        move.end_time = timeutils.utcnow()
        move.save()
        closed.append((move, was_ongoing))
    return closed
