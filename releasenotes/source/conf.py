"""Sphinx configuration of the release notes (reno)."""

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
