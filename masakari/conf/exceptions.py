"""[DEFAULT] options about exception message formatting."""

from oslo_config import cfg

exc_log_opts = [
    cfg.BoolOpt('fatal_exception_format_errors',
                default=False,
                help="Make a failure to format an exception message fatal. "
                     "When an exception's message template does not match "
                     "the arguments it was raised with, True re-raises the "
                     "formatting error (useful in tests); False logs it and "
                     "uses the unformatted template."),
]


def register_opts(conf):
    conf.register_opts(exc_log_opts)


def list_opts():
    return {'DEFAULT': exc_log_opts}
