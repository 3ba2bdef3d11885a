"""[DEFAULT] path options, used for interpolation ($state_path...)."""

import os
import sys

from oslo_config import cfg

# NOTE: the directory that contains the masakari package, two levels above
# this file (masakari/conf/paths.py).
_PACKAGE_PARENT = os.path.abspath(
    os.path.join(os.path.dirname(__file__), '..', '..'))

path_opts = [
    cfg.StrOpt('pybasedir',
               default=_PACKAGE_PARENT,
               sample_default='<Path>',
               help="Directory where the masakari Python package is "
                    "installed. Only used to build other paths."),
    cfg.StrOpt('bindir',
               default=os.path.join(sys.prefix, 'local', 'bin'),
               sample_default='<sys.prefix>/local/bin',
               help="Directory where Masakari's programs are installed. "
                    "Not used by Masakari itself."),
    cfg.StrOpt('state_path',
               default='$pybasedir',
               help="Top-level directory for Masakari's state. Only the "
                    "default [database]/connection (a SQLite file) uses "
                    "it."),
]


def register_opts(conf):
    conf.register_opts(path_opts)


def list_opts():
    return {'DEFAULT': path_opts}
