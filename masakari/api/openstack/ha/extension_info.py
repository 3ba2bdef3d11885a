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

"""Entry point ``extension_info``: ``GET /v1/extensions[/{alias}]``.

Lists the descriptors of the ``masakari.api.v1.extensions`` entry points
that the caller may discover (``os_masakari_api:<alias>:discoverable``).
"""

import functools

import stevedore

from masakari.api.openstack import extensions
from masakari.api.openstack import wsgi
from masakari import exception
from masakari.policies import extension_info as policies

NAMESPACE = 'masakari.api.v1.extensions'


class ExtensionInfo(extensions.V1APIExtensionBase):
    """Extension information."""

    name = 'Extensions'
    alias = 'extensions'
    description = 'Extension information.'


@functools.lru_cache(maxsize=None)
def loaded_extensions():
    """The descriptors of the installed extensions, sorted by alias."""
    manager = stevedore.ExtensionManager(NAMESPACE, invoke_on_load=False)
    return sorted((ext.plugin for ext in manager), key=lambda e: e.alias)


def _discoverable(context):
    return [ext for ext in loaded_extensions() if context.can(
        'os_masakari_api:%s:discoverable' % ext.alias, fatal=False)]


@wsgi.expected_errors({})
def list_extensions(req):
    """200 with the discoverable extensions."""
    context = req.context
    context.can(policies.INDEX)
    return {'extensions': [ext.to_dict() for ext in _discoverable(context)]}


@wsgi.expected_errors({exception.NotFound: 404})
def show_extension(req, alias):
    """200 with one extension; 404 if unknown or not discoverable."""
    context = req.context
    context.can(policies.DETAIL)
    for ext in _discoverable(context):
        if ext.alias == alias:
            return {'extension': ext.to_dict()}
    raise exception.NotFound(message='The resource could not be found.')
