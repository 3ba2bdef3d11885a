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

"""Serve Keystone's WSGI application on a loopback port, for tests.

Run with the Python of the Keystone virtualenv (tools/keystone/setup-venv):

    python serve.py --config-file DIR/keystone.conf [--port PORT]

The socket is bound first and ``keystone listening on http://127.0.0.1:PORT``
printed at once (port 0 = a free port), so that the caller can bootstrap
Keystone with its URL while the application loads. Requests are answered
once the application is loaded. Stops on SIGTERM or SIGINT.
"""

import argparse
import os
import signal
import socketserver
import sys
from wsgiref import simple_server


class _ThreadingServer(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True


class _QuietHandler(simple_server.WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--config-file', required=True)
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=0)
    args = parser.parse_args()

    server = simple_server.make_server(
        args.host, args.port, simple_server.demo_app,
        server_class=_ThreadingServer, handler_class=_QuietHandler)
    print('keystone listening on http://%s:%d' % server.server_address,
          flush=True)

    # NOTE: keystone.wsgi.api reads its configuration files from these two
    # variables when it is imported.
    config_file = os.path.abspath(args.config_file)
    os.environ['OS_KEYSTONE_CONFIG_DIR'] = os.path.dirname(config_file)
    os.environ['OS_KEYSTONE_CONFIG_FILES'] = os.path.basename(config_file)
    from keystone.wsgi import api
    server.set_app(api.application)

    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()


if __name__ == '__main__':
    main()
