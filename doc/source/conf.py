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

"""Sphinx configuration of the Masakari documentation (doc/source).

The configuration and policy references are generated from the code by the
oslo.config and oslo.policy Sphinx extensions, through the generator files
in etc/masakari, so they never drift from the options and rules. The
diagrams are graphviz sources (``dot``, Debian package graphviz); the
pictures of a real run are drawn at build time from its recording
(``_exts/pictures.py``).
"""

import os
import sys

DOC_DIR = os.path.dirname(os.path.abspath(__file__))
ETC_DIR = os.path.join(DOC_DIR, '..', '..', 'etc', 'masakari')
# Our own extensions (the notification samples directive, the pictures).
sys.path.insert(0, os.path.join(DOC_DIR, '_exts'))

extensions = [
    'oslo_config.sphinxext',
    'oslo_config.sphinxconfiggen',
    'oslo_policy.sphinxext',
    'oslo_policy.sphinxpolicygen',
    'sphinx.ext.graphviz',
    'notification_samples',
    'pictures',
]
graphviz_output_format = 'svg'
exclude_patterns = ['_build']

# NOTE: openstackdocstheme works offline; fall back to a stock theme where
# it is not installed so that the docs still build.
try:
    import openstackdocstheme  # noqa: F401
except ImportError:
    html_theme = 'alabaster'
else:
    extensions.append('openstackdocstheme')
    html_theme = 'openstackdocs'
    openstackdocs_repo_name = 'openstack/masakari'
    openstackdocs_bug_project = 'masakari'
    openstackdocs_bug_tag = 'doc'
    openstackdocs_auto_name = False
    openstackdocs_use_storyboard = False

# Samples published under _static (generated at build time, git-ignored).
config_generator_config_file = [
    (os.path.join(ETC_DIR, 'masakari-config-generator.conf'),
     '_static/masakari'),
    (os.path.join(ETC_DIR,
                  'masakari-customized-recovery-flow-config-generator.conf'),
     '_static/masakari-custom-recovery-methods'),
]
policy_generator_config_file = os.path.join(
    ETC_DIR, 'masakari-policy-generator.conf')
sample_policy_basename = '_static/masakari'

project = 'Masakari'
copyright = 'The Masakari rewrite developers'

# Manual pages of the programs (sphinx-build -b man doc/source <mandir>):
# the systemd units of etc/systemd name them in Documentation=.
man_pages = [
    ('cli/masakari-api', 'masakari-api', 'Masakari REST API server',
     [copyright], 8),
    ('cli/masakari-engine', 'masakari-engine',
     'Masakari recovery engine', [copyright], 8),
    ('cli/masakari-manage', 'masakari-manage',
     'Masakari database and recovery administration', [copyright], 8),
    ('cli/masakari-status', 'masakari-status',
     'Masakari upgrade checks', [copyright], 8),
    ('cli/masakari-simulator', 'masakari-simulator',
     'simulated Keystone, Nova and BMCs for rehearsing recoveries',
     [copyright], 1),
    ('cli/masakari-aio', 'masakari-aio',
     'Masakari in one process against a simulated cloud', [copyright], 1),
]
man_make_section_directory = True
master_doc = 'index'
source_suffix = '.rst'
pygments_style = 'native'
html_static_path = ['_static']
templates_path = []
