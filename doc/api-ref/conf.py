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

"""Sphinx configuration of the instance-ha API reference (os-api-ref)."""

extensions = ['os_api_ref']

# NOTE: os-api-ref is styled for openstackdocstheme; fall back to a stock
# theme where it is not installed so that the reference still builds.
try:
    import openstackdocstheme  # noqa: F401
except ImportError:
    html_theme = 'alabaster'
else:
    extensions.append('openstackdocstheme')
    html_theme = 'openstackdocs'
    html_theme_options = {'sidebar_mode': 'toc'}
    openstackdocs_repo_name = 'openstack/masakari'
    openstackdocs_bug_project = 'masakari'
    openstackdocs_bug_tag = 'api-ref'
    openstackdocs_auto_name = False
    openstackdocs_use_storyboard = False

project = 'Masakari API Reference'
copyright = 'The Masakari rewrite developers'
master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = ['_build']
pygments_style = 'native'
