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

"""Entry point ``versions``: the v1 version document.

Served for ``GET /v1``, ``GET /v1/`` and ``GET /v1/versions/v1.0``; no
policy is checked.
"""

from masakari.api.openstack import extensions
from masakari.api.openstack.ha import versions
from masakari.api.openstack import wsgi
from masakari import exception

DESCRIBED_BY = {'rel': 'describedby', 'type': 'text/html',
                'href': 'https://docs.openstack.org/'}


class Versions(extensions.V1APIExtensionBase):
    """API Version information."""

    name = 'Versions'
    alias = 'versions'
    description = 'API Version information.'


@wsgi.expected_errors({exception.NotFound: 404})
def show_version(req, version_id=versions.V1_ID):
    """The v1 document; 200, or 404 for any other version id."""
    if version_id != versions.V1_ID:
        raise exception.NotFound(message='The resource could not be found.')
    document = versions.v1_summary(versions.url_join(versions.link_base(req),
                                                     ''))
    document['links'].append(dict(DESCRIBED_BY))
    document['media-types'] = versions.V1_MEDIA_TYPES
    return {'version': document}
