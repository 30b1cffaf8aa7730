"""Arista EOS emulator (eAPI)."""
