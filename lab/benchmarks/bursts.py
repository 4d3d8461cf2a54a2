"""A burst: calls released together in threads, as 50 people pressing at once would be.
The benchmarks and the tests make their bursts with it."""

from __future__ import annotations

import threading

from django.db import connections


def at_once(calls: list) -> list:
    """Run the calls in threads released together; return each result, or its exception
    (the refused ones are answers too). Each thread closes its database connections."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
