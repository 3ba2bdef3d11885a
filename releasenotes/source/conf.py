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

"""Sphinx configuration of the release notes (reno)."""

import configparser
import os

from docutils import nodes

extensions = ['reno.sphinxext']

# NOTE: same theme as the documentation when available, else a stock one.
try:
    import openstackdocstheme  # noqa: F401
except ImportError:
    html_theme = 'alabaster'
else:
    extensions.append('openstackdocstheme')
    html_theme = 'openstackdocs'
    openstackdocs_repo_name = 'openstack/masakari'
    openstackdocs_bug_project = 'masakari'
    openstackdocs_bug_tag = 'releasenotes'
    openstackdocs_auto_name = False
    openstackdocs_use_storyboard = False

source_suffix = '.rst'
master_doc = 'index'
project = 'Masakari Release Notes'
copyright = 'The Masakari rewrite developers'
release = ''
version = ''
exclude_patterns = []
pygments_style = 'native'
html_static_path = ['_static']
templates_path = ['_templates']

# NOTE: reno names the notes of a repository without release tags "0.0.0"
# (the :unreleased-version-title: option only applies after a first tag);
# until then they are the unreleased series that setup.cfg's version names.
UNTAGGED_VERSION = '0.0.0'
_SETUP = configparser.ConfigParser()
_SETUP.read(os.path.join(os.path.dirname(__file__), '..', '..', 'setup.cfg'))
UNRELEASED_TITLE = '%s (unreleased)' % _SETUP['metadata']['version']


def _retitle_untagged(app, doctree):
    for title in doctree.findall(nodes.title):
        if title.astext() == UNTAGGED_VERSION:
            title.children = [nodes.Text(UNRELEASED_TITLE)]


def setup(app):
    # Before the table of contents is collected from the titles.
    app.connect('doctree-read', _retitle_untagged, priority=100)
