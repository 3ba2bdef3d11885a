"""masakari-engine: process notifications and run the recovery flows."""

import masakari.cmd.monkey_patch  # noqa: F401 (first: patches the process)

import inspect
import pyclbr
import sys

from oslo_log import log as logging
from oslo_service import service as oslo_service
from oslo_utils import importutils

import masakari.conf
from masakari import config
from masakari.notifications import api as notifications
from masakari import objects
from masakari import service

CONF = masakari.conf.CONF


def _decorate(module, decorator):
    """Wrap every function and method of ``module`` with ``decorator``,
    called as ``decorator(qualified_name, function)``.
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


def apply_monkey_patch_decorators():
    """[DEFAULT]/monkey_patch: decorate the modules named in
    monkey_patch_modules (``<module>:<decorator path>`` items).
    """
    if not CONF.monkey_patch:
        return
    for item in CONF.monkey_patch_modules:
        module, decorator = item.split(':')
        _decorate(module, importutils.import_class(decorator))


def main():
    """Parse the configuration and run the engine until it is stopped.

    :returns: the exit status (None after a clean stop).

    Exits with status 1 when no notification driver is configured or it
    cannot be imported, or when the temporary directory is unusable; the
    taskflow driver's InvalidConfiguration (no [taskflow]/connection)
    aborts the start.
    """
    config.parse_args(sys.argv)
    logging.setup(CONF, 'masakari')
    apply_monkey_patch_decorators()
    objects.register_all()
    notifications.set_binary(notifications.ENGINE_BINARY)
    server = service.Service.create(binary=notifications.ENGINE_BINARY)
    launcher = oslo_service.launch(CONF, server, restart_method='mutate')
    return launcher.wait()
