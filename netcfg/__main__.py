"""`python -m netcfg` is the `netcfg` command."""

from netcfg.cli import main

main()
