"""The opening book's tools.

  python -m tools.book expand            replay config/book.yaml: positions, transpositions, folds,
                                         and the extension's positions (from the cache)
  python -m tools.book check             check every book move with Fairy-Stockfish, extend the
                                         book with the engine's moves (config/book.yaml `extend`)
                                         and write config/book.checked.json (resumes from the cache)
  python -m tools.book check --cached-only [--partial]
                                         write the JSON from cached results only
  python -m tools.book iccs "炮二平五 马8进7 ..."   a line in Chinese notation as ICCS
Errors are one line on stderr: exit status 2 for bad input, 1 for a failed run.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from reference_py.config import ConfigError
from reference_py.notation import NotationError

from . import data
from .check import Checker, check_tree, fill_cache, order
from .engine import DEFAULT_ENGINE, Cache, Engine, EngineError
from .extend import Extension, extend
from .extend import fill_cache as fill_extension
from .source import BOOK_YAML, ROOT, load_book
from .tree import expand
from .zh import zh_line_to_iccs

CACHE = ROOT / "config" / "book.cache.jsonl"


def cmd_expand(args: argparse.Namespace) -> int:
    book = load_book(args.book)
    tree = expand(book)
    with_moves = tree.positions_with_moves()
    main = [ln for ln in book.lines if ln.main]
    side = [ln for ln in book.lines if not ln.main]
    print(f"{len(book.openings)} openings, {len(main)} main lines, {len(side)} sidelines, "
          f"{sum(len(ln.moves) for ln in book.lines)} plies in all")
    print(f"main lines: {min(len(ln.moves) for ln in main)} to {max(len(ln.moves) for ln in main)} "
          f"plies; sidelines: {min((len(ln.moves) for ln in side), default=0)} to "
          f"{max((len(ln.moves) for ln in side), default=0)}")
    print(f"positions: {len(tree.nodes)} after folding, {len(with_moves)} with a book move "
          f"({tree.unfolded} before folding mirrors), "
          f"{sum(len(n.moves) for n in with_moves)} book moves")
    print(f"transpositions: {len(tree.transpositions())} positions reached from more than one "
          "position or move")
    if book.extend is not None:
        cache = Cache(Path(args.cache))
        ids = {r.engine for r in cache.results.values()}
        if len(ids) == 1:
            checker = Checker(cache, ids.pop(), None)
            verdicts, progress = check_tree(tree, checker, log=None)
            ext = extend(tree, verdicts, checker)
            print(_extension_counts(tree, ext) + f" (from the cache: {progress.missing} source "
                  f"positions and {len(ext.missing)} past the source not yet searched)")
        else:
            print(f"extension: not counted ({args.cache} holds results of {len(ids)} engines)")
    by_opening = Counter(tree.opening_of(n) for n in with_moves)
    for o in book.openings:
        print(f"  {o.id:3} {by_opening.get(o.id, 0):5}  {o.zh} ({o.en})")
    return 0


def _extension_counts(tree, ext: Extension) -> str:
    src, eng = ext.from_source(tree), ext.from_engine(tree)
    moves = sum(len(m) for m in ext.moves.values())
    return (f"book positions reached with a book move: {len(src) + len(eng)} after folding "
            f"({len(src)} from the source lines, {len(eng)} from the extension); "
            f"{moves} engine moves")


def cmd_check(args: argparse.Namespace) -> int:
    book = load_book(args.book)
    tree = expand(book)
    cache = Cache(Path(args.cache))
    engine = None
    if args.cached_only:
        ids = {r.engine for r in cache.results.values()}
        if len(ids) != 1:
            raise EngineError(f"{args.cache}: expected results of one engine, found {len(ids)}")
        engine_id = ids.pop()
    else:
        if args.jobs > 1:
            def make_checker() -> Checker:
                e = Engine(args.engine, threads=1, hash_mb=args.hash)
                return Checker(cache, e.id, e)
            fill_cache(tree, make_checker, args.jobs)
        engine = Engine(args.engine, threads=1, hash_mb=args.hash)
        engine_id = engine.id
    t0 = time.monotonic()
    checker = Checker(cache, engine_id, engine)
    try:
        verdicts, progress = check_tree(tree, checker)
        if args.jobs > 1 and not args.cached_only and book.extend is not None:
            # one distance at a time: the positions to search next are
            # known only once the nearer ones are
            while True:
                todo = extend(tree, verdicts, Checker(cache, engine_id, None)).missing
                if not todo:
                    break
                print(f"extension: {len(todo)} positions to search", file=sys.stderr)
                fill_extension(todo, make_checker, args.jobs, book.check.depth,
                               book.extend.multipv)
        ext = extend(tree, verdicts, checker)
    finally:
        if engine is not None:
            engine.close()
    total = len(order(tree))
    if progress.missing and not args.partial:
        print(f"{progress.missing} of {total} positions have no engine results: run without "
              "--cached-only, or add --partial to write a partial book", file=sys.stderr)
        return 1
    missing = progress.missing + len(ext.missing)
    if ext.missing and not args.partial:
        print(f"{len(ext.missing)} positions past the source lines have no engine results: run "
              "without --cached-only, or add --partial to write a partial book", file=sys.stderr)
        return 1
    out = data.build(tree, verdicts, engine_id, missing, ext)
    data.write(out, Path(args.out))
    if not missing:
        cache.rewrite(checker.used)         # drop results the book no longer uses
    for f in out["failed"]:
        print(f"FAILED {f['move']} loses {f['loss_cp']} cp (best {f['best']}) in {f['fen']}: "
              f"{', '.join(f['lines'])}")
    rate = progress.searched / progress.seconds * 3600 if progress.seconds else 0.0
    print(f"{progress.checked} of {total} positions checked ({progress.searched} searched now in "
          f"{(time.monotonic() - t0) / 60:.1f} min, {rate:.0f} positions/hour); "
          f"{len(out['positions'])} positions and "
          f"{sum(len(p['moves']) for p in out['positions'])} moves written to {args.out}; "
          f"{len(out['failed'])} moves failed" + (" (PARTIAL)" if out["partial"] else ""))
    print(_extension_counts(tree, ext))
    return 0


def cmd_iccs(args: argparse.Namespace) -> int:
    print(" ".join(zh_line_to_iccs(" ".join(args.moves))))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.book", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("expand", help="replay the book and print its statistics")
    p.add_argument("--book", default=str(BOOK_YAML))
    p.add_argument("--cache", default=str(CACHE),
                   help="the engine results the extension is counted from")
    p.set_defaults(fn=cmd_expand)
    p = sub.add_parser("check", help="check the book with Fairy-Stockfish, write the JSON")
    p.add_argument("--book", default=str(BOOK_YAML))
    p.add_argument("--out", default=str(data.CHECKED_JSON))
    p.add_argument("--cache", default=str(CACHE))
    p.add_argument("--engine", default=DEFAULT_ENGINE)
    p.add_argument("--hash", type=int, default=64, help="engine hash in MiB (default 64)")
    p.add_argument("--jobs", type=int, default=1,
                   help="engines searching at once before the check (default 1)")
    p.add_argument("--cached-only", action="store_true", help="never start the engine")
    p.add_argument("--partial", action="store_true",
                   help="with --cached-only: write the positions that have results, marked partial")
    p.set_defaults(fn=cmd_check)
    p = sub.add_parser("iccs", help="Chinese notation to ICCS")
    p.add_argument("moves", nargs="+")
    p.set_defaults(fn=cmd_iccs)
    args = ap.parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        ap.error("--jobs must be at least 1")
    try:
        return args.fn(args)
    except (ConfigError, NotationError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
