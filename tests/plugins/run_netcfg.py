"""`netcfg ARGS...` with the platform catalog CATALOG (argv[1]): the site's catalog, which adds
the plugin NOS's platform as step 6 of docs/vendors.md's checklist asks."""

import sys
from pathlib import Path

from netcfg import entry, platforms

platforms.load_catalog.__wrapped__.__defaults__ = (Path(sys.argv[1]),)
sys.argv = ["netcfg", *sys.argv[2:]]
entry.main()
