"""Sphinx configuration of the release notes (reno)."""

extensions = ['reno.sphinxext']
source_suffix = '.rst'
master_doc = 'index'
project = 'Masakari Release Notes'
copyright = 'The Masakari rewrite developers'
release = ''
version = ''
exclude_patterns = []
pygments_style = 'sphinx'
html_theme = 'alabaster'
html_static_path = ['_static']
templates_path = ['_templates']
