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

"""[database]: the oslo.db options, with Masakari's default connection URL.

Masakari adds no option of its own to this group. The default connection
is set on the config object, not on the option, so generated samples show
the library default.
"""

from oslo_db import options as oslo_db_options

DEFAULT_CONNECTION = 'sqlite:///$state_path/masakari.sqlite'


def register_opts(conf):
    oslo_db_options.set_defaults(conf, connection=DEFAULT_CONNECTION)


def list_opts():
    # NOTE: the oslo.db namespace of the generator already lists [database].
    return {}
