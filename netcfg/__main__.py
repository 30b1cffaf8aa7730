"""`python -m netcfg` is the `netcfg` command."""

from netcfg.entry import main

main()
