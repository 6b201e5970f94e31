"""The page's Python entry point (PyScript runs it on the main thread).

PyScript writes the engine (engine.zip: the wheel's members with their bytecode) and the
shared client (slotui.zip) into its working folder; Python imports them in place from there,
with nothing to unpack and nothing to compile (each module's bytecode is beside it, and the
methods of its dataclasses: `slotui.codecache`). The browser adapter itself is
`slotui.browser`. On a repeat visit, Python starts from the build's memory snapshot, where
all of it is imported already.
"""

import os
import sys

for _zip in ("engine.zip", "slotui.zip"):
    if os.path.abspath(_zip) not in sys.path:
        sys.path.insert(0, os.path.abspath(_zip))

from slotui.codecache import install  # noqa: E402  (the zips above hold it)

install()  # the build's compiled dataclass methods, before the first class is defined

from slotui.browser import main  # noqa: E402

await main()
