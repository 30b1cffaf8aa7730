"""NX-OS emulator: NX-API JSON-RPC over HTTPS and an SSH CLI with SCP and checkpoints."""
