"""What netcfg's own NAPALM drivers share (netcfg/vendors/sonic/driver.py and
netcfg/vendors/cumulus/driver.py): a line-by-line shell session over netmiko."""
