"""The table's own settings, changed from a tablet and kept in the event log's database: the
table PIN (a new PIN locks every other tablet out) and the language new tablets start in.

The PIN is kept only as a salted hash (`table_pin_hash`); a PIN stored in plain text by an
older version is hashed and blanked on start. The database holds the key that signs the
tablets' cookies, so it is made readable by its owner only (0600) whatever the umask.
"""

from __future__ import annotations

import glob
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from controller.config import Config
from controller.table import InvalidInput, TableService

from .i18n import LANGUAGES, t

ROUNDS = 60_000  # PBKDF2-SHA256 rounds for the PIN: a few ms per check on a Raspberry Pi 4
DEFAULT_PIN = "1234"
PASSWORD_LENGTH = 8  # an admin password shorter than this is warned about


def valid_pin(pin: object) -> bool:
    """4 to 8 ASCII digits (`²³⁴⁵` and full-width digits are not digits a keypad types)."""
    return isinstance(pin, str) and pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8


def hash_pin(pin: str, salt: str | None = None) -> str:
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), ROUNDS)
    return f"pbkdf2_sha256${ROUNDS}${salt}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        _, rounds, salt, digest = stored.split("$")
        expected = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(expected.hex(), digest)


def keep_private(database: Path) -> None:
    """Make the database, its WAL files and its backups readable by the service's user only."""
    for path in database.parent.glob(f"{glob.escape(database.name)}*"):
        try:
            if stat.S_IMODE(path.stat().st_mode) & 0o077:
                os.chmod(path, 0o600)
        except OSError:  # not there (yet), or not ours to change: nothing more to do here
            continue


class TableSettings:
    def __init__(self, table: TableService, config: Config, secret: str) -> None:
        self._table = table
        self._secret = secret.encode()
        self._config = config
        keep_private(table.log_path)
        self.pin_hash = self._stored_pin_hash(config.table.pin)
        self.language = table.setting("language") or config.table.language

    def _stored_pin_hash(self, configured: str) -> str:
        stored = self._table.setting("table_pin_hash")
        if stored:
            return stored
        legacy = self._table.setting("table_pin")  # kept in plain text by older versions
        if legacy:
            hashed = hash_pin(legacy)
            self._table.set_setting("table_pin_hash", hashed)
            self._table.set_setting("table_pin", "")
            return hashed
        # The config's PIN: hashed with a salt of this table's own, so the same PIN keeps the
        # same epoch across restarts (unlocked tablets stay unlocked) and a new one locks them.
        salt = hmac.new(self._secret, b"config pin salt", hashlib.sha256).hexdigest()[:32]
        return hash_pin(configured, salt)

    @property
    def epoch(self) -> str:
        """Changes with the PIN: an unlocked tablet's grant must show the current one."""
        return self._sign("pin", self.pin_hash)

    @property
    def admin_epoch(self) -> str | None:
        """Changes with the admin password: None when there is none (nobody is admin)."""
        password = self._config.service.admin_password
        return self._sign("admin", password) if password else None

    def _sign(self, kind: str, text: str) -> str:
        return hmac.new(self._secret, f"{kind}:{text}".encode(), hashlib.sha256).hexdigest()[:16]

    def matches(self, pin: str) -> bool:
        return valid_pin(pin) and pin_matches(pin, self.pin_hash)

    def password_matches(self, password: str) -> bool:
        expected = self._config.service.admin_password
        return bool(expected) and hmac.compare_digest(password.encode(), expected.encode())

    def change_pin(self, pin: object) -> None:
        if not isinstance(pin, str) or not valid_pin(pin):
            raise InvalidInput("the table PIN must be 4 to 8 digits (0-9)")
        hashed = hash_pin(pin)
        self._table.set_setting("table_pin_hash", hashed)
        self.pin_hash = hashed

    def set_language(self, language: object) -> None:
        if language not in LANGUAGES:
            raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}")
        self._table.set_setting("language", str(language))
        self.language = str(language)

    def warnings(self, language: str = "en") -> list[str]:
        """What a careful operator must fix before the table goes on a shared network, in
        `language` (the log's are English)."""
        found = []
        if pin_matches(DEFAULT_PIN, self.pin_hash):
            found.append(t("warn_default_pin", language))
        password = self._config.service.admin_password
        if not password:
            found.append(t("warn_no_admin_password", language))
        elif len(password) < PASSWORD_LENGTH:
            found.append(t("warn_short_password", language).format(length=PASSWORD_LENGTH))
        return found
