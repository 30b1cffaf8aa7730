"""Juniper Junos emulator (NETCONF over SSH)."""
