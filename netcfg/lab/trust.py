"""Trust material made fresh for every lab run: a throw-away CA, one TLS certificate and one
SSH host key per device, all in a private (0700) temporary directory.

Clients keep verification on by trusting `ca.pem` (HTTPS APIs) and `known_hosts` (SSH) from
this directory; nothing is reused between runs, and nothing is written anywhere else.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncssh
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

_VALID = dt.timedelta(days=2)


@dataclass(frozen=True)
class DeviceTrust:
    """Paths of one device's TLS certificate/key and SSH host key, plus the public key line."""

    cert: Path
    key: Path
    host_key: Path
    host_key_public: str  # "ssh-ed25519 AAAA..."


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "netcfg lab"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


class TrustStore:
    """Owns the private directory; `close()` removes it."""

    def __init__(self, directory: str | Path | None = None) -> None:
        if directory is None:
            self.path = Path(tempfile.mkdtemp(prefix="netcfg-lab-"))
            self._owned = True
        else:
            self.path = Path(directory)
            self.path.mkdir(parents=True, exist_ok=True)
            self._owned = False
        os.chmod(self.path, 0o700)
        self._ca_key = ec.generate_private_key(ec.SECP256R1())
        now = dt.datetime.now(dt.timezone.utc)
        self._ca_cert = (
            x509.CertificateBuilder()
            .subject_name(_name("netcfg lab CA"))
            .issuer_name(_name("netcfg lab CA"))
            .public_key(self._ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + _VALID)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .sign(self._ca_key, hashes.SHA256())
        )
        self.ca_path = self.path / "ca.pem"
        self.ca_path.write_bytes(self._ca_cert.public_bytes(serialization.Encoding.PEM))
        self.known_hosts_path = self.path / "known_hosts"
        self.known_hosts_path.write_text("")

    def issue(self, device: str, address: str) -> DeviceTrust:
        """A TLS certificate for `device` at `address` (IP SAN + DNS SAN) and an SSH host key."""
        key = ec.generate_private_key(ec.SECP256R1())
        now = dt.datetime.now(dt.timezone.utc)
        san = x509.SubjectAlternativeName([x509.DNSName(device),
                                           x509.IPAddress(ipaddress.ip_address(address))])
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(device))
            .issuer_name(self._ca_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + _VALID)
            .add_extension(san, critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(self._ca_key, hashes.SHA256())
        )
        cert_path = self.path / f"{device}.crt"
        key_path = self.path / f"{device}.key"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM)
                              + self._ca_cert.public_bytes(serialization.Encoding.PEM))
        _write_private(key_path, key.private_bytes(serialization.Encoding.PEM,
                                                   serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
        host_key = asyncssh.generate_private_key("ssh-ed25519")
        host_key_path = self.path / f"{device}.ssh_host_ed25519_key"
        _write_private(host_key_path, host_key.export_private_key())
        public = host_key.export_public_key().decode().split()[:2]
        return DeviceTrust(cert_path, key_path, host_key_path, " ".join(public))

    def add_known_host(self, address: str, port: int, public: str) -> None:
        """Record a served SSH endpoint in `known_hosts` (OpenSSH syntax, port in brackets)."""
        host = address if port == 22 else f"[{address}]:{port}"
        with self.known_hosts_path.open("a") as f:
            f.write(f"{host} {public}\n")

    def close(self) -> None:
        if self._owned:
            shutil.rmtree(self.path, ignore_errors=True)
