"""masakari-aio: masakari-api, masakari-engine and a simulated cloud in one
process, on embedded defaults (SQLite, in-process messaging, noauth2).

``runtime.AllInOne`` starts and stops the pieces, ``profile`` writes their
configuration, ``demo`` drives a host recovery over HTTP; the console
script is masakari/cmd/aio.py.
"""
