"""Paste filter ``faultwrap``: the last-resort JSON fault for any escape.

Handlers never reach it (``wsgi.dispatch`` answers their errors); it turns
whatever still escapes into the fault body with WebOb's default text for
the status, never the exception's own text.
"""

from oslo_log import log as logging
import webob.dec
import webob.exc

from masakari.api.openstack import wsgi

LOG = logging.getLogger(__name__)


class FaultWrapper:
    """Catch every exception of the inner layers and answer a JSON fault."""

    def __init__(self, application):
        self.application = application

    @classmethod
    def factory(cls, global_config, **local_config):
        """Paste filter factory."""
        return cls

    @webob.dec.wsgify(RequestClass=wsgi.Request)
    def __call__(self, req):
        try:
            return req.get_response(self.application)
        except Exception as exc:
            LOG.exception('Caught error: %s', exc)
            status = getattr(exc, 'code', 500)
            if not (isinstance(status, int) and status >= 400 and
                    status in webob.exc.status_map):
                status = 500
            explanation = webob.exc.status_map[status].explanation
            return wsgi.fault(status, explanation)
