"""netcfg: one declarative intent for a lossless RoCEv2 GPU fabric -> safe vendor configs."""

__version__ = "0.1.0"
