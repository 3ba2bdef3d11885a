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

"""Version strings of Masakari.

The version is the pbr version of the ``masakari`` distribution: setup.cfg's
``version`` with, between releases, a ``.devN`` suffix counted from git
(``PBR_VERSION`` overrides it where there is no git, e.g. a ``git archive``
tarball). An optional ``release`` file, found like a config file,
may name the vendor, product and package (section ``[Masakari]``); the
package string is appended to the version in the engine's start-up log.
"""

import configparser

from oslo_config import cfg
from pbr import version as pbr_version

VENDOR = 'OpenStack Foundation'
PRODUCT = 'OpenStack Masakari'

version_info = pbr_version.VersionInfo('masakari')
# NOTE: the full string (23.0.0.dev12), not pbr's brief one (23.0.0), so
# that a development build never claims to be the release.
version_string = version_info.release_string


def _load_release():
    """Strings of the release file, or the defaults; it is optional."""
    release = {'vendor': VENDOR, 'product': PRODUCT, 'package': None}
    try:
        path = cfg.CONF.find_file('release')
    except cfg.NotInitializedError:
        # NOTE: before the configuration is parsed there is no search path.
        path = None
    if not path:
        return release
    parser = configparser.RawConfigParser()
    parser.read(path)
    for key in release:
        if parser.has_option('Masakari', key):
            release[key] = parser.get('Masakari', key)
    return release


def vendor_string():
    return _load_release()['vendor']


def product_string():
    return _load_release()['product']


def package_string():
    return _load_release()['package']


def version_string_with_package():
    """The version, followed by ``-<package>`` when a release file sets it."""
    package = package_string()
    if package is None:
        return version_string()
    return '%s-%s' % (version_string(), package)
