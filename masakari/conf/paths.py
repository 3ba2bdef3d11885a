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
