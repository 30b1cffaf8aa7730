"""The lab's clock waits only for its own loop's listener tasks: a lab stopped earlier in the
same process (each lab runs its own event loop) can leave a task that never finishes, and
the next lab's `advance` must not await it from another loop (it raised "attached to a
different loop" in whichever test ran next on that worker)."""

from __future__ import annotations

import asyncio

from netcfg.lab import device


def test_settle_ignores_a_dead_labs_unfinished_task():
    old = asyncio.new_event_loop()
    stranded = old.create_future()  # never finished: its lab stopped first
    device._TASKS.add(stranded)
    old.close()
    try:
        asyncio.run(asyncio.wait_for(device.settle(), timeout=5))
        assert stranded not in device._TASKS
    finally:
        device._TASKS.discard(stranded)


def test_settle_still_waits_for_its_own_loops_tasks():
    async def scenario() -> list[str]:
        done: list[str] = []

        async def reopen() -> None:
            await asyncio.sleep(0.01)
            done.append("reopened")

        task = asyncio.ensure_future(reopen())
        device._TASKS.add(task)
        task.add_done_callback(device._TASKS.discard)
        await device.settle()
        return done

    assert asyncio.run(scenario()) == ["reopened"]
