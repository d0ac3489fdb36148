#!/usr/bin/env python3
"""Reads a CILKPP_STATS report on stdin and checks one worker's column.

usage: stats-column.py ROW COLUMN [--between LOW HIGH | --at-least N | --equals N]
ROW is a worker number or 'total'; COLUMN a header name (spd_avg, mugs, ...).
Prints 'ROW COLUMN=VALUE ok' or 'ROW COLUMN=VALUE out of range ...' (exit 1).
"""
import sys


def main():
    row, column, check = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = sys.stdin.read().splitlines()
    header = next(l.split() for l in lines if l.startswith('worker '))
    values = next(l.split() for l in lines if l.split() and l.split()[0] == row)
    value = values[header.index(column)]
    number = float(value) if value != '-' else None
    if check[0] == '--between':
        ok = number is not None and float(check[1]) <= number <= float(check[2])
    elif check[0] == '--at-least':
        ok = number is not None and number >= float(check[1])
    else:
        ok = number is not None and number == float(check[1])
    print(f"{row} {column}={value} {'ok' if ok else 'out of range ' + ' '.join(check)}")
    return 0 if ok else 1


sys.exit(main())
