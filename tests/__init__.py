"""Masakari tests.

unit (in-process), functional (real services), e2e (real processes).
"""
