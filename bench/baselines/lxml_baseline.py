#!/usr/bin/python3
"""What a Scrapy/parsel user's extraction costs: lxml parse, and parse + hand-written XPaths.

The baseline rows of issue 17's table, measured on the same pages as Vertex's benchmarks:

  lxml parse alone        lxml.etree.HTML with lxml's default HTMLParser (recover, no network,
                          compact), as parsel builds its Selector
  lxml parse + XPaths     the same plus one compiled lxml.etree.XPath per attribute, string
                          values taken (what `response.xpath(...).get()` returns)

CPU time per page (time.process_time), every page timed both ways back to back, alternating
the order; medians over --rounds rounds of the per-round sums. The XPaths are the hand-written
ones a user would write for the site (--site; see XPATHS below); their values are scored
against the SWDE-format ground truth under --truth (precision/recall per attribute) so the
baseline is known to extract what Vertex extracts.

Prints a table and one line "JSON {...}". Needs python3-lxml (Debian).
"""
import argparse
import json
import os
import statistics
import sys
import time

try:
    from lxml import etree
except ImportError:
    sys.exit("lxml_baseline: python3-lxml is not installed (apt-get install python3-lxml)")

# Hand-written XPaths per site: what a Scrapy user writes after reading one page's source.
XPATHS = {
    # SWDE book/booksamillion: title in <h2>, author link in h3.author, the rest in the
    # overview list as "<strong>Label</strong>: value".
    "booksamillion": {
        "title": "//h2/text()",
        "author": "//h3[@class='author']/a/text()",
        "isbn_13": "//li[strong='ISBN-13']/text()",
        "publisher": "//li[strong='Publisher']/text()",
        "publication_date": "//li[strong='Date']/text()",
    },
    # The generated demo shop's product pages (vertexctl gen-demo).
    "vertexdemo": {
        "title": "//h1[@itemprop='name']/text()",
        "price": "//span[@itemprop='price']/text()",
        "brand": "//a[@itemprop='brand']/text()",
        "sku": "//div[@class='meta']/b[.='SKU:']/following-sibling::text()[1]",
        "availability": "//p[@class='availability']/span/text()",
    },
}


def clean(value):
    value = " ".join(value.split())
    if value.startswith(":"):
        value = value[1:].strip()
    return value


def load_truth(truth_dir, site, attributes):
    """{page id: {attribute: [values]}} from SWDE-format files (<vertical>-<site>-<attr>.txt)."""
    truth = {}
    if not truth_dir:
        return truth
    for name in os.listdir(truth_dir):
        if not name.endswith(".txt") or f"-{site}-" not in name:
            continue
        attribute = name.rsplit("-", 1)[1][:-4]
        if attribute not in attributes:
            continue
        with open(os.path.join(truth_dir, name), encoding="utf-8-sig") as f:
            lines = f.read().splitlines()[2:]
        for line in lines:
            fields = line.split("\t")
            if len(fields) < 3:
                continue
            values = [clean(v) for v in fields[2:] if v != "<NULL>"]
            truth.setdefault(fields[0], {})[attribute] = values
    return truth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", required=True, help="directory of NNNN.htm pages")
    ap.add_argument("--site", required=True, choices=sorted(XPATHS))
    ap.add_argument("--truth", help="SWDE-format ground truth directory (scores the XPaths)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--limit", type=int, default=0, help="the first N pages only")
    args = ap.parse_args()

    names = sorted(n for n in os.listdir(args.pages) if n.endswith(".htm"))
    if args.limit:
        names = names[: args.limit]
    if not names:
        sys.exit(f"lxml_baseline: no .htm pages in {args.pages}")
    pages = []
    for n in names:
        with open(os.path.join(args.pages, n), "rb") as f:
            pages.append((n[:-4], f.read()))
    xpaths = {a: etree.XPath(x) for a, x in XPATHS[args.site].items()}
    parser = etree.HTMLParser()  # lxml's defaults: recover, no_network, compact

    def parse(data):
        return etree.HTML(data, parser=parser)

    def extract(data):
        root = parse(data)
        return {a: [clean(str(v)) for v in x(root)] for a, x in xpaths.items()}

    # Score once, untimed.
    truth = load_truth(args.truth, args.site, xpaths)
    scores = {}
    if truth:
        for a in xpaths:
            tp = fp = fn = 0
            for pid, data in pages:
                if pid not in truth:
                    continue  # a page of another type (the truth covers one vertical's pages)
                want = [v for v in truth.get(pid, {}).get(a, []) if v]
                got = [v for v in extract(data)[a] if v][:1] if a != "author" else [v for v in extract(data)[a] if v]
                tp += sum(1 for v in got if v in want)
                fp += sum(1 for v in got if v not in want)
                fn += sum(1 for v in want if v not in got)
            p = tp / (tp + fp) if tp + fp else 1.0
            r = tp / (tp + fn) if tp + fn else 1.0
            scores[a] = {"precision": round(p, 4), "recall": round(r, 4)}

    parse_rounds, extract_rounds = [], []
    for round_no in range(args.rounds):
        parse_s = extract_s = 0.0
        for i, (_, data) in enumerate(pages):
            order = (parse, extract) if (i + round_no) % 2 == 0 else (extract, parse)
            for fn in order:
                t0 = time.process_time()
                fn(data)
                dt = time.process_time() - t0
                if fn is parse:
                    parse_s += dt
                else:
                    extract_s += dt
        parse_rounds.append(parse_s * 1000 / len(pages))
        extract_rounds.append(extract_s * 1000 / len(pages))
    result = {
        "site": args.site,
        "pages": len(pages),
        "mean_page_bytes": round(sum(len(d) for _, d in pages) / len(pages)),
        "rounds": args.rounds,
        "lxml_parse_ms_per_page": round(statistics.median(parse_rounds), 3),
        "lxml_parse_xpaths_ms_per_page": round(statistics.median(extract_rounds), 3),
        "xpaths": len(xpaths),
        "scores": scores,
        "lxml_version": ".".join(map(str, etree.LXML_VERSION)),
        "libxml2_version": ".".join(map(str, etree.LIBXML_VERSION)),
    }
    print(f"lxml baseline, {args.site}: {len(pages)} pages of {result['mean_page_bytes']} bytes on average, "
          f"median of {args.rounds} rounds, CPU time")
    print(f"  lxml parse alone                 {result['lxml_parse_ms_per_page']:.3f} ms/page")
    print(f"  lxml parse + {len(xpaths)} XPaths             {result['lxml_parse_xpaths_ms_per_page']:.3f} ms/page")
    for a, s in scores.items():
        print(f"  {a:18s} P {s['precision']:.4f}  R {s['recall']:.4f}  ({XPATHS[args.site][a]})")
    print("JSON " + json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
