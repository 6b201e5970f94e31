"""The page's Python entry point (PyScript runs it on the main thread).

PyScript writes the engine (engine.zip: the wheel's members with their bytecode) and the
shared client (slotui.zip) into its working folder; Python imports them in place from there,
with nothing to unpack. The browser adapter itself is `slotui.browser`: it is imported, and
so compiled, when the build makes the Python memory snapshot (which has these zips on its
path already), so the page does not compile it on every load.
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
