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

"""Masakari's versioned objects.

Each registered class is also exposed here as ``masakari.objects.<Name>``
(the highest registered version wins), once :func:`register_all` ran.
"""


def register_all():
    """Import the object modules so their classes get registered.

    Both binaries call this at start-up: only registered classes can be
    rebuilt from an RPC message.
    """
    __import__('masakari.objects.host')
    __import__('masakari.objects.notification')
    __import__('masakari.objects.segment')
    __import__('masakari.objects.vmove')
