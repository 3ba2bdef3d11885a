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

"""Paste glue for authentication: the v1 pipeline and the context filters.

``pipeline_factory_v1`` picks the pipeline named by ``[DEFAULT]
auth_strategy``; ``MasakariKeystoneContext`` and ``NoAuthMiddleware``
build the request context from the identity headers.
"""

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils
import webob.dec
import webob.exc

from masakari import context

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


def pipeline_factory_v1(loader, global_conf, **local_conf):
    """Build the pipeline listed under the configured auth strategy.

    The last name is the application; the filters wrap it so that the
    first name listed is the outermost.
    """
    names = local_conf[CONF.auth_strategy].split()
    app = loader.get_app(names[-1])
    for name in reversed(names[:-1]):
        app = loader.get_filter(name)(app)
    return app


def _service_catalog(req):
    """The X-Service-Catalog header as a list of dicts, or None.

    NOTE: invalid JSON is a 500 in the reference (and a JSON value that is
    not a list of objects crashed later); a client's malformed header is
    bad input, so 400 here (doc/source/user/differences/api.rst).
    """
    raw = req.headers.get('X_SERVICE_CATALOG')
    if raw is None:
        return None
    try:
        catalog = jsonutils.loads(raw)
    except ValueError:
        catalog = None
    if not (isinstance(catalog, list) and
            all(isinstance(entry, dict) for entry in catalog)):
        raise webob.exc.HTTPBadRequest(
            explanation='Invalid service catalog json.')
    return catalog


class _ContextMiddleware:
    """Build ``environ['masakari.context']`` from the request headers."""

    def __init__(self, application):
        self.application = application

    @classmethod
    def factory(cls, global_config, **local_config):
        """Paste filter factory."""
        return cls

    def _context_kwargs(self, req):
        return {}

    @webob.dec.wsgify
    def __call__(self, req):
        remote_address = req.remote_addr
        if CONF.use_forwarded_for:
            remote_address = req.headers.get('X-Forwarded-For',
                                             remote_address)
        catalog = _service_catalog(req)
        ctx = context.RequestContext.from_environ(
            req.environ, remote_address=remote_address,
            service_catalog=catalog, **self._context_kwargs(req))
        if ctx.user_id is None and self.requires_user:
            LOG.debug('Neither X_USER_ID nor X_USER found in request')
            return webob.exc.HTTPUnauthorized()
        req.environ['masakari.context'] = ctx
        return self.application


class MasakariKeystoneContext(_ContextMiddleware):
    """Context from the headers keystonemiddleware sets; 401 without user.

    ``is_admin`` comes from the ``context_is_admin`` policy rule.
    """

    requires_user = True

    def _context_kwargs(self, req):
        return {'user_auth_plugin': req.environ.get('keystone.token_auth')}


class NoAuthMiddleware(_ContextMiddleware):
    """Context from whatever headers are sent, always admin (testing only).

    NOTE: the reference documents admin rights for the user ``admin`` only
    but grants them to every caller; clients rely on the latter.
    """

    requires_user = False

    def _context_kwargs(self, req):
        return {'is_admin': True}
