"""SONiC emulator: an SSH shell with config_db state, `config replace`/`apply-patch`,
checkpoints."""
