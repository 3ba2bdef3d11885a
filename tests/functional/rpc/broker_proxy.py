"""BrokerProxy: a TCP relay to RabbitMQ that a test can take away
(tests.fixtures.tcp_proxy; ``stop()`` closes the port and every relayed
connection at once, as a broker that went down would).
"""

from tests.fixtures import tcp_proxy

BrokerProxy = tcp_proxy.TCPProxy
