"""The table's own settings, changed from a tablet and kept in the event log's database: the
table PIN (a new PIN locks every other tablet out) and the language new tablets start in."""

from __future__ import annotations

import hashlib
import hmac

from controller.config import Config
from controller.store import Store
from controller.table.codec import BadRequest

from .i18n import LANGUAGES


class TableSettings:
    def __init__(self, store: Store, config: Config, secret: str) -> None:
        self._store = store
        self._secret = secret.encode()
        self.pin = store.setting("table_pin") or config.table.pin
        self.language = store.setting("language") or config.table.language

    @property
    def epoch(self) -> str:
        """Changes with the PIN: what an unlocked tablet's cookie must show."""
        return hmac.new(self._secret, self.pin.encode(), hashlib.sha256).hexdigest()[:16]

    def matches(self, pin: str) -> bool:
        return hmac.compare_digest(pin.encode(), self.pin.encode())

    def change_pin(self, pin: object) -> None:
        if not isinstance(pin, str) or not (pin.isdigit() and 4 <= len(pin) <= 8):
            raise BadRequest("the table PIN must be 4 to 8 digits")
        self._store.set_setting("table_pin", pin)
        self.pin = pin

    def set_language(self, language: object) -> None:
        if language not in LANGUAGES:
            raise BadRequest(f"language must be one of {', '.join(LANGUAGES)}")
        self._store.set_setting("language", str(language))
        self.language = str(language)
