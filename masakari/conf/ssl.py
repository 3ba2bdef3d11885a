"""[ssl] options, registered through oslo.service for compatibility.

Masakari never reads them: the standalone API takes its TLS settings from
[DEFAULT]/use_ssl and [wsgi]/ssl_*.
"""

from oslo_service import sslutils


def register_opts(conf):
    sslutils.register_opts(conf)


def list_opts():
    # NOTE: old-style [(group, opts)] list, as the library returns it.
    return sslutils.list_opts()
