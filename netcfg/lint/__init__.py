"""`netcfg lint`: every check netcfg knows as one pre-deploy gate with CI-native output."""
