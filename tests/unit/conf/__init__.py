"""Tests of the option definitions, the generator files and etc/masakari."""
