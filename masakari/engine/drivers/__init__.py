"""Notification drivers shipped with Masakari (entry points in
``masakari.driver``)."""
