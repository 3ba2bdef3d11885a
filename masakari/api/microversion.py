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

"""Microversions of the instance-ha API: the one list, and header parsing.

The client asks with ``OpenStack-API-Version: instance-ha X.Y``; the answer
carries the version used and ``Vary: OpenStack-API-Version``.
"""

import re

import microversion_parse

from masakari import exception

SERVICE_TYPE = 'instance-ha'
HEADER = 'OpenStack-API-Version'
LATEST = 'latest'

# One entry per microversion, oldest first.
VERSIONS = [
    '1.0',  # Initial API: segments, hosts, notifications, extensions.
    '1.1',  # GET /notifications/{id} adds recovery_workflow_details.
    '1.2',  # Segment "enabled" accepted in POST/PUT /segments bodies.
    '1.3',  # VM moves API (documented here; served at every version).
]

_VERSION_RE = re.compile(r'^([1-9]\d*)\.([1-9]\d*|0)$')


class Version(tuple):
    """A (major, minor) pair that prints as ``X.Y``."""

    def __new__(cls, text):
        major, minor = text.split('.')
        return super().__new__(cls, (int(major), int(minor)))

    def __str__(self):
        return '%d.%d' % self


MIN_VERSION = Version(VERSIONS[0])
MAX_VERSION = Version(VERSIONS[-1])
DEFAULT_VERSION = MIN_VERSION


def parse(headers):
    """Return the Version a request asks for.

    :param headers: the request headers (any case-insensitive mapping).
    :raises InvalidAPIVersionString: 400, not ``X.Y``.
    :raises InvalidGlobalAPIVersion: 406, outside [MIN_VERSION, MAX_VERSION].
    """
    text = microversion_parse.get_version(headers, SERVICE_TYPE)
    if text is None:
        return DEFAULT_VERSION
    if text == LATEST:
        return MAX_VERSION
    if not _VERSION_RE.match(text):
        raise exception.InvalidAPIVersionString(version=text)
    version = Version(text)
    if not MIN_VERSION <= version <= MAX_VERSION:
        raise exception.InvalidGlobalAPIVersion(
            req_ver=str(version), min_ver=str(MIN_VERSION),
            max_ver=str(MAX_VERSION))
    return version


def is_supported(req, min_version, max_version=None):
    """Whether the request's version lies in [min_version, max_version]."""
    version = req.api_version
    if version < Version(min_version):
        return False
    return max_version is None or version <= Version(max_version)


def response_headers(version):
    """The headers every microversioned response carries."""
    return {HEADER: '%s %s' % (SERVICE_TYPE, version), 'Vary': HEADER}
