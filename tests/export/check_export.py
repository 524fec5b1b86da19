#!/usr/bin/python3
"""Reads what `schedlab export` wrote as the tools it is for read it.

  check_export.py schema SCHEMA FILE
      FILE validated against the JSON Schema SCHEMA (kcidb-v5.3.schema.json,
      bmf.schema.json) by Debian's python3-jsonschema, draft 7, with its
      format checker; every error printed, exit 1 when there is one.

  check_export.py otava FILE METRIC...
      FILE read as Apache Otava's CsvImporter reads a `type: csv` test
      (otava/importer.py: csv.reader with ',' and '"', the header line,
      the time column through dateparser as otava/util.py parse_datetime
      does, float() of each metric cell, attributes copied as they are),
      with attributes run, kernel, commit and METRIC... as its metrics;
      prints {"time": [...], "attributes": {...}, "data": {...}} as JSON.
      An error of Otava's (a missing column, a short line, a cell float()
      cannot read) is printed and exits 1.
"""
import csv
import json
import sys


def check_schema(schema_path, path):
    import jsonschema

    with open(schema_path) as f:
        schema = json.load(f)
    with open(path) as f:
        document = json.load(f)
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    for e in errors:
        print(f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message}")
    return 1 if errors else 0


def read_otava(path, metrics):
    import dateparser

    attributes = ["run", "kernel", "commit"]
    with open(path, newline="") as f:
        reader = csv.reader(f, delimiter=",", quotechar='"')
        headers = next(reader, None)
        try:
            time_index = headers.index("time")
            attr_indexes = [headers.index(a) for a in attributes]
            metric_indexes = [headers.index(m) for m in metrics]
        except ValueError as err:
            print(f"Column not found {err.args[0]}")
            return 1
        out = {"time": [], "attributes": {a: [] for a in attributes}, "data": {m: [] for m in metrics}}
        for row in reader:
            if len(row) < len(headers):
                print(f"Number of values in the row does not match number of columns: {row}")
                return 1
            ts = dateparser.parse(row[time_index], settings={"RETURN_AS_TIMEZONE_AWARE": True})
            if ts is None:
                print(f"Invalid datetime value: {row[time_index]}")
                return 1
            out["time"].append(int(ts.timestamp()))
            for m, i in zip(metrics, metric_indexes):
                try:
                    out["data"][m].append(float(row[i]))
                except ValueError as err:
                    print(f"Could not convert value in column {headers[i]}: {err.args[0]}")
                    return 1
            for a, i in zip(attributes, attr_indexes):
                out["attributes"][a].append(row[i])
    print(json.dumps(out))
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "schema":
        return check_schema(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == "otava":
        return read_otava(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
