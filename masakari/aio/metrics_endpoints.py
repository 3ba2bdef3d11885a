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

"""The two metrics endpoints of masakari-aio, as a deployment has them.

One process records everything; the API endpoint serves the API's
families and the engine endpoint all the others (the engine's, Nova's and
Keystone's, the process's), so that the shipped dashboard and alerts,
which expect the jobs ``masakari-api`` and ``masakari-engine``, work
unchanged and nothing is counted twice.
"""

import prometheus_client

API_PREFIX = 'masakari_api_'


class _Selected:
    """The metrics of the default registry whose name starts with
    ``prefix`` (``wanted``) or does not.
    """

    def __init__(self, prefix, wanted):
        self.prefix = prefix
        self.wanted = wanted

    def collect(self):
        for metric in prometheus_client.REGISTRY.collect():
            if metric.name.startswith(self.prefix) == self.wanted:
                yield metric


def _registry(*collectors):
    registry = prometheus_client.CollectorRegistry()
    for collector in collectors:
        registry.register(collector)
    return registry


class Endpoint:
    """One HTTP endpoint serving a registry from a daemon thread."""

    def __init__(self, registry):
        self.registry = registry
        self._server = None

    def start(self, address, port):
        """Bind ``address:port`` and serve; raises OSError when the port
        cannot be bound.
        """
        self._server, _thread = prometheus_client.start_http_server(
            port, addr=address, registry=self.registry)
        return self

    @property
    def url(self):
        address, port = self._server.server_address[:2]
        return 'http://%s:%d/metrics' % (address, port)

    def stop(self):
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def api_endpoint():
    """The endpoint of the API's families."""
    return Endpoint(_registry(_Selected(API_PREFIX, True)))


def engine_endpoint(collectors=()):
    """The endpoint of every other family, and of ``collectors`` (asked
    at each scrape).
    """
    return Endpoint(_registry(_Selected(API_PREFIX, False), *collectors))
