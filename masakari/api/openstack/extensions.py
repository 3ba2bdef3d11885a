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

"""The descriptor each ``masakari.api.v1.extensions`` entry point names.

Operators' tooling lists these through ``GET /v1/extensions``; routes do
not come from here (see ``masakari.api.openstack.ha.ROUTES``).
"""


class V1APIExtensionBase:
    """Name, alias and description of one API resource."""

    name = None
    alias = None
    description = None

    @classmethod
    def to_dict(cls):
        """The extension as ``GET /v1/extensions`` shows it."""
        return {'name': cls.name, 'alias': cls.alias,
                'description': cls.description, 'namespace': '',
                'updated': '', 'links': []}
