# pbr reads setup.cfg; this shim exists only because setuptools needs a
# setup.py to pass the "pbr" keyword that turns pbr on.
import setuptools

setuptools.setup(pbr=True)
