"""The unit parser (netcfg/intent/units.py): one canonical unit per quantity, loud on ambiguity."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticCustomError

from netcfg.intent.units import (
    format_length,
    format_size,
    format_speed,
    format_time,
    parse_length,
    parse_size,
    parse_speed,
    parse_time,
)

PARSERS = [parse_speed, parse_size, parse_length, parse_time]
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _err(fn, value) -> PydanticCustomError:
    with pytest.raises(PydanticCustomError) as exc:
        fn(value)
    return exc.value


# --------------------------------------------------------------------------- speed -> Mb/s (int)


@pytest.mark.parametrize("text, mbps", [
    ("400G", 400_000),
    ("400g", 400_000),
    ("400Gbps", 400_000),
    ("400GBPS", 400_000),
    ("400gbit", 400_000),
    ("25Gbps", 25_000),
    ("100000M", 100_000),
    ("100000mbps", 100_000),
    ("100Mbit", 100),
    ("1.6T", 1_600_000),
    ("1.6t", 1_600_000),
    ("1.6Tbps", 1_600_000),
    ("800G", 800_000),
    ("2.5G", 2_500),
    (" 400 G ", 400_000),
])
def test_speed(text, mbps):
    value = parse_speed(text)
    assert value == mbps
    assert isinstance(value, int)


@pytest.mark.parametrize("text", ["0G", "0.5M", "0M"])
def test_speed_must_be_positive_whole_mbps(text):
    err = _err(parse_speed, text)
    assert err.type == "unit_range"
    assert "positive whole number of Mb/s" in str(err)
    assert text in str(err)


@pytest.mark.parametrize("text, mbps", [("1.001G", 1001), ("1.003G", 1003), ("1.019G", 1019)])
def test_speed_exact_decimal_is_whole_mbps(text, mbps):
    assert parse_speed(text) == mbps


# --------------------------------------------------------------------------- size -> bytes (int)


@pytest.mark.parametrize("text, size", [
    ("150KB", 150_000),
    ("150kB", 150_000),
    ("150KiB", 150 * 1024),
    ("1KiB", 1024),
    ("1MiB", 1024**2),
    ("64MiB", 64 * 1024**2),
    ("1GiB", 1024**3),
    ("1MB", 1_000_000),
    ("1GB", 1_000_000_000),
    ("9216B", 9216),
    ("0B", 0),
    ("1.5MB", 1_500_000),
    ("1.5KiB", 1536),
    ("0.5KB", 500),
    ("1500KB", 1_500_000),
])
def test_size(text, size):
    value = parse_size(text)
    assert value == size
    assert isinstance(value, int)


def test_size_decimal_and_binary_prefixes_differ():
    assert parse_size("1KB") == 1000
    assert parse_size("1KiB") == 1024
    assert parse_size("1MB") != parse_size("1MiB")


@pytest.mark.parametrize("text", ["1.5B", "0.1KiB", "1.0001KB", "0.5B"])
def test_size_non_integral_bytes_rejected(text):
    err = _err(parse_size, text)
    assert err.type == "unit_range"
    assert "whole number of bytes" in str(err)


@pytest.mark.parametrize("text, fixed", [
    ("150kb", "150KB"), ("150Kb", "150KB"), ("9216b", "9216B"), ("1mb", "1MB"), ("1Mb", "1MB"),
    ("2Gb", "2GB"), ("150kib", "150KiB"), ("1Mib", "1MiB"), ("1.5gib", "1.5GiB"),
])
def test_size_in_bits_or_bytes_is_refused(text, fixed):
    """A lower-case b is the bit: `150kb` is 150,000 bytes to one reader and 18,750 to
    another, so it is refused in one line that names the byte spelling and the allowed ones."""
    err = _err(parse_size, text)
    assert err.type == "unit_spelling"
    msg = str(err)
    assert "\n" not in msg
    assert f"'{text}': bits or bytes?" in msg
    assert f"write '{fixed}' if bytes are meant" in msg
    assert msg.endswith("(spellings: B, KB, MB, GB, KiB, MiB, GiB)")


@pytest.mark.parametrize("text, unit", [("150KIB", "KiB"), ("1MIB", "MiB")])
def test_size_prefix_spelt_otherwise_is_refused(text, unit):
    err = _err(parse_size, text)
    assert err.type == "unit_spelling"
    assert f"write the unit '{unit}'" in str(err)


@pytest.mark.parametrize("text", ["100cells", "100 cells"])
def test_size_cells_not_accepted_as_bytes(text):
    err = _err(parse_size, text)
    assert err.type == "unit_unknown"


@pytest.mark.parametrize("text, size", [("1.001KB", 1001), ("1.003KB", 1003),
                                        ("1.005MB", 1_005_000)])
def test_size_exact_decimal_is_whole_bytes(text, size):
    assert parse_size(text) == size


# --------------------------------------------------------------------------- length -> metres


@pytest.mark.parametrize("text, metres", [
    ("3m", 3.0),
    ("3M", 3.0),
    ("150cm", 1.5),
    ("0.1km", 100.0),
    ("2KM", 2000.0),
    ("500mm", 0.5),
    ("30m", 30.0),
    ("2.5m", 2.5),
])
def test_length(text, metres):
    assert parse_length(text) == pytest.approx(metres)
    assert isinstance(parse_length(text), float)


# --------------------------------------------------------------------------- time -> microseconds


@pytest.mark.parametrize("text, us", [
    ("200ms", 200_000.0),
    ("200MS", 200_000.0),
    ("55us", 55.0),
    ("55µs", 55.0),
    ("1s", 1_000_000.0),
    ("1.5s", 1_500_000.0),
    ("500ns", 0.5),
    ("256us", 256.0),
    ("0.5ms", 500.0),
])
def test_time(text, us):
    assert parse_time(text) == pytest.approx(us)
    assert isinstance(parse_time(text), float)


# --------------------------------------------------------------------------- rejections


@pytest.mark.parametrize("fn", PARSERS)
@pytest.mark.parametrize("value", [400, 0, 3.5, True, False, None, [1], {"a": 1}])
def test_non_string_needs_a_unit(fn, value):
    err = _err(fn, value)
    assert err.type == "unit_missing"
    msg = str(err)
    assert "needs a unit" in msg
    assert "units:" in msg


@pytest.mark.parametrize("fn, kind", [(parse_speed, "speed"), (parse_size, "size"),
                                      (parse_length, "length"), (parse_time, "time")])
def test_bare_number_string_rejected(fn, kind):
    err = _err(fn, "400")
    assert err.type == "unit_unknown"
    msg = str(err)
    assert f"unknown {kind} unit" in msg
    assert "(none)" in msg


@pytest.mark.parametrize("fn, text", [
    (parse_speed, "400Q"), (parse_speed, "400KB"), (parse_speed, "400s"),
    (parse_size, "150KG"), (parse_size, "150m"),
    (parse_length, "3ft"), (parse_length, "3s"),
    (parse_time, "200min"), (parse_time, "200m"),
])
def test_unknown_unit(fn, text):
    err = _err(fn, text)
    assert err.type == "unit_unknown"
    assert text in str(err)
    assert "units:" in str(err)


@pytest.mark.parametrize("fn", PARSERS)
@pytest.mark.parametrize("text", ["", "   ", "-400G", "-3m", "G", "1e3G", "4 00G", "400G 3m",
                                  "1..5G", ".5G", "400G!", "NaN", "inf"])
def test_unparseable(fn, text):
    err = _err(fn, text)
    assert err.type in ("unit_parse", "unit_unknown")
    assert "write it like" in str(err) or "unknown" in str(err)


@pytest.mark.parametrize("fn", PARSERS)
def test_negative_is_not_a_quantity(fn):
    err = _err(fn, "-1G")
    assert err.type == "unit_parse"
    assert "'-1G' is not a" in str(err)


def test_error_messages_name_the_allowed_units():
    assert "KiB" in str(_err(parse_size, "1XB"))
    assert "km" in str(_err(parse_length, "1xm"))
    assert "ns" in str(_err(parse_time, "1xs"))
    assert "gbps" in str(_err(parse_speed, "1xg"))


# --------------------------------------------------------------------------- format_* examples


@pytest.mark.parametrize("mbps, text", [(400_000, "400G"), (1_600_000, "1600G"),
                                        (1_000_000, "1T"), (100, "100M"), (2_500, "2.5G")])
def test_format_speed(mbps, text):
    assert format_speed(mbps) == text


@pytest.mark.parametrize("n, text", [(150_000, "150KB"), (1_500_000, "1500KB"),
                                     (2_000_000, "2MB"), (9216, "9216B"), (0, "0B")])
def test_format_size(n, text):
    assert format_size(n) == text


def test_format_length_and_time():
    assert format_length(3.0) == "3m"
    assert format_length(1.5) == "1.5m"
    assert format_time(200_000.0) == "200ms"
    assert format_time(55.0) == "55us"
    assert format_time(0.5) == "0.5us"


# --------------------------------------------------------------------------- round trips


@FAST
@given(st.one_of(st.integers(min_value=1, max_value=999),
                 st.integers(min_value=1, max_value=10**5).map(lambda g: g * 1000)))
def test_speed_round_trip_common(mbps):
    """Sub-gigabit speeds in Mb/s and whole Gb/s speeds print and parse back exactly."""
    assert parse_speed(format_speed(mbps)) == mbps


@FAST
@given(st.integers(min_value=1, max_value=10**7))
@example(1001)
@example(17_993_580)
def test_speed_round_trip(mbps):
    assert parse_speed(format_speed(mbps)) == mbps


@FAST
@given(st.integers(min_value=0, max_value=10**12))
def test_size_round_trip(n):
    assert parse_size(format_size(n)) == n


@FAST
@given(st.integers(min_value=0, max_value=100_000).map(lambda cm: cm / 100))
def test_length_round_trip_cm(metres):
    """Cable lengths to the centimetre up to 1 km print and parse back."""
    assert parse_length(format_length(metres)) == pytest.approx(metres, abs=1e-9)


@FAST
@given(st.integers(min_value=0, max_value=10**10).map(lambda mm: mm / 1000))
@example(1234.567)
@example(1_234_567.0)
def test_length_round_trip(metres):
    assert parse_length(format_length(metres)) == metres


@FAST
@given(st.integers(min_value=0, max_value=99_999))
def test_time_round_trip_small(us):
    """Whole microseconds up to 100 ms print and parse back."""
    assert parse_time(format_time(float(us))) == us


@FAST
@given(st.integers(min_value=0, max_value=10**10))
@example(1_234_567)
@example(1_000_000_000)
def test_time_round_trip(us):
    assert parse_time(format_time(float(us))) == us


@FAST
@given(st.sampled_from(["G", "g", "Gbps", "gbps", "GBPS", "Gbit"]), st.integers(1, 10**5))
def test_speed_unit_case_insensitive(unit, n):
    assert parse_speed(f"{n}{unit}") == n * 1000


@FAST
@given(st.text(max_size=12))
def test_parsers_only_raise_pydantic_custom_errors(text):
    for fn in PARSERS:
        try:
            fn(text)
        except PydanticCustomError as exc:
            assert exc.type.startswith("unit_")
            assert str(exc)
