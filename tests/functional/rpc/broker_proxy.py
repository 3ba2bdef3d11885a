"""BrokerProxy: a TCP relay to RabbitMQ that a test can take away.

Masakari's transports connect through it; ``stop()`` closes the port and
every relayed connection at once, as a broker that went down would (the
shared RabbitMQ itself is never stopped).
"""

import socket
import threading

import fixtures


class BrokerProxy(fixtures.Fixture):
    """Relay 127.0.0.1:<port> to ``upstream`` (host, port).

    After set-up: ``port``; ``url(transport_url)`` is that transport URL
    with the broker's address replaced by the relay's.
    """

    def __init__(self, upstream):
        super().__init__()
        self.upstream = upstream
        self._sockets = []
        self._lock = threading.Lock()

    def _setUp(self):
        self._listener = socket.socket()
        self._listener.bind(('127.0.0.1', 0))
        self._listener.listen(16)
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, name='broker-proxy',
                         daemon=True).start()
        self.addCleanup(self.stop)

    def url(self, transport_url):
        scheme, rest = transport_url.split('://', 1)
        credentials, address = rest.rsplit('@', 1)
        path = address.split('/', 1)[1] if '/' in address else ''
        return '%s://%s@127.0.0.1:%d/%s' % (
            scheme, credentials, self.port, path)

    def _accept(self):
        while True:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets.extend((client, server))
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._relay, args=(source, target),
                                 daemon=True).start()

    @staticmethod
    def _relay(source, target):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                target.sendall(data)
        except OSError:
            pass
        _shut(source)
        _shut(target)

    def stop(self):
        """Refuse new connections and cut the relayed ones."""
        # NOTE: shutdown() wakes the thread blocked in accept(); close()
        # alone would leave the port accepting.
        _shut(self._listener)
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                _shut(sock)
                sock.close()
            self._sockets = []


def _shut(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
