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

"""Masakari's programs, one module per console script (api, engine...).

Importing this package only silences eventlet's deprecation warning. The
services that need eventlet (api, engine) import
:mod:`masakari.cmd.monkey_patch` first.
"""

import warnings

# NOTE: eventlet, imported by oslo.service and oslo.messaging, warns when
# it is imported that it is deprecated: eight lines on the console at every
# start of every program, about a library choice no operator can change.
warnings.filterwarnings('ignore', message=r'\s*Eventlet is deprecated')
