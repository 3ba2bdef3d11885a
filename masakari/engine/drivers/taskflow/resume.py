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

"""Continuing a recovery run that a dead engine left unfinished.

When an engine takes a recovery over (masakari/engine/takeover.py), the
flow is loaded into the run the dead engine left ``RUNNING`` instead of a
new run: taskflow then skips the tasks that succeeded (the compute
service is not disabled twice, the instances are not listed again, the
reserved host chosen by the retry stays chosen) and runs again the task
that was running, which resumes from the vmoves (see
host_failure.EvacuateInstancesTask). The run's record says who took it
over, and when.
"""

from taskflow import flow as taskflow_flow
from taskflow import states
from taskflow import storage

from masakari.engine import takeover

# The run's meta key of the takeover note (see takeover.current_note).
META_TAKEN_OVER = 'masakari_taken_over'
UNFINISHED_STATES = (None, states.PENDING, states.RUNNING, states.RESUMING,
                     states.SUSPENDING, states.SUSPENDED)


def _atoms(flow):
    """The atoms of ``flow`` and its sub-flows (retries too), in order."""
    for node, _meta in flow.iter_nodes():
        if isinstance(node, taskflow_flow.Flow):
            if node.retry is not None:
                yield node.retry
            yield from _atoms(node)
        else:
            yield node


def run_to_continue(runs, flow):
    """The run to load ``flow`` into when a takeover is under way: the
    last of ``runs`` (oldest first) if unfinished and made of the same
    atoms (none yet counts). None otherwise: a new run is made.
    """
    if takeover.current_note() is None or not runs:
        return None
    last = runs[-1]
    # NOTE: taskflow records the injected store as an atom of its own.
    recorded = {atom.name for atom in last} - {storage.Storage.injector_name}
    if last.state not in UNFINISHED_STATES or (
            recorded and recorded != {atom.name for atom in _atoms(flow)}):
        return None
    return last


def note_takeover(run, flow, meta):
    """Record the takeover on ``run`` (its meta, updated with ``meta``)
    and in the progress of the first task left to run.
    """
    note = takeover.current_note()
    run.meta = dict(run.meta or {}, **meta)
    run.meta[META_TAKEN_OVER] = note
    done = {atom.name for atom in run if atom.state == states.SUCCESS}
    for atom in _atoms(flow):
        if atom.name not in done and hasattr(atom, 'note_takeover'):
            atom.note_takeover(note)
            return
