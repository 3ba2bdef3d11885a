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

"""[DEFAULT]/monkey_patch: wrap the functions of chosen modules with a
decorator when masakari-engine starts (a debugging aid, e.g. tracing).
"""

import inspect
import pyclbr
import sys

from oslo_utils import importutils

import masakari.conf

CONF = masakari.conf.CONF


def decorate_module(module, decorator):
    """Wrap every function and method defined in ``module``.

    :param decorator: called as ``decorator(qualified_name, function)``;
        returns the replacement.
    """
    importutils.import_module(module)
    for name, item in pyclbr.readmodule_ex(module).items():
        qualified = '%s.%s' % (module, name)
        if isinstance(item, pyclbr.Class):
            cls = importutils.import_class(qualified)
            for method, function in inspect.getmembers(cls,
                                                       inspect.isfunction):
                setattr(cls, method,
                        decorator('%s.%s' % (qualified, method), function))
        elif isinstance(item, pyclbr.Function):
            setattr(sys.modules[module], name,
                    decorator(qualified, importutils.import_class(qualified)))


def apply_from_config():
    """Decorate the ``<module>:<decorator path>`` items of
    [DEFAULT]/monkey_patch_modules when [DEFAULT]/monkey_patch is true.
    """
    if not CONF.monkey_patch:
        return
    for item in CONF.monkey_patch_modules:
        module, decorator = item.split(':')
        decorate_module(module, importutils.import_class(decorator))
