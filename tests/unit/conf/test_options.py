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

"""Every option of Masakari 22.0.0 exists with its exact definition."""

from oslo_config import cfg
from oslo_config import types
import testtools

import masakari.conf
from masakari.conf import opts
from tests.unit.conf import option_table as table

_ABSENT = {'min': None, 'max': None, 'choices': None, 'deprecated': [],
           'for_removal': False, 'since': None, 'mutable': False,
           'secret': False, 'sample_default': None}


def _by_key(pairs):
    found = {}
    for group, group_opts in pairs:
        name = group.name if isinstance(group, cfg.OptGroup) else group
        for opt in group_opts:
            found[(name, opt.dest)] = opt
    return found


def _describe(opt):
    """The attributes option_table pins, read from an Opt."""
    choices = getattr(opt.type, 'choices', None)
    return {
        'type': type(opt.type).__name__,
        'default': opt.default,
        'min': getattr(opt.type, 'min', None),
        'max': getattr(opt.type, 'max', None),
        'choices': list(choices) if choices else None,
        'deprecated': [(d.group, d.name) for d in opt.deprecated_opts],
        'for_removal': opt.deprecated_for_removal,
        'since': opt.deprecated_since,
        'mutable': opt.mutable,
        'secret': opt.secret,
        'sample_default': opt.sample_default,
    }


class TestOptionDefinitions(testtools.TestCase):

    def _check_rows(self, rows, listed):
        for group, name, type_name, default, flags in rows:
            self.assertIn((group, name), listed)
            expected = dict(_ABSENT, type=type_name, default=default,
                            **flags)
            self.assertEqual(expected, _describe(listed[(group, name)]),
                             '[%s]/%s' % (group, name))

    def test_listed_options_are_exactly_the_spec_ones(self):
        listed = _by_key(opts.list_opts())
        self.assertEqual({(g, n) for g, n, *_ in table.LISTED},
                         set(listed))
        self._check_rows(table.LISTED, listed)

    def test_recovery_flow_options(self):
        listed = _by_key(opts.list_recovery_workflow_opts())
        self.assertEqual({(g, n) for g, n, *_ in table.RECOVERY_FLOWS},
                         set(listed))
        self._check_rows(table.RECOVERY_FLOWS, listed)
        value_type = listed[(table.RECOVERY_FLOWS[0][0],
                             table.RECOVERY_FLOWS[0][1])].type.value_type
        self.assertIsInstance(value_type, types.List)
        self.assertTrue(value_type.bounds)

    def test_group_counts(self):
        # NOTE: the reference's counts plus our additions:
        # [DEFAULT]/nova_api_timeout, [host_failure]/
        # poll_compute_service_down, evacuation_poll_interval and
        # recovery_time_budget, [metrics], [takeover].
        self.assertEqual({'DEFAULT': 48, 'coordination': 1,
                          # + 4 of the mass-failure brake, + 2 of the
                          # failover capacity, + the evacuation budget
                          'host_failure': 8 + 4 + 2 + 1, 'instance_failure': 2,
                          'process_failure': 1, 'taskflow': 1,
                          'osapi_v1': 3, 'ssl': 5, 'wsgi': 11,
                          # + 2 of the failover capacity
                          'metrics': 5 + 2,
                          # our extension: fencing through the BMC
                          # + 3 of the return to service
                          'fencing': 4 + 3,
                          'takeover': 2},
                         table.count_by_group(table.LISTED))

    def test_group_titles(self):
        titles = {group.name: group.title
                  for group, _ in (opts.list_opts() +
                                   opts.list_recovery_workflow_opts())
                  if isinstance(group, cfg.OptGroup) and group.title}
        self.assertEqual('Instance failure recovery options',
                         titles['instance_failure'])
        self.assertEqual('Host failure recovery options',
                         titles['host_failure'])
        self.assertEqual('Process failure recovery options',
                         titles['process_failure'])
        self.assertEqual('Taskflow driver options', titles['taskflow'])
        self.assertEqual('Customized recovery flow Options',
                         titles['taskflow_driver_recovery_flows'])
        self.assertEqual('API v1 Options', titles['osapi_v1'])
        self.assertEqual('WSGI Options', titles['wsgi'])

    def test_every_option_is_registered_on_the_global_config(self):
        conf = masakari.conf.CONF
        for group, name, *_ in table.LISTED + table.RECOVERY_FLOWS:
            where = conf if group == 'DEFAULT' else conf[group]
            self.assertIn(name, where, '[%s]/%s' % (group, name))

    def test_every_listed_option_has_help(self):
        for group, group_opts in (opts.list_opts() +
                                  opts.list_recovery_workflow_opts()):
            for opt in group_opts:
                self.assertGreater(len(opt.help or ''), 20, opt.dest)
