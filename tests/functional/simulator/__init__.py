"""The masakari-simulator command, run as a process and driven over HTTP."""
