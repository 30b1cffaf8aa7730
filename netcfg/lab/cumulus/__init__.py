"""NVIDIA Cumulus Linux emulator: NVUE (`nv`) commands over an SSH shell."""
