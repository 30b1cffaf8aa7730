"""One package per NOS behind one typed interface (`Vendor`), found through entry points."""

from netcfg.vendors.base import Capabilities, DeployAdapter, Vendor
from netcfg.vendors.registry import VendorError, names, vendor, vendors

__all__ = ["Capabilities", "DeployAdapter", "Vendor", "VendorError", "names", "vendor",
           "vendors"]
