"""What rendering does once per kind of port, session or switch gives what doing it for each
would: the engine's `each` filter against Jinja's own for loop over the same template, SONiC's
document of shared and own tables against orjson writing the whole document at once, and the
staged write of `netcfg render --out` leaving DIR as it was when rendering fails."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2
import orjson
import pytest
from render_cases import INVENTORIES, nos_plans

from netcfg.outdir import write_staged
from netcfg.render.engine import each
from netcfg.vendors.sonic import render as sonic

PART = """\
interface {{ v.name }}
   description {{ v.description }}
{% if v.address %}
   ip address {{ v.address }}
{% endif %}
   mtu {{ v.mtu }}{{ suffix }}
"""


@dataclass(frozen=True)
class Port:
    name: str
    description: str | None
    address: str | None
    mtu: int


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.DictLoader({
        "part.j2": PART,
        "loop.j2": "{% for v in items %}" + PART + "{% endfor %}"}),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, autoescape=False)
    env.filters["each"] = each
    return env


def test_each_prints_what_a_for_loop_prints():
    """Values a format string or a marker could trip on (braces, percent signs, an empty or
    missing slot, a number) come out as Jinja's loop prints them, kinds mixed in any order."""
    items = [Port("Ethernet1", "gpu:{eth0}", "10.0.0.0/31", 9202),
             Port("Ethernet2", "100% {0} %s", None, 9202),
             Port("Ethernet3", "", "10.0.0.2/31", 1500),
             Port("Ethernet4", None, "10.0.0.4/31", 9202),
             Port("Ethernet5", "gpu:eth0", "", 9202),
             Port("Ethernet6", "gpu:{eth0}", "10.0.0.6/31", 9202)]
    env = _env()
    want = env.get_template("loop.j2").render(items=items, suffix=" {x}")
    got = each(env, items, "part.j2", slots=("name", "description", "address"),
               shape=("mtu",), suffix=" {x}")
    assert got == want
    # again, from the skeletons kept by the first call, and with another context
    assert each(env, items, "part.j2", slots=("name", "description", "address"),
                shape=("mtu",), suffix=" {x}") == want
    assert each(env, items[:2], "part.j2", slots=("name", "description", "address"),
                shape=("mtu",), suffix="") == env.get_template("loop.j2").render(
                    items=items[:2], suffix="")


def test_each_refuses_a_field_it_was_not_given():
    """The part may read of an item only its slots and shape: anything else is undefined."""
    with pytest.raises(jinja2.UndefinedError):
        each(_env(), [Port("Ethernet1", "x", None, 9202)], "part.j2",
             slots=("name", "description"), shape=("mtu",), suffix="")


def test_sonic_document_is_orjsons_whole_document():
    """Every SONiC switch of the multivendor fabric: config_db.json as to_json writes it
    (tables shared by switches alike spliced in as text) is orjson's dump of the same tables
    as one plain document, byte for byte."""
    plans = nos_plans(INVENTORIES / "multivendor", "sonic")
    assert plans
    for plan in plans:
        db = sonic.config_db(plan)
        assert isinstance(db, sonic.Tables) and db.written
        whole = orjson.dumps(dict(db), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
        assert sonic.to_json(db) == whole.decode(), plan.hostname


def test_a_failed_staged_write_leaves_no_directory(tmp_path):
    """A render that fails while staging leaves DIR (and the parents made for it) as they
    were: absent."""
    out = tmp_path / "new" / "configs"

    def fill(staging):
        (staging / "a.cfg").write_text("x\n")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_staged(out, "f", ["a.cfg", "b.cfg"], fill)
    assert not (tmp_path / "new").exists()


def test_a_staged_write_that_leaves_out_a_file_changes_nothing(tmp_path):
    out = tmp_path / "configs"
    write_staged(out, "f", ["a.cfg"], lambda staging: (staging / "a.cfg").write_text("1\n"))
    with pytest.raises(OSError, match="not written"):
        write_staged(out, "f", ["a.cfg", "b.cfg"],
                     lambda staging: (staging / "a.cfg").write_text("2\n"))
    assert (out / "a.cfg").read_text() == "1\n"
    assert sorted(p.name for p in out.iterdir()) == [".netcfg-manifest", "a.cfg"]
