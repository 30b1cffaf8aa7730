"""Render DevicePlans through the vendor templates: one file per device (and host profile).

Templates live in `templates/<nos>/` and hold syntax only; values come from the plan, in the
NOS's units via its vendor's `build` (netcfg/vendors/<nos>/). StrictUndefined: a missing value
fails the render instead of printing an empty string. Output is byte-identical for the same intent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import attrgetter
from pathlib import Path
from re import Match
from typing import TYPE_CHECKING

import jinja2

from netcfg.fsutil import write_new
from netcfg.outdir import write_texts
from netcfg.physics import Physics
from netcfg.render import host
from netcfg.render.plan import (
    AAA_KEY,
    ROOT_HASH,
    SESSION_KEY,
    SHA256,
    SNMP_COMMUNITY,
    USER_HASH,
    DevicePlan,
    PlanBuilder,
    user_hash,
)
from netcfg.topology.fabric import Device, Fabric
from netcfg.vendors import vendor, vendors

if TYPE_CHECKING:
    from netcfg.deploy.secrets import Secret

def _templates() -> Path:
    """The Jinja templates: inside the package when installed from a wheel (pyproject maps the
    top-level templates/ to netcfg/templates/), the repository's templates/ otherwise."""
    installed = Path(__file__).resolve().parents[1] / "templates"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "templates"


TEMPLATES = _templates()


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    # a NOS plugin's own templates come after netcfg's (Vendor.template_dir)
    folders = [str(TEMPLATES)] + [str(nos.template_dir) for nos in vendors().values()
                                  if nos.template_dir is not None]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders), undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
        # templates are read once per process: no stat of every included file per render,
        # and kept in a plain dict (a few dozen files) instead of an LRU taking a lock on
        # every include
        auto_reload=False, cache_size=-1)
    for nos in vendors().values():
        for name, func in nos.filters.items():
            if not name.startswith(f"{nos.name}_"):
                raise ValueError(f"{nos.name}: template filter {name} must start with "
                                 f"{nos.name}_")
            env.filters[name] = func
    env.filters["block"] = block
    env.filters["blocks"] = blocks
    env.filters["each"] = each
    # where a session's key goes: `netcfg push` puts the key there (plan.SESSION_KEY)
    env.globals["session_key"] = SESSION_KEY
    # where the SNMP community goes: `netcfg push` puts it there (plan.SNMP_COMMUNITY)
    env.globals["snmp_community"] = SNMP_COMMUNITY
    # where the TACACS+ or RADIUS key goes: `netcfg push` puts it there (plan.AAA_KEY)
    env.globals["aaa_key"] = AAA_KEY
    return env


@jinja2.pass_environment
def block(env: jinja2.Environment, value: object, template: str) -> str:
    """`value | block("nos/part.j2")`: that template rendered with the value as `v`. For the
    part of a config that repeats under many of a switch's ports: the calling template renders
    each distinct value once (a list of them in its model) and prints the text under every
    port that has it, instead of walking the same loops once per port."""
    return env.get_template(template).render(v=value)


#: (template, value) -> its text: the blocks rendered so far, for blocks()
_blocks: dict[tuple[str, object], str] = {}
#: blocks kept at most (a few distinct ones per fabric: its port kinds' QoS lines)
BLOCKS_MAX = 4096


@jinja2.pass_environment
def blocks(env: jinja2.Environment, values: Iterable[object], template: str) -> list[str]:
    """`values | blocks("nos/part.j2")`: each value's `block`, kept by value (values must be
    hashable and immutable: frozen dataclasses, tuples). The switches of a fabric have the
    same few port QoS blocks; hashing one (a few microseconds) is cheaper than rendering it
    again for every switch (a context and a walk of its loops)."""
    out = []
    for value in values:
        key = (template, value)
        text = _blocks.get(key)
        if text is None:
            if len(_blocks) >= BLOCKS_MAX:
                _blocks.clear()
            text = _blocks[key] = env.get_template(template).render(v=value)
        out.append(text)
    return out


#: what a skeleton holds where the i-th slot's value goes (no config text holds a NUL)
_SLOT = "\0{}\0"
_SLOTS = re.compile("\0([0-9]+)\0")
#: (template, slots, shape fields, context) -> the item's shape -> its text as a function of
#: the slot values
_skeletons: dict[tuple[object, ...], dict[object, Callable[[tuple[object, ...]], str]]] = {}
#: kinds of part kept at most (one per template and context: a handful per switch of each
#: NOS); a fabric with more renders them again rather than grow without bound
SKELETONS_MAX = 4096


@jinja2.pass_environment
def each(env: jinja2.Environment, items: Iterable[object], template: str,
         slots: tuple[str, ...], shape: tuple[str, ...], **context: object) -> str:
    """`items | each("nos/part.j2", slots=(...), shape=(...), **context)`: the part rendered
    for every item, one after another, as a for loop over `template` (the item as `v`,
    `context` as further names) prints it.

    Why: a switch has dozens of ports and sessions that differ only in a few values (a name,
    an address, a description); walking the template for each costs most of a render. So
    `template` is rendered once per distinct shape (the `shape` fields' values, whether each
    slot has a value, `context`) with a marker in each slot, and each item's slot values are
    put into that text. The template must print a slot as it is, never test or change it
    beyond whether it is empty (a slot without a value renders as itself, in the shape), and
    may read of `v` only `slots` and `shape` (anything else is undefined: the render fails)."""
    get_shape, get_slots = attrgetter(*shape), attrgetter(*slots)
    one = len(slots) == 1
    ctx = (template, slots, shape,
           tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(context.items())))
    kinds = _skeletons.get(ctx)
    if kinds is None:
        if len(_skeletons) >= SKELETONS_MAX:
            _skeletons.clear()
        kinds = _skeletons[ctx] = {}
    out = []
    for item in items:
        values = (get_slots(item),) if one else get_slots(item)
        # every slot has a value (the usual case): the shape alone; else which have none and
        # what they hold, behind a marker no shape equals
        key = get_shape(item) if all(values) else (
            _EMPTY_SLOTS, get_shape(item), tuple(True if v else (type(v), v) for v in values))
        fill = kinds.get(key)
        if fill is None:
            fill = kinds[key] = _skeleton(env, template, slots, shape, item, values, context)
        out.append(fill(values))
    return "".join(out)


#: heads the key of an item with empty slots (each): no shape value is this object
_EMPTY_SLOTS = object()


def _skeleton(env: jinja2.Environment, template: str, slots: tuple[str, ...],
              shape: tuple[str, ...], item: object, values: tuple[object, ...],
              context: dict[str, object]) -> Callable[[tuple[object, ...]], str]:
    """The item's text as a function of its slot values: the template rendered with a marker
    in each slot that has a value, the text between markers kept as it is."""
    from types import SimpleNamespace

    fields = {name: getattr(item, name) for name in shape}
    for i, (name, value) in enumerate(zip(slots, values, strict=True)):
        fields[name] = _SLOT.format(i) if value else value
    text = env.get_template(template).render(v=SimpleNamespace(**fields), **context)
    pieces = _SLOTS.split(text)  # text, slot index, text, slot index, ..., text
    literals = tuple(pieces[0::2])
    order = [int(i) for i in pieces[1::2]]
    if not order:
        return lambda values: text
    # one f-string of the pieces: a call builds the text at once (str.format would parse
    # the whole skeleton, hundreds of characters, on every call); only indexes are code
    body = "".join(f"{{t[{n}]}}{{v[{i}]}}" for n, i in enumerate(order))
    fill: Callable[[tuple[object, ...]], str] = eval(  # noqa: S307 -- indexes only
        f"lambda v, t=t: f'{body}{{t[{len(order)}]}}'", {"t": literals})
    return fill


@lru_cache(maxsize=64)
def _release_refused(nos: str, release: str) -> str | None:
    """Catalog.check_release, once per NOS and release (the catalog is read once)."""
    from netcfg.platforms import load_catalog

    return load_catalog().check_release(nos, release)


def render_plan(plan: DevicePlan) -> str:
    """The device's config text. A release the catalog does not know for the NOS is refused:
    its spellings are unknown (validate reports it as REF006 first)."""
    reason = _release_refused(plan.nos, plan.release)
    if reason:
        raise ValueError(f"{plan.hostname}: {reason}")
    nos = vendor(plan.nos)
    template = environment().get_template(nos.template)
    text = template.render(c=nos.build(plan))
    return nos.add_raw(text, plan.raw) if plan.raw else text


def file_name(plan: DevicePlan) -> str:
    return f"{plan.hostname}.{vendor(plan.nos).extension}"


def select(fabric: Fabric, devices: Iterable[str] = (), roles: Iterable[str] = ()) -> list[Device]:
    """Switches by exact name or glob (`--device`) and role (`--role`); all when neither."""
    from fnmatch import fnmatchcase

    names, wanted_roles = list(devices), set(roles)
    out = []
    for dev in fabric.switches():
        if names and not any(fnmatchcase(dev.name, n) for n in names):
            continue
        if wanted_roles and dev.role not in wanted_roles:
            continue
        out.append(dev)
    return out


#: switches from which render_files with workers hands them to a process pool; below it
#: starting the workers costs about what they save
POOL_FROM = 64
#: chunks per worker: small enough to keep both busy to the end, large enough that each
#: round trip carries many files
CHUNKS_PER_WORKER = 8

#: what the forked workers inherit (the builder with its caches, the devices, the hash
#: filler, the directory files go to, or None): set only while a pool runs, so nothing is
#: pickled on the way in
_job: tuple[PlanBuilder, list[Device], Hashes, Path | None] | None = None


def workers_available() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def render_files(fabric: Fabric, physics: Physics, devices: list[Device],
                 with_hosts: bool = True,
                 progress: Callable[[int, int], None] | None = None,
                 workers: int = 1) -> dict[str, str]:
    """Relative path -> rendered text for the selected switches (and the host profiles).

    `workers` > 1 renders chunks of devices in that many forked processes when there are at
    least POOL_FROM switches; the result is the same dict, in the same order, byte for byte
    (each device's text depends only on the fabric and itself), and nothing is written
    here either way. Where fork is not available (or this process is itself a pool's
    worker, or runs other threads) it renders in this process."""
    files: dict[str, str] = {}
    for name, text in _rendered(PlanBuilder(fabric, physics), devices, Hashes(fabric), None,
                                progress, workers):
        assert text is not None
        files[name] = text
    if with_hosts:
        files.update(host.render_hosts(fabric))
    return files


def switch_file(fabric: Fabric, dev: Device) -> str:
    """The file a switch renders to (file_name of its plan), known without the plan."""
    return f"{dev.name}.{vendor(fabric.platform(dev).nos).extension}"


def render_into(fabric: Fabric, physics: Physics, devices: list[Device], staging: Path,
                hosts: dict[str, str] | None = None,
                progress: Callable[[int, int], None] | None = None,
                workers: int = 1) -> None:
    """render_files, written below `staging` (a new directory, outdir.write_staged's) instead
    of returned: each switch's file (switch_file) by the process that rendered it, so a
    pool's workers hand back only names, not the text (a quarter of a gigabyte for the
    largest fabric), then `hosts` (host.render_hosts)."""
    for _ in _rendered(PlanBuilder(fabric, physics), devices, Hashes(fabric), staging,
                       progress, workers):
        pass  # written where rendered
    write_texts(staging, hosts or {})


def _one(builder: PlanBuilder, dev: Device, hashes: Hashes,
         out: Path | None) -> tuple[str, str | None]:
    """One switch: (its file name, its text), or with `out` the text written there and None."""
    plan = builder.plan(dev)
    name = file_name(plan)
    text = hashes.fill(render_plan(plan))
    if out is None:
        return name, text
    if name != switch_file(builder.fabric, dev):  # what write_staged was told to expect
        raise ValueError(f"{dev.name}: renders to {name}, not {switch_file(builder.fabric, dev)}")
    write_new(out / name, text.encode("utf-8"))
    return name, None


def _rendered(builder: PlanBuilder, devices: list[Device], hashes: Hashes, out: Path | None,
              progress: Callable[[int, int], None] | None,
              workers: int) -> Iterable[tuple[str, str | None]]:
    import gc
    import multiprocessing

    workers = min(workers, len(devices))
    # fork copies only the calling thread: with others running, a lock one of them holds
    # would stay held in every worker, so a threaded caller renders here
    if (workers < 2 or len(devices) < POOL_FROM
            or "fork" not in multiprocessing.get_all_start_methods()
            or multiprocessing.current_process().daemon or _threaded()):
        for i, dev in enumerate(devices):
            yield _one(builder, dev, hashes, out)
            if progress is not None:
                progress(i + 1, len(devices))
        return
    global _job
    size = max(1, -(-len(devices) // (workers * CHUNKS_PER_WORKER)))
    chunks = [(start, min(start + size, len(devices)))
              for start in range(0, len(devices), size)]
    environment()  # templates compiled once here, inherited by every worker
    # and what a plan works out once per fabric (the fabric's prefix count, the addresses
    # it holds, the platform's cages), instead of once in every worker
    builder.plan(devices[0])
    _job = (builder, devices, hashes, out)
    parts: list[list[tuple[str, str | None]]] = []
    failure: BaseException | None = None
    # Everything alive now (the fabric, its physics: millions of objects at the largest
    # size) is left out of the workers' garbage collections, which would otherwise walk it
    # again and again, and write to every page of it (each object's GC header), copying the
    # pages fork shares (gc.freeze's own advice, before fork); undone after the pool.
    gc.freeze()
    try:
        pool = multiprocessing.get_context("fork").Pool(workers)
        try:
            done = 0
            # every chunk is collected before anything is yielded, and a device's failure
            # comes back as a value: the pool is then closed and joined like one that
            # succeeded. Pool.terminate() (what leaving the pool on an exception does) could
            # hang with idle workers holding the task queue's lock; it runs only on an
            # interrupt, where nothing else is left to do.
            for part in pool.imap(_render_chunk, chunks):
                if isinstance(part, BaseException):
                    failure = failure or part
                    continue
                parts.append(part)
                done += len(part)
                if progress is not None:
                    progress(done, len(devices))
            pool.close()
            pool.join()
        except BaseException:
            pool.terminate()
            raise
    finally:
        _job = None
        gc.unfreeze()
    if failure is not None:
        raise failure
    for part in parts:
        yield from part


def _threaded() -> bool:
    """Whether this process runs other threads: Python's own, and on Linux every thread of
    the process (/proc/self/task), which counts those started outside the threading module
    too (an embedding program's, a test runner's): a fork beside any of them can deadlock."""
    import os
    import threading

    if threading.active_count() > 1:
        return True
    try:
        return len(os.listdir("/proc/self/task")) > 1
    except OSError:
        return False


def _render_chunk(bounds: tuple[int, int]) -> list[tuple[str, str | None]] | Exception:
    """One chunk of devices, in a worker: (file name, text or None where the worker wrote
    it) in device order, or the first device's failure as a value the parent raises (made
    plain where it would not survive pickling, so the pool's result thread never meets an
    exception it cannot rebuild)."""
    assert _job is not None
    builder, devices, hashes, out_dir = _job
    try:
        return [_one(builder, dev, hashes, out_dir) for dev in devices[bounds[0]:bounds[1]]]
    except Exception as exc:  # noqa: BLE001 -- handed to the parent, which raises it
        return _portable(exc)


def _portable(exc: Exception) -> Exception:
    """`exc` if it survives a pickle round trip, else a RuntimeError with its type and text."""
    import pickle

    try:
        back = pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 -- any failure to rebuild it: send its words instead
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return back if isinstance(back, Exception) else RuntimeError(str(exc))


class Hashes:
    """Fills the password-hash placeholders of rendered text: ROOT_HASH with the hash
    `management.root_authentication` names, user_hash(name) with `management.users.<name>`'s.
    Each is read once and only where files are written (never in a plan, so validate,
    explain and lint run without them). A missing or malformed reference is a
    CredentialError naming the intent entry, never the value."""

    def __init__(self, fabric: Fabric) -> None:
        self.fabric = fabric
        self._read: dict[str, Secret] = {}

    def fill(self, text: str) -> str:
        management = self.fabric.loaded.intent.management
        if ROOT_HASH in text:
            text = text.replace(ROOT_HASH, self._root().reveal())
        # without logins no placeholder is filled (each would be left as it is): no search
        if not management.users or USER_HASH.search(text) is None:
            return text
        from netcfg.deploy.secrets import password_hash

        wanted: dict[str, tuple[str, str | None, str | None, str]] = {}
        for name, user in management.users.items():
            wanted[user_hash(name)] = (f"management.users.{name}", user.file, user.hash_env,
                                       "6")
            if user.sha256 is not None:
                wanted[user_hash(name, SHA256)] = (f"management.users.{name}.sha256",
                                                   user.sha256.file, user.sha256.hash_env, "5")

        def hashed(match: Match[str]) -> str:
            placeholder = match.group(0)
            if placeholder not in wanted:
                return placeholder
            if placeholder not in self._read:
                where, file, env, schemes = wanted[placeholder]
                self._read[placeholder] = password_hash(where, file, env,
                                                        self.fabric.loaded.root,
                                                        schemes=schemes)
            return self._read[placeholder].reveal()

        # a whole placeholder at a time: login `ops` must not fill the start of `ops2`'s
        return USER_HASH.sub(hashed, text)

    def _root(self) -> Secret:
        if ROOT_HASH not in self._read:
            from netcfg.deploy.secrets import CredentialError, root_hash

            ref = self.fabric.loaded.intent.management.root_authentication
            if ref is None:
                raise CredentialError("the configs hold a root-password placeholder but the "
                                      "intent has no management.root_authentication")
            self._read[ROOT_HASH] = root_hash(ref, self.fabric.loaded.root)
        return self._read[ROOT_HASH]
