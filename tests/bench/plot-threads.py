#!/usr/bin/env python3
"""plot-threads.py - SVG line chart of a p11bench CSV: throughput (ops/s, log
scale) against thread count (log2 scale), one colour per mechanism, the
token solid with dots, the token's async sessions (p11bench --async) dotted
with triangles, OpenSSL dashed with squares.  Python 3 stdlib only.

usage: plot-threads.py RESULTS.csv [-o OUT.svg] [--title TEXT] [--xlabel TEXT]
"""
import argparse
import csv
import math
import sys
from xml.sax.saxutils import escape

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
W, H = 960, 560
LEFT, RIGHT, TOP, BOTTOM = 80, 260, 50, 60


def load(path):
    """{(mech, impl): [(threads, ops_s)]}, the mechanisms in file order, the backend."""
    series, mechs, backend = {}, [], "?"
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            mech, impl = r["mech"], r["impl"]
            ops = float(r["ops_s"])
            if mech not in mechs:
                mechs.append(mech)
            if impl == "token":
                backend = r.get("backend", backend)
            if ops > 0:
                series.setdefault((mech, impl), []).append((int(r["threads"]), ops))
    for pts in series.values():
        pts.sort()
    return series, mechs, backend


def scale(lo, hi, a, b, log):
    """A function mapping [lo, hi] (log2 or log10 space) onto pixels [a, b]."""
    lo, hi = log(lo), log(hi)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    return lambda v: a + (log(v) - lo) / (hi - lo) * (b - a)


def render(series, mechs, title, xlabel):
    xs = sorted({t for pts in series.values() for t, _ in pts})
    ys = [o for pts in series.values() for _, o in pts]
    if not xs:
        raise SystemExit("plot-threads: no rows with ops/s > 0")
    ylo = 10 ** math.floor(math.log10(min(ys)))
    yhi = 10 ** math.ceil(math.log10(max(ys)))
    if yhi == ylo:
        yhi *= 10
    px = scale(xs[0], xs[-1], LEFT, W - RIGHT, math.log2)
    py = scale(ylo, yhi, H - BOTTOM, TOP, math.log10)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="25" text-anchor="middle" font-size="15">{escape(title)}</text>']
    # grid and ticks
    d = ylo
    while d <= yhi * 1.001:
        y = py(d)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#ccc"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{d:g}</text>')
        for m in range(2, 10):
            if d * m < yhi:
                ym = py(d * m)
                out.append(f'<line x1="{LEFT}" y1="{ym:.1f}" x2="{W - RIGHT}" y2="{ym:.1f}" '
                           f'stroke="#eee"/>')
        d *= 10
    for t in xs:
        x = px(t)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{H - BOTTOM}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{H - BOTTOM + 18}" text-anchor="middle">{t}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{W - LEFT - RIGHT}" '
               f'height="{H - TOP - BOTTOM}" fill="none" stroke="black"/>')
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 15}" text-anchor="middle">'
               f'{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(20,{(TOP + H - BOTTOM) / 2}) rotate(-90)" '
               'text-anchor="middle">operations per second (log)</text>')
    # series and legend
    ly = TOP
    for i, mech in enumerate(mechs):
        col = COLOURS[i % len(COLOURS)]
        for impl, dash in (("token", ""), ("async", ' stroke-dasharray="2,3"'),
                           ("openssl", ' stroke-dasharray="6,4"')):
            pts = series.get((mech, impl))
            if not pts:
                continue
            path = " ".join(f"{px(t):.1f},{py(o):.1f}" for t, o in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{col}" '
                       f'stroke-width="2"{dash}/>')
            for t, o in pts:
                x, y = px(t), py(o)
                if impl == "token":
                    out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{col}"/>')
                elif impl == "async":
                    out.append(f'<polygon points="{x:.1f},{y - 4.5:.1f} {x - 4:.1f},{y + 3:.1f} '
                               f'{x + 4:.1f},{y + 3:.1f}" fill="{col}"/>')
                else:
                    out.append(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" '
                               f'fill="white" stroke="{col}"/>')
            lx = W - RIGHT + 20
            out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 30}" y2="{ly}" stroke="{col}" '
                       f'stroke-width="2"{dash}/>')
            out.append(f'<text x="{lx + 36}" y="{ly + 4}">{escape(mech)} ({impl})</text>')
            ly += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", help="SVG file (default: the CSV name with .svg)")
    ap.add_argument("--title")
    ap.add_argument("--xlabel", default="threads (one PKCS#11 session each)")
    a = ap.parse_args()
    series, mechs, backend = load(a.csv)
    title = a.title or f"p11bench: PixelVault token ({backend} backend) vs OpenSSL"
    out = a.out or (a.csv[:-4] if a.csv.endswith(".csv") else a.csv) + ".svg"
    with open(out, "w") as f:
        f.write(render(series, mechs, title, a.xlabel))
    print(f"plot-threads: wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
