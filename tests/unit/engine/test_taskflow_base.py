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

"""The task contract third-party recovery tasks rely on and the task
loading rules (doc/source/configuration/custom-recovery-flows.rst).
"""

import re

from taskflow import engines
from taskflow.patterns import linear_flow
from taskflow import task as taskflow_task
import testtools

from masakari.engine.drivers.taskflow import base
from masakari.engine.drivers.taskflow import host_failure
from masakari.engine.drivers.taskflow import instance_failure
from masakari.engine.drivers.taskflow import no_op
from masakari.engine.drivers.taskflow import process_failure


class ThirdPartyTask(base.MasakariTask):
    """Written as the custom-task guide shows."""

    def __init__(self, context, novaclient, **kwargs):
        super().__init__(context, novaclient, **kwargs)

    def execute(self, host_name, extra=None):
        self.update_details('first %s' % host_name)
        self.update_details('done', 1.0)
        return extra


class MasakariTaskTestCase(testtools.TestCase):

    def test_inputs_are_those_of_the_reference(self):
        expected = {
            host_failure.DisableComputeServiceTask: {'host_name'},
            host_failure.PrepareHAEnabledInstancesTask:
                {'host_name', 'notification_uuid'},
            host_failure.EvacuateInstancesTask:
                {'host_name', 'notification_uuid'},
            instance_failure.StopInstanceTask: {'instance_uuid'},
            instance_failure.StartInstanceTask: {'instance_uuid'},
            instance_failure.ConfirmInstanceActiveTask: {'instance_uuid'},
            process_failure.DisableComputeNodeTask:
                {'process_name', 'host_name'},
            process_failure.ConfirmComputeNodeDisabledTask:
                {'process_name', 'host_name'},
        }
        for task_class, requires in expected.items():
            task = task_class(context='ctx', novaclient='nova',
                              update_host_method=None)
            self.assertEqual(requires, set(task.requires), task_class)
            self.assertEqual(task_class.__name__, task.name)
            self.assertEqual(('ctx', 'nova'),
                             (task.context, task.novaclient))
        evacuate = host_failure.EvacuateInstancesTask('ctx', 'nova')
        self.assertEqual({'reserved_host'}, set(evacuate.optional))

    def test_constructor_keywords_reach_taskflow(self):
        task = ThirdPartyTask('ctx', 'nova', rebind={'host_name': 'failed'},
                              provides='result', update_host_method=print)
        self.assertEqual({'failed'}, set(task.requires))
        self.assertEqual({'result'}, set(task.provides))
        self.assertEqual('ThirdPartyTask', task.name)

    def test_progress_is_stored_in_the_atom_meta(self):
        task = ThirdPartyTask('ctx', 'nova')
        engine = engines.load(linear_flow.Flow('f').add(task),
                              store={'host_name': 'h1'})
        engine.run()
        [atom] = [atom for atom in engine.storage._flowdetail
                  if atom.name == task.name]
        meta = atom.meta
        self.assertEqual(1.0, meta['progress'])
        details = meta['progress_details']
        self.assertEqual(1.0, details['at_progress'])
        entries = details['details']['progress_details']
        self.assertEqual([(0.0, 'first h1'), (1.0, 'done')],
                         [(entry['progress'], entry['message'])
                          for entry in entries])
        for entry in entries:
            self.assertTrue(re.fullmatch(
                r'\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?',
                entry['timestamp']), entry['timestamp'])

    def test_messages_stored_together_read_back_as_one_by_one(self):
        class Together(base.MasakariTask):
            def execute(self):
                self.update_details('first')
                self.update_details_together(['second', 'third'], 0.5)

        stores = []

        def stored(event, details):
            # NOTE: taskflow also reports the start and the end (0.0,
            # 1.0) without details.
            if 'progress_details' in details:
                stores.append([entry['message']
                               for entry in details['progress_details']])

        task = Together('ctx', 'nova')
        task.notifier.register(taskflow_task.EVENT_UPDATE_PROGRESS, stored)
        engines.run(linear_flow.Flow('f').add(task))
        self.assertEqual([['first'], ['first', 'second', 'third']], stores)
        entries = task.progress
        self.assertEqual([(0.0, 'first'), (0.5, 'second'), (0.5, 'third')],
                         [(entry['progress'], entry['message'])
                          for entry in entries])
        self.assertEqual(entries[1]['timestamp'], entries[2]['timestamp'])

    def test_no_op(self):
        task = no_op.Noop(context='ctx', novaclient='nova', extra=1)
        self.assertEqual('masakari.engine.drivers.taskflow.no_op.Noop',
                         task.name)
        self.assertEqual(set(), set(task.requires))


class LoadingTestCase(testtools.TestCase):

    def test_names_in_configured_order_unknown_ones_skipped(self):
        tasks = base.get_recovery_flow(
            {'pre': ['no_op', 'nope'],
             'main': ['start_instance_task', 'stop_instance_task'],
             'post': []}, context='ctx', novaclient='nova')
        self.assertEqual(
            {'pre': ['masakari.engine.drivers.taskflow.no_op.Noop'],
             'main': ['StartInstanceTask', 'StopInstanceTask'],
             'post': []},
            {phase: [task.name for task in loaded]
             for phase, loaded in tasks.items()})

    def test_a_task_that_cannot_be_built_is_skipped(self):
        # The evacuation task needs no keyword; a missing argument of the
        # constructor makes it fail (novaclient is required).
        tasks = base.get_recovery_flow(
            {'pre': ['stop_instance_task'], 'main': [], 'post': []},
            context='ctx')
        self.assertEqual([], tasks['pre'])

    def test_missing_phase(self):
        self.assertRaises(KeyError, base.get_recovery_flow,
                          {'pre': [], 'main': []}, context='c',
                          novaclient='n')

    def test_flow_names(self):
        self.assertEqual('instance_evacuate_engine',
                         base.flow_name('instance:evacuate'))
        flow = base.build_flow('process:recovery',
                               {'pre': [], 'main': [], 'post': []})
        self.assertEqual('process_recovery_engine', flow.name)
