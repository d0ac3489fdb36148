#!/usr/bin/env python3
"""Reads a CILKPP_STATS report on stdin; checks Bender and Rabin's property
that workers whose speeds are within BETA of each other never mug.

usage: mugs-within-beta.py BETA

A thief mugs only if its speed estimate exceeds BETA times the victim's.
Estimates are smoothed samples and start at 1, so they stay between the
smallest and largest sample (and 1): if no worker's samples were ever more
than BETA apart, there must be no muggings. On a loaded machine a worker may
really get less than 1/BETA of what another gets; then muggings are allowed,
and the output says so.
"""
import sys


def main():
    beta = float(sys.argv[1])
    lines = sys.stdin.read().splitlines()
    header = next(l.split() for l in lines if l.startswith('worker '))
    rows = [l.split() for l in lines if l.split() and l.split()[0].isdigit()]
    col = {name: header.index(name) for name in ('mugs', 'spd_min', 'spd_max')}
    mugs = sum(int(r[col['mugs']]) for r in rows)
    lows = [float(r[col['spd_min']]) for r in rows if r[col['spd_min']] != '-'] + [1.0]
    highs = [float(r[col['spd_max']]) for r in rows if r[col['spd_max']] != '-'] + [1.0]
    spread = max(highs) / max(min(lows), 1e-9)
    if mugs == 0:
        print('no muggings')
        return 0
    if spread > beta:
        print(f'no muggings within beta (measured speeds {spread:.1f}x apart)')
        return 0
    print(f'{mugs} muggings with measured speeds within beta ({spread:.2f}x apart)')
    return 1


sys.exit(main())
