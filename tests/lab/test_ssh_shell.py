"""The interactive SSH shell as netmiko sees it, for every NOS the lab serves over a shell:
lines typed ahead are echoed when the CLI takes them (echo, output, prompt, in order), CR, LF
and CRLF each end one line, and control bytes such as netmiko's keep-alive NUL are swallowed.
An early echo put two prompts on one line and made netmiko lose prompt sync under load."""

from __future__ import annotations

import time

import paramiko
import pytest

from netcfg.lab import DeviceSpec

#: per NOS: the prompt, and two commands with a word each must print
SHELLS = {
    "nxos": ("sw1# ", ("show clock", "UTC"), ("show hostname", "sw1")),
    "sonic": ("admin@sw1:~$ ", ("hostname", "sw1"), ("nosuch", "command not found")),
    "cumulus": ("admin@sw1:mgmt:~$ ", ("nosuch", "command not found"), ("exit", "")),
}


def _read_until(chan: paramiko.Channel, done: str, count: int, timeout: float = 10) -> str:
    out, deadline = "", time.monotonic() + timeout
    while out.count(done) < count and time.monotonic() < deadline:
        if chan.recv_ready():
            out += chan.recv(65536).decode()
        elif chan.exit_status_ready():
            break
        else:
            time.sleep(0.01)
    return out


def _read_to_end(chan: paramiko.Channel, timeout: float = 10) -> str:
    """Everything the shell prints until it closes the channel (after `exit`)."""
    chan.settimeout(timeout)
    out = b""
    while data := chan.recv(65536):
        out += data
    return out.decode()


@pytest.fixture(params=sorted(SHELLS))
def shell(request, make_lab):
    nos = request.param
    lab = make_lab(DeviceSpec("sw1", nos))
    dev = lab["sw1"]
    client = paramiko.SSHClient()
    client.load_host_keys(dev.known_hosts)
    client.set_missing_host_key_policy(paramiko.RejectPolicy())
    client.connect(dev.address, port=dev.port("ssh"), username="admin", password="admin",
                   look_for_keys=False, allow_agent=False)
    chan = client.invoke_shell(width=511)
    prompt = SHELLS[nos][0]
    assert _read_until(chan, prompt, 1).endswith(prompt)
    yield nos, chan
    client.close()


def test_type_ahead_is_echoed_in_order(shell):
    nos, chan = shell
    prompt, (first, first_word), (second, second_word) = SHELLS[nos]
    chan.send(f"{first}\n{second}\r\n")
    out = _read_until(chan, prompt, 2) if second != "exit" else _read_to_end(chan)
    first_part, _, rest = out.partition(prompt)
    assert first_part.startswith(first + "\r\n") and first_word in first_part
    assert rest.startswith(second + "\r\n") and second_word in rest
    assert prompt + prompt.strip() not in out  # never two prompts on one line


def test_empty_lines_and_control_bytes(shell):
    nos, chan = shell
    prompt = SHELLS[nos][0]
    chan.send("\x00\r\x00\r\n\n")  # NUL, CR, CRLF, LF: three empty lines, nothing else
    out = _read_until(chan, prompt, 3)
    assert out == ("\r\n" + prompt) * 3
