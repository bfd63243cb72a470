"""One BLAS thread in the processes memoir runs: the server, the worker, the CLI.

numpy's OpenBLAS starts a thread per core and, after each product, lets them spin while
they wait for the next one. memoir's products are small (a query against 10,000 vectors,
MMR's pairwise similarities) and many run at once on a server, so the spinning only takes
CPU from other requests: one search cost 25 ms of CPU in 12.5 ms with two threads, and the
same 12.5 ms with one (decision 70). A library should not change its host's numpy, so this
is called where memoir owns the process (`memoir.entry`, `serving`), never on `import memoir`. A value the user set in
`OPENBLAS_NUM_THREADS` is left alone.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys

__all__ = ["use_one_blas_thread"]

_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def use_one_blas_thread() -> bool:
    """Ask OpenBLAS for one thread; False when the user chose otherwise or it cannot be found."""
    if "OPENBLAS_NUM_THREADS" in os.environ:
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"  # enough when numpy is not loaded yet, and for children
    if "numpy" not in sys.modules:
        return True
    return any(_set(path, 1) for path in _loaded_openblas())


def _loaded_openblas() -> set[str]:
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return set(re.findall(r"(/\S*openblas\S*\.so[\w.]*)", maps.read()))
    except OSError:  # not Linux: numpy's BLAS there is not OpenBLAS's spinning pool, or cannot be reached
        return set()


def _set(path: str, threads: int) -> bool:
    try:
        library = ctypes.CDLL(path)
    except OSError:
        return False
    for name in _SETTERS:
        setter = getattr(library, name, None)
        if setter is not None:
            setter(threads)
            return True
    return False
