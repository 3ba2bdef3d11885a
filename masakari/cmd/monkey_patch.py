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

"""Turn the process into an eventlet process: import this module first.

Importing it disables eventlet's green DNS resolver (EVENTLET_NO_GREENDNS,
which would otherwise replace the system resolver and ignore
/etc/nsswitch.conf) and then applies ``eventlet.monkey_patch()`` with its
defaults (socket, thread, time, select, os...).

Only masakari/cmd/api.py and masakari/cmd/engine.py import it, as their
first import, before any module that could create a thread, a lock or a
socket. masakari-manage, masakari-status and the tests never import it, so
those processes keep the standard library unpatched.
"""

import os

# NOTE: must be set before eventlet is first imported.
os.environ['EVENTLET_NO_GREENDNS'] = 'yes'

import eventlet  # noqa: E402

eventlet.monkey_patch()
