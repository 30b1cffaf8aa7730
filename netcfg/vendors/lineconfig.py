"""The indented line configuration of EOS and NX-OS: the parser is part of what a line NOS is
(netcfg/nos/lineconfig.py), so the deploy layer reads it without loading the vendor packages;
the readers import it from here too."""

from netcfg.nos.lineconfig import HEREDOCS, Statement, parse

__all__ = ["HEREDOCS", "Statement", "parse"]
