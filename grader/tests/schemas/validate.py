"""A small validator for the schemas in this folder (no jsonschema package).

JSON: the subset of JSON Schema the schemas use: type (or a list of types),
enum, required, properties, additionalProperties (false, or a schema every
other member must meet), items, pattern, minimum. CSV and JUnit: the folder's own small descriptions.
"""
import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load(name):
    return json.loads((HERE / name).read_text())


def json_errors(value, schema, where="$"):
    """Every way value breaks schema, as 'path: problem' strings."""
    errs = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return [f"{where}: {value!r:.60} is not {' or '.join(types)}"]
    if "enum" in schema and value not in schema["enum"]:
        errs.append(f"{where}: {value!r:.60} is not one of {schema['enum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errs.append(f"{where}: {value!r:.60} does not match {schema['pattern']}")
    if "minimum" in schema and _TYPES["number"](value) and value < schema["minimum"]:
        errs.append(f"{where}: {value} is below {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errs.append(f"{where}: missing key {key!r}")
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in value:
                errs += json_errors(value[key], sub, f"{where}.{key}")
        more = schema.get("additionalProperties")
        for key in value:
            if key in props or more is None or more is True:
                continue
            if more is False:
                errs.append(f"{where}: unexpected key {key!r}")
            else:
                errs += json_errors(value[key], more, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errs += json_errors(item, schema["items"], f"{where}[{i}]")
    return errs


def check_json(value, schema_name):
    errs = json_errors(value, load(schema_name))
    assert not errs, "\n".join(errs[:20])


def check_csv(text, schema_name="gradebook.csv.schema.json"):
    """Returns the rows as dicts after checking the gradebook's shape."""
    s = load(schema_name)
    assert text.endswith("\r\n"), "CSV lines end with CRLF"
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], rows[1:]
    fixed = s["fixed_columns"]
    assert header[:len(fixed)] == fixed, header
    seen_req = seen_st = False
    for col in header[len(fixed):]:
        if col.startswith("req:"):
            assert re.match(s["requirement_column_pattern"], col), col
            seen_req = True
        elif col.startswith("st:"):
            assert not seen_req, f"status column {col} after a requirement column"
            assert re.match(s["dataset_status_column_pattern"], col), col
            seen_st = True
        else:
            assert not seen_req and not seen_st, f"dataset column {col} after a status or requirement column"
            assert re.match(s["dataset_column_pattern"], col), col
    assert len(set(header)) == len(header), "duplicate columns"
    out = []
    for row in body:
        assert len(row) == len(header), row
        d = dict(zip(header, row))
        for col, kind in s["column_types"].items():
            if kind == "number":
                float(d[col])
        assert d["status"] in s["status_values"], d["status"]
        for col in header[len(fixed):]:
            if col.startswith("st:"):
                assert d[col] in s["dataset_status_values"], (col, d[col])
            elif d[col] != "":
                float(d[col])
        out.append(d)
    return out


def check_junit(text, schema_name="junit.schema.json"):
    """Returns the parsed root after checking elements, attributes and counts."""
    s = load(schema_name)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == s["root"], root.tag

    def walk(el):
        spec = s["elements"].get(el.tag)
        assert spec is not None, f"unexpected element <{el.tag}>"
        for a in spec["required"]:
            assert a in el.attrib, f"<{el.tag}> lacks {a}"
        for a in s["integer_attributes"]:
            if a in el.attrib:
                int(el.attrib[a])
        for a in s["number_attributes"]:
            if a in el.attrib:
                float(el.attrib[a])
        for child in el:
            assert child.tag in spec["children"], f"<{child.tag}> inside <{el.tag}>"
            walk(child)

    walk(root)
    total = failures = errors = 0
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        f = sum(1 for c in cases if c.find("failure") is not None)
        e = sum(1 for c in cases if c.find("error") is not None)
        assert int(suite.attrib["tests"]) == len(cases)
        assert int(suite.attrib["failures"]) == f and int(suite.attrib["errors"]) == e
        total, failures, errors = total + len(cases), failures + f, errors + e
    assert int(root.attrib["tests"]) == total
    assert int(root.attrib["failures"]) == failures and int(root.attrib["errors"]) == errors
    return root
