"""Device credentials: from the environment or from a file only its owner can read.

A password is held in a `Secret`, whose repr and str are masked, so it cannot reach a log
line, an exception message or the journal by accident; `redact()` scrubs any text that is
about to leave the process (device error messages can echo what was sent).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from netcfg.fsutil import UnreadableFile, read_regular
from netcfg.intent.model import Credential, RootAuthentication, SessionKey


class CredentialError(Exception):
    """A credential could not be loaded; the message never contains the secret."""


class Secret:
    """A string that refuses to print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class Login:
    username: str
    password: Secret


#: every password loaded in this process, so any outgoing text can be scrubbed
_KNOWN: set[str] = set()


def remember(password: str) -> Secret:
    if password:
        _KNOWN.add(password)
    return Secret(password)


def redact(text: str) -> str:
    """`text` with every known password replaced by ********, where it stands as a token.

    A password is masked where it is not glued to a letter, digit or underscore on an edge where the
    password itself has one: `ops/cumulus` is masked, the unrelated word `cumulus_linux` is
    left as it is (masking inside it, `********_linux`, garbles the word and tells the reader
    what the password is).
    """
    for value in sorted(_KNOWN, key=len, reverse=True):
        text = mask(text, value)
    if _SHAPES:
        text = _shape_pattern().sub(r"\g<lead>********", text)
    return text


def mask(text: str, secret: str) -> str:
    """`text` with `secret` replaced by ******** where it stands as a token (see `redact`)."""
    return _token_pattern(secret).sub("********", text) if secret else text


def _token_pattern(value: str) -> re.Pattern[str]:
    before = r"(?<!\w)" if re.match(r"\w", value) else ""
    after = r"(?!\w)" if re.search(r"\w$", value) else ""
    return re.compile(before + re.escape(value) + after)


def check_private(path: Path) -> None:
    """Refuse a secrets file that anyone but its owner can read or write."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise CredentialError(f"cannot read credentials file {path}: {exc.strerror}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise CredentialError(
            f"credentials file {path} is accessible by group/others (mode "
            f"{stat.S_IMODE(mode):04o}); run `chmod 600 {path}`")


#: a credentials file holds a user name and a password
MAX_SECRET_FILE_BYTES = 64 * 1024


def load_file(path: Path, field: str = "password") -> dict[str, str]:
    """A YAML mapping (`username:`, `password:`; or the `field` named) from a private file."""
    check_private(path)
    try:
        data = yaml.safe_load(read_regular(path, MAX_SECRET_FILE_BYTES).decode("utf-8"))
    except UnreadableFile as exc:
        raise CredentialError(f"credentials file {exc}") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CredentialError(f"cannot parse credentials file {path}: "
                              f"{type(exc).__name__}") from None
    if not isinstance(data, dict) or not isinstance(data.get(field), str):
        raise CredentialError(f"credentials file {path} must be a mapping with a '{field}'")
    return {k: str(v) for k, v in data.items() if isinstance(v, (str, int))}


def _by_reference(where: str, file: str | Path | None, env: str | None, base: Path | None,
                  environ: os._Environ[str] | dict[str, str],
                  field: str = "password") -> tuple[str | None, dict[str, str]]:
    """(password, the file's mapping) of a secret given by a 0600 file and/or an environment
    variable (the variable wins); `where` names the intent entry in errors, never the value."""
    from_file: dict[str, str] = {}
    if file is not None:
        path = Path(file)
        from_file = load_file(path if path.is_absolute() or base is None else base / path, field)
    password = from_file.get(field)
    if env is not None:
        if env not in environ:
            raise CredentialError(f"{where}: environment variable {env} is not set")
        password = environ[env]
    return password, from_file


def resolve(name: str, cred: Credential, base: Path | None,
            environ: os._Environ[str] | dict[str, str] = os.environ) -> Login:
    """The login a credential entry of the intent points at (`base`: the inventory directory)."""
    password, from_file = _by_reference(f"credentials '{name}'", cred.file, cred.password_env,
                                        base, environ)
    if not password:
        raise CredentialError(f"credentials '{name}': no password (set password_env or file)")
    username = from_file.get("username") or cred.username
    if cred.username_env is not None:
        username = environ.get(cred.username_env) or username
    if not username:
        raise CredentialError(f"credentials '{name}': no username")
    return Login(username, remember(password))


#: what a BGP session key may hold: it is written unquoted into EOS/NX-OS lines and NVUE YAML
#: and quoted into Junos, so no blank, quote, backslash, `#` or `:`; a letter first (Cisco
#: refuses a key starting with a digit); at most 80 characters (the common limit of EOS,
#: NX-OS and FRR's TCP MD5 key)
SESSION_KEY_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9._+=@%/-]{0,79}")


def session_key(key: SessionKey, base: Path | None,
                environ: os._Environ[str] | dict[str, str] = os.environ) -> Secret:
    """The BGP session key `routing.authentication` names (`base`: the inventory directory).
    Errors say where it was looked for and what is wrong, never the key."""
    return _token("routing.authentication", "session key", key, base, environ,
                  SESSION_KEY_TEXT, "1-80")


def _token(where: str, what: str, ref: SessionKey, base: Path | None,
           environ: os._Environ[str] | dict[str, str], allowed: re.Pattern[str],
           length: str) -> Secret:
    """A secret written unquoted into configs (a session key, a community): read by
    reference, refused empty or with any character but `allowed`'s, never shown."""
    value, _ = _by_reference(where, ref.file, ref.password_env, base, environ)
    if not value:
        raise CredentialError(f"{where}: the {what} is empty")
    if not allowed.fullmatch(value):
        raise CredentialError(f"{where}: the {what} must be {length} letters, digits or "
                              ". _ + = @ % / -, starting with a letter")
    return remember(value)


#: what an SNMP community may hold: written unquoted into EOS and NX-OS lines and as a Junos
#: list key, so no blank, quote, backslash, `#`, `;`, braces or `:`; a letter first; at most
#: 32 characters (RFC 3584 gives a community up to 255 octets, but a shorter common limit keeps
#: every NOS's CLI within what it takes)
SNMP_COMMUNITY_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9._+=@%/-]{0,31}")


def snmp_community(ref: SessionKey, base: Path | None,
                   environ: os._Environ[str] | dict[str, str] = os.environ) -> Secret:
    """The SNMP community `management.snmp.community` names; errors never show it."""
    return _token("management.snmp.community", "community", ref, base, environ,
                  SNMP_COMMUNITY_TEXT, "1-32")


#: what a TACACS+ or RADIUS key may hold: written unquoted into EOS and NX-OS lines and quoted
#: into Junos, so the session key's characters; at most 63 (NX-OS's limit for a TACACS+ key,
#: Cisco Nexus 9000 NX-OS Security Configuration Guide, "Configuring TACACS+ Server Hosts")
AAA_KEY_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9._+=@%/-]{0,62}")


def aaa_key(ref: SessionKey, base: Path | None,
            environ: os._Environ[str] | dict[str, str] = os.environ) -> Secret:
    """The TACACS+ or RADIUS key `management.aaa.key` names; errors never show it."""
    return _token("management.aaa.key", "key", ref, base, environ, AAA_KEY_TEXT, "1-63")


#: a crypt(3) hash as Junos stores root's password: MD5 `$1$` (salt up to 8, digest 22),
#: SHA-256 `$5$` or SHA-512 `$6$` (optional `rounds=N$`, salt up to 16, digest 43 or 86);
#: Juniper's YANG takes 1-128 characters (junos-conf-system, authentication-object
#: encrypted-password, Junos OS Evolved 24.4R1)
CRYPT_HASH = re.compile(r"\$1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}"
                        r"|\$5\$(rounds=\d{4,9}\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43}"
                        r"|\$6\$(rounds=\d{4,9}\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{86}")


def root_hash(ref: RootAuthentication, base: Path | None,
              environ: os._Environ[str] | dict[str, str] = os.environ) -> Secret:
    """The hash `management.root_authentication` names (`base`: the inventory directory).
    A value that is not a crypt hash (a password given by mistake) is refused without being
    shown."""
    return password_hash("management.root_authentication", ref.file, ref.hash_env, base,
                         environ)


#: what each crypt scheme is called in errors, and the `openssl passwd` option printing it
_SCHEMES = {"1": ("MD5", "-1"), "5": ("SHA-256", "-5"), "6": ("SHA-512", "-6")}


def password_hash(where: str, file: str | None, env: str | None, base: Path | None,
                  environ: os._Environ[str] | dict[str, str] = os.environ,
                  schemes: str = "156") -> Secret:
    """A password's crypt hash named by `where` (an environment variable or a 0600 file with
    `hash:`), of one of `schemes` (`6`: SHA-512 only, what EOS's `secret sha512` takes);
    anything else is refused without being shown."""
    value, _ = _by_reference(where, file, env, base, environ, field="hash")
    if (not value or not CRYPT_HASH.fullmatch(value) or len(value) > 128
            or value[1] not in schemes):
        kind = (f"a {_SCHEMES[schemes][0]} (${schemes}$) crypt hash" if len(schemes) == 1
                else f"a crypt hash ({', '.join(f'${k}$' for k in schemes)})")
        raise CredentialError(f"{where}: not {kind}, as `openssl passwd "
                              f"{_SCHEMES[schemes[-1]][1]}` prints it; give the hash of the "
                              "password, never the password")
    return remember(value)


#: what a rendered file holds where a secret of the configs goes (netcfg/render/plan.py:
#: SESSION_KEY, SNMP_COMMUNITY, AAA_KEY): candidates are kept at rest with these, never with
#: the values, which are filled in memory when a push loads them
CONFIG_PLACEHOLDER = re.compile(r"NETCFG-(?:SESSION-KEY|SNMP-COMMUNITY|AAA-KEY)")

#: what any of those secrets may hold (SESSION_KEY_TEXT, SNMP_COMMUNITY_TEXT, AAA_KEY_TEXT
#: share their characters): what a placeholder's place in a running config is matched by
_SECRET_CHARS = r"[A-Za-z][A-Za-z0-9._+=@%/-]*"


#: the words that stand before a secret in the configs of this process (`remember_shapes`),
#: as a regular expression each
_SHAPES: set[str] = set()
_COMPILED: list[tuple[frozenset[str], re.Pattern[str]]] = []


def remember_shapes(template: str) -> None:
    """Remember the words that precede each placeholder of `template` (`key 0 `, `community `,
    `authentication-key "`, `"SNMP_COMMUNITY|`): `redact` then masks whatever stands after
    them, a value no one told this process included: the old key a device still runs, in the
    libraries' debug lines (`NETCFG_DEBUG=1`) that show a running config before netcfg has
    read it."""
    for line in template.splitlines():
        for match in CONFIG_PLACEHOLDER.finditer(line):
            before = line[:match.start()]
            words = before.split()
            if not words:
                continue
            # a type number (`password 0 `) or a bare quote (`key "`) says nothing alone
            take = 2 if len(words) > 1 and (words[-1].isdigit()
                                            or not any(c.isalpha() for c in words[-1])) else 1
            spaced = before[-1:].isspace()
            _SHAPES.add(r"\s+".join(re.escape(w) for w in words[-take:])
                        + (r"\s+" if spaced else ""))


def _shape_pattern() -> re.Pattern[str]:
    shapes = frozenset(_SHAPES)
    if not _COMPILED or _COMPILED[0][0] != shapes:
        leads = "|".join(sorted(shapes, key=len, reverse=True))
        _COMPILED[:] = [(shapes, re.compile(rf"""(?P<lead>(?:^|(?<=[\s"'(\[{{,]))(?:{leads}))"""
                                            rf"(?!NETCFG-|\*{{8}}){_SECRET_CHARS}", re.M))]
    return _COMPILED[0][1]


def learn(template: str, running: str) -> dict[str, str]:
    """The values a device runs where `template` (a config holding placeholders) has them:
    each line holding a placeholder is matched, blanks at its ends aside, against the lines
    of `running` under the same parent lines (by indentation: `router bgp 65001`, a JSON
    table, an NVUE mapping), so `"NETCFG-SNMP-COMMUNITY": {` learns only the key of the SNMP
    table. Every value found is remembered, so `redact` masks it from here on: the old key of
    a rotation, which the intent no longer names, is masked in diffs, device errors and the
    journal as the new one is. Returns placeholder -> the first value found."""
    found: dict[str, str] = {}
    if not running or not CONFIG_PLACEHOLDER.search(template):
        return found
    shown: dict[tuple[str, ...], list[str]] = {}
    for parents, line in _nested(running):
        shown.setdefault(parents, []).append(line)
    for parents, line in _nested(template):
        names = CONFIG_PLACEHOLDER.findall(line)
        if not names or any(CONFIG_PLACEHOLDER.search(p) for p in parents):
            continue
        parts = CONFIG_PLACEHOLDER.split(line)
        pattern = re.compile("".join(
            re.escape(part) + (f"({_SECRET_CHARS})" if i < len(names) else "")
            for i, part in enumerate(parts)))
        for candidate in shown.get(parents, ()):
            match = pattern.fullmatch(candidate)
            if match is None:
                continue
            for name, value in zip(names, match.groups(), strict=True):
                if not CONFIG_PLACEHOLDER.fullmatch(value):
                    remember(value)
                    found.setdefault(name, value)
    return found


def learn_config(config: str, patterns: Iterable[re.Pattern[str]],
                 template: str | None = None) -> None:
    """Remember every secret value a whole config holds, so that `redact` masks it from here
    on: what a rollback loads (a backup, with the keys and community of before the push) and
    what it replaces. The places are the ones push already knows, nothing new: the NOS's
    statements whose value is a secret (`patterns`, its `DeployAdapter.secret_values`: a
    session key, a community, a TACACS+ key, a login's hash, in the form the NOS prints them)
    and the placeholders of `template` (a candidate a run kept at rest, as `learn` reads them;
    they also cover a NOS whose adapter names no statement, SONiC's CONFIG_DB tables), whose
    words `remember_shapes` masks the values after in debug lines read before this."""
    if template:
        remember_shapes(template)
        learn(template, config)
    for pattern in patterns:
        for match in pattern.finditer(config):
            value = match.group("secret").strip().strip("\"'")
            if value.strip("*") and not CONFIG_PLACEHOLDER.fullmatch(value):
                remember(value)


def _nested(text: str) -> list[tuple[tuple[str, ...], str]]:
    """Each non-blank line of `text`, stripped, with the stripped lines it is indented
    under."""
    out: list[tuple[tuple[str, ...], str]] = []
    stack: list[tuple[int, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        indent = len(raw) - len(raw.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        out.append((tuple(s for _, s in stack), line))
        stack.append((indent, line))
    return out


def filled_from(template: str, running: str) -> str:
    """`template` (a candidate as kept at rest) with each placeholder replaced by the value
    the device runs at its place (`learn`): the config netcfg last left there, as it was
    pushed, for the preserve policy to recognise its sections. A placeholder not found on the
    device stays as it is."""
    for name, value in learn(template, running).items():
        template = template.replace(name, value)
    return template


class RedactingFilter(logging.Filter):
    """A logging filter that masks every known secret in a record (`NETCFG_DEBUG=1` shows the
    libraries' debug lines, which carry the configs they send)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        return True
