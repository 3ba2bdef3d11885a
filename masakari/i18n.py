"""oslo.i18n set-up for the masakari domain.

The reference ships no message catalogues; messages therefore stay English,
but every user-facing string still goes through ``_()`` so a catalogue can
be added without touching the code.
"""

import oslo_i18n

DOMAIN = 'masakari'

_translators = oslo_i18n.TranslatorFactory(domain=DOMAIN)

# The primary translation function using the well-known name "_"
_ = _translators.primary


def translate(value, user_locale):
    return oslo_i18n.translate(value, user_locale)


def get_available_languages():
    return oslo_i18n.get_available_languages(DOMAIN)
