"""Access to the compute service: ``masakari.compute.nova.API``."""
