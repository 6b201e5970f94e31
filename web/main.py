"""The page's Python entry point (PyScript runs it on the main thread).

The browser adapter itself is `slotui.browser`: it is imported, and so compiled, when the
build makes the Python memory snapshot, so the page does not compile it on every load.
"""

from slotui.browser import main

await main()
