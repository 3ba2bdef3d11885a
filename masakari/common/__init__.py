"""Helpers shared by the Masakari programs that are not options themselves."""
