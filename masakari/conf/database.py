"""[database]: the oslo.db options, with Masakari's default connection URL.

Masakari adds no option of its own to this group. The default connection
is set on the config object, not on the option, so generated samples show
the library default.
"""

from oslo_db import options as oslo_db_options

DEFAULT_CONNECTION = 'sqlite:///$state_path/masakari.sqlite'


def register_opts(conf):
    oslo_db_options.set_defaults(conf, connection=DEFAULT_CONNECTION)


def list_opts():
    # NOTE: the oslo.db namespace of the generator already lists [database].
    return {}
