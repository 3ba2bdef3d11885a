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
