"""[DEFAULT] options shared by the services: temporary files, decorators."""

from oslo_config import cfg

base_opts = [
    cfg.StrOpt('tempdir',
               help="Directory for temporary files. The engine checks at "
                    "start-up that it can create a directory there and "
                    "refuses to start otherwise. Unset means the system "
                    "default (TMPDIR, then /tmp)."),
    cfg.BoolOpt('monkey_patch',
                default=False,
                help="Wrap the functions and methods of the modules named "
                     "in monkey_patch_modules with a decorator when the "
                     "engine starts (a debugging aid, e.g. to trace calls)."),
    cfg.ListOpt('monkey_patch_modules',
                default=['masakari.api:masakari.cmd'],
                help="Items of the form <module>:<decorator>, where "
                     "<decorator> is the dotted path of a callable applied "
                     "to every function of <module>. Only used when "
                     "monkey_patch is true; note that the default names a "
                     "module, not a decorator, so it must be changed "
                     "before enabling monkey_patch."),
]


def register_opts(conf):
    conf.register_opts(base_opts)


def list_opts():
    return {'DEFAULT': base_opts}
