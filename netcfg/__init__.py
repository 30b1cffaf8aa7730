"""netcfg: one declarative intent for a lossless RoCEv2 GPU fabric -> safe vendor configs."""

#: the one place of the version: pyproject.toml reads it, CHANGELOG.md names it, a tag
#: v<version> marks its commit
__version__ = "0.4.0"
