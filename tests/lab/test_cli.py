"""`netcfg lab PATH` as a user runs it: a subprocess serving an inventory until interrupted."""

from __future__ import annotations

import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import napalm
import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_serves_inventory_and_writes_devices_file(tmp_path):
    out = tmp_path / "devices.yaml"
    proc = subprocess.Popen(
        [sys.executable, "-m", "netcfg", "lab", str(ROOT / "inventories" / "multivendor"),
         "--device", "leaf-su1-r[12]", "--device", "core1", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not out.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "lab did not start"
            time.sleep(0.05)
        assert oct(out.stat().st_mode & 0o777) == "0o600"
        inventory = yaml.safe_load(out.read_text())
        devices = inventory["devices"]
        assert set(devices) == {"leaf-su1-r1", "leaf-su1-r2", "core1"}
        leaf = devices["leaf-su1-r1"]
        assert leaf["driver"] == "eos" and leaf["endpoints"]["https"]["proto"] == "https"
        driver = napalm.get_network_driver("eos")(
            leaf["address"], leaf["username"], leaf["password"],
            optional_args={"port": leaf["endpoints"]["https"]["port"],
                           "context": ssl.create_default_context(cafile=leaf["ca_file"])})
        driver.open()
        facts = driver.get_facts()
        assert facts["hostname"] == "leaf-su1-r1"
        assert "Ethernet1/1" in facts["interface_list"]
    finally:
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0, stderr
    assert "serving 3 device(s)" in stdout
    assert not out.exists()
    assert not Path(inventory["lab"]["trust_dir"]).exists()
    assert leaf["password"] not in stdout + stderr  # credentials only in the 0600 file
