# mod_wsgi script of the Masakari API: WSGIScriptAlias points here.
#
# The application reads $OS_MASAKARI_CONFIG_DIR/api-paste.ini and
# masakari.conf.  mod_wsgi daemons inherit Apache's environment, not SetEnv,
# so the directory is taken from that environment (e.g. an export in
# /etc/apache2/envvars), else /etc/masakari.
import os

os.environ.setdefault('OS_MASAKARI_CONFIG_DIR', '/etc/masakari')

from masakari.wsgi.api import application  # noqa: E402,F401
