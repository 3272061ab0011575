#!/usr/bin/env python3
"""Prints the slowest tests of a test run: `slowest-tests.py [N] REPORT.xml ...`.

Reads JUnit XML reports (pytest's `--junitxml`) and prints the N
slowest test cases (25 by default) with their seconds, slowest first. Missing or unreadable
reports are named and skipped: a failed part must not hide the others' times."""
import sys
import xml.etree.ElementTree as ElementTree


def cases(path):
    """(seconds, name) of every test case in one report."""
    for case in ElementTree.parse(path).iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}".strip(":")
        yield float(case.get("time") or 0), name


def main(arguments):
    count = 25
    if arguments and arguments[0].isdigit():
        count, arguments = int(arguments[0]), arguments[1:]
    found = []
    for path in arguments:
        try:
            found.extend(cases(path))
        except (OSError, ElementTree.ParseError) as error:
            print(f"slowest-tests: skipped {path}: {error}", file=sys.stderr)
    found.sort(reverse=True)
    total = sum(seconds for seconds, _ in found)
    print(f"The {min(count, len(found))} slowest of {len(found)} tests ({total:.0f} s in all):")
    for seconds, name in found[:count]:
        print(f"{seconds:8.1f} s  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
