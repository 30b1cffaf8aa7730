"""The Junos emulator keeps a quoted string's escapes: a description or banner holding `\\"` or
`\\\\` reads back as it was loaded, in text and in XML. The escapes are Juniper's (CLI
reference, `login (System)`: `\\n`, `\\t`, `\\'`, `\\"`, `\\\\` in a quoted string); the
expected texts below are written by hand."""

from __future__ import annotations

from lxml import etree

from netcfg.lab.junos.config import from_xml, parse_text, to_text, to_xml

LOADED = (
    "system {\n"
    "    login {\n"
    '        message "say \\"hi\\" \\\\ done\\nnext line";\n'
    "    }\n"
    "}\n"
    "interfaces {\n"
    "    et-0/0/0 {\n"
    '        description "to \\"spine 1\\"";\n'
    "    }\n"
    "}\n"
)


def test_a_quoted_string_with_escaped_quotes_reads_back_as_loaded():
    assert to_text(parse_text(LOADED)) == LOADED
    assert to_text(parse_text(to_text(parse_text(LOADED)))) == LOADED


def test_xml_carries_the_characters_and_comes_back_escaped():
    xml = to_xml(parse_text(LOADED))
    assert xml.findtext("interfaces/interface/description") == 'to "spine 1"'
    assert xml.findtext("system/login/message") == 'say "hi" \\ done\nnext line'
    assert to_text(from_xml(etree.fromstring(etree.tostring(xml)))) == LOADED
