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
