"""All Masakari options, registered on the global oslo.config object.

Importing this package registers every option of every group, so any
module can read ``masakari.conf.CONF.<group>.<name>``.
"""

from oslo_config import cfg

from masakari.conf import exceptions

CONF = cfg.CONF

exceptions.register_opts(CONF)
