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

"""Option lists for oslo-config-generator (entry points oslo.config.opts).

``list_opts`` (namespace ``masakari.conf``) gathers the ``list_opts()`` of
every module of this package except this one, in alphabetical order;
``list_recovery_workflow_opts`` (namespace
``customized_recovery_flow_opts``) lists only the recovery flow tasks.
"""

import importlib
import pkgutil

from oslo_config import cfg

from masakari import conf as conf_package
from masakari.conf import engine_driver


def _option_modules():
    names = sorted(info.name for info in
                   pkgutil.iter_modules(conf_package.__path__)
                   if not info.ispkg and info.name != 'opts')
    return [importlib.import_module('masakari.conf.' + name)
            for name in names]


def _group_items(module):
    """(group, opts) pairs of one module, from a dict or a list of pairs."""
    if not hasattr(module, 'list_opts'):
        raise AttributeError(
            "The module '%s' should have a 'list_opts' function which "
            "returns the config options." % module.__name__)
    listed = module.list_opts()
    return listed.items() if isinstance(listed, dict) else listed


def _merge(pairs):
    """Merge (group, opts) pairs by group name, keeping the first order.

    A group given as an OptGroup object is kept as such, so that its
    title and help reach the generator.
    """
    groups = {}
    options = {}
    for group, opts in pairs:
        name = group.name if isinstance(group, cfg.OptGroup) else group
        if name not in groups or isinstance(group, cfg.OptGroup):
            groups[name] = group
        options.setdefault(name, []).extend(opts)
    return [(groups[name], options[name]) for name in options]


def list_opts():
    """Every option of masakari.conf, grouped, for the generator."""
    return _merge(pair for module in _option_modules()
                  for pair in _group_items(module))


def list_recovery_workflow_opts():
    """The [taskflow_driver_recovery_flows] options, for the generator."""
    return _merge(engine_driver.list_recovery_flow_opts().items())
