"""LanceDB imported with deferred validators (app/store/lance.py) behaves as usual."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import pydantic
    eager = pydantic.validate_call
    from app.store import lance
    lancedb = lance.lancedb()
    assert pydantic.validate_call is eager, "validate_call was not put back"
    assert not pydantic.BaseModel.model_config.get("defer_build"), "model config not put back"
    from lance_namespace_urllib3_client.models.json_arrow_field import JsonArrowField
    int_type = {"type": "int32"}
    field = JsonArrowField.model_validate({"name": "a", "nullable": True, "type": int_type})
    assert field.name == "a"
    try:
        JsonArrowField.model_validate({"nullable": "not a bool"})
    except pydantic.ValidationError:
        pass
    else:
        raise SystemExit("a deferred model accepted bad input")
    from lance_namespace_urllib3_client.api.table_api import TableApi
    try:
        TableApi().alter_table_add_columns(id=12, alter_table_add_columns_request=None)
    except pydantic.ValidationError as error:
        print("validated:", error.error_count(), "errors")
    else:
        raise SystemExit("the deferred validator let bad arguments through")
    """
)


def test_deferred_validators_still_validate_and_pydantic_is_restored() -> None:
    # A fresh interpreter: the test session has imported lancedb long before.
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "validated: 2 errors" in result.stdout


RACE = textwrap.dedent(
    """
    import threading, time
    from app.store import lance
    seen = []
    def use():
        seen.append(lance.lancedb().connect)  # AttributeError on a half-imported module
    threads = [threading.Thread(target=use) for _ in range(4)]
    for thread in threads:
        thread.start()
        time.sleep(0.05)  # the later ones ask while the first is still importing
    for thread in threads:
        thread.join()
    print("connected:", len(seen))
    """
)


def test_threads_importing_at_once_all_get_the_whole_module() -> None:
    # As at start-up: the index check and the searcher each open a store in their thread.
    result = subprocess.run(
        [sys.executable, "-c", RACE], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "connected: 4" in result.stdout, result.stderr
