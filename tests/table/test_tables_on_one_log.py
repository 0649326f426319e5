"""Several tables on one event log: each its own owner thread, its own records and its own
settings; the table "main" keeps its settings where a service of one table always had them."""

from __future__ import annotations

from controller.store import LOSSES, Store
from controller.table.service import TableService

from .conftest import SETUP


def test_tables_keep_their_own_records_and_settings(store: Store) -> None:
    main = TableService(store).start()
    other = TableService(store, table_id="b").start()
    try:
        main.submit({"type": "setup", "setup": SETUP})
        two = {"players": ["Eve", "Fay"], "first_dealer": 1}
        other.submit({"type": "setup", "setup": SETUP | two})
        other.submit({"type": "deal"})
        assert [r.kind for r in main.all_records()] == ["setup"]
        assert [r.kind for r in other.all_records()] == ["setup", "deal"]
        assert main.snapshot()["setup"]["players"] == SETUP["players"]
        assert other.snapshot()["setup"]["players"] == ["Eve", "Fay"]
        assert other.snapshot()["table_id"] == "b"

        main.set_setting("language", "zh-CN")
        other.set_setting("language", "en")
        assert (main.setting("language"), other.setting("language")) == ("zh-CN", "en")
        assert store.setting("language") == "zh-CN"  # where a one-table service keeps it
        assert store.setting("b:language") == "en"
        store.set_setting(LOSSES, "[]")  # what the log says of itself is every table's
        assert main.setting(LOSSES) == other.setting(LOSSES) == "[]"
    finally:
        main.stop()
        other.stop()
