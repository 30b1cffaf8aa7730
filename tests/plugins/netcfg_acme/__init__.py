"""A third-party NOS, "acme", as another distribution would add it (docs/vendors.md): what it
is (facts.py, the `netcfg.nos` entry point) and what netcfg does with it (vendor.py, the
`netcfg.vendors` entry point), with its own templates. tests/test_plugin.py installs it."""
