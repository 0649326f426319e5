"""Launcher exceptions. Each also inherits the matching builtin, as gpiozero's do, so callers
that only know Python's exceptions still catch them sensibly."""

from __future__ import annotations

from controller.sections import ConfigError


class LauncherError(Exception):
    """Base class for everything the launcher layer raises."""


class PinProfileError(LauncherError, ConfigError):
    """A pin profile is invalid: the message names the section and key."""


class LauncherClosed(LauncherError, RuntimeError):
    """The launcher was used after `close()`."""


class LauncherBusy(LauncherError, RuntimeError):
    """An eject was requested while another one is running."""


class LauncherFault(LauncherError, RuntimeError):
    """The launcher has a fault (jam, empty hopper, stuck button, open lid) a person must clear."""


class BackendUnavailable(LauncherError, RuntimeError):
    """The requested GPIO backend cannot be used on this machine."""
