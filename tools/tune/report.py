"""The ladder's report: ladder.json (the numbers), report.md (the tables),
three plots (PNG) and games.pgn (every game), all written whole or not at all.

ladder.json is the machine-readable record (bench/summary.py reads it):
per level at least level, games, score (0..1), elo and elo_ci95 (the
joint scale, first anchor = 0), los (against the next weaker level, from
their direct games), think_median_s and think_max_s (NES seconds from the
ROM's cycles), plus every opponent's tally.  report.md is written from
ladder.json alone, so `--report-only` can redo it from the cache.
"""
from __future__ import annotations

import io
import math
from pathlib import Path

from reference_py.fen import START_FEN
from reference_py.pgn import format_game
from reference_py.rules import Game
from tools.atomic import write_atomic

from .players import is_anchor


def _num(v, fmt: str = "+.0f", none: str = "n/a") -> str:
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return none
    return format(v, fmt)


def pct_cell(v) -> str:
    """A 0..1 fraction as a percentage cell (n/a when unknown); bench/summary.py uses it too."""
    return "n/a" if v is None else f"{100 * v:.1f}%"


def elo_cell(d: dict) -> str:
    """An Elo estimate with its 95% interval, or why it has none (bench/summary.py uses it too)."""
    if d.get("elo") is None:
        s = d.get("score")
        return "+inf (all won)" if s == 1 else "-inf (all lost)" if s == 0 else "n/a"
    ci = d.get("elo_ci95")
    return f"{d['elo']:+.0f} ± {ci:.0f}" if ci is not None else f"{d['elo']:+.0f} (interval unbounded)"


def _think(v) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def render_markdown(data: dict) -> str:
    """report.md from the ladder.json dict."""
    anchors = data["anchors"]
    lines = [
        "# Ladder: the levels' strength and the cartridge's thinking time",
        "",
        f"Command: `{data['command']}`  ",
        (f"Engine tree: `{data['tree']['spec']}` (digest `{data['tree']['digest'][:16]}`); " if data.get("tree") else
         f"Config: `config/*.yaml` and `config/*.json` SHA-256 `{data['config_sha256'][:16]}`; ")
        + f"openings: `{data['openings']['file']}` "
        f"({data['openings']['count']} lines, SHA-256 `{data['openings']['sha256'][:16]}`); "
        f"anchors: {', '.join(f'`{a}`' for a in anchors)} ({data.get('engine', 'Fairy-Stockfish')}); "
        f"{data['games']:,} games; {data['date']}.",
        "",
        "Elo is one logistic scale for every player, fitted from all the games at once with "
        f"`{anchors[0]}` fixed at 0 (tools/tune/ratings.py); ± is the half-width of its 95% "
        "interval (a bootstrap over game pairs).  LOS: likelihood that the level is stronger than "
        "the next weaker one, from their direct game pairs.  NES think time: the ROM's own search "
        "under py65 on a sample of the moves the level played in these games, cycles / 1,789,773 Hz.",
        "",
    ]
    if data.get("partial"):
        lines += [f"**Partial report**: {data['partial']}", ""]
    diff = data.get("differential")
    if diff:
        lines += [f"ROM == reference before the games: {diff['searches'] - diff['mismatches']} of "
                  f"{diff['searches']} searches agree (move, score, nodes, depth, PV).", ""]
    lines += ["| level | Elo | games | score | LOS vs weaker | NES think median s | NES think max s "
              "| moves timed | ROM = game move |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for lv in data["levels"]:
        t = lv.get("think_moves") or 0
        agree = f"{t - lv.get('rom_mismatches', 0)}/{t}" if t else "n/a"
        lines.append(f"| {lv['level']} | {elo_cell(lv)} | {lv['games']:,} | {pct_cell(lv['score'])} | "
                     f"{pct_cell(lv.get('los'))} | {_think(lv.get('think_median_s'))} | "
                     f"{_think(lv.get('think_max_s'))} | {t} | {agree} |")
    lines += ["", "Anchors on the same scale:", "", "| anchor | Elo |", "|---|---:|"]
    for a in anchors:
        r = data["ratings"].get(a)
        lines.append(f"| `{a}` | {elo_cell(r) if r else 'n/a'} |")
    for lv in data["levels"]:
        lines += ["", f"## {lv['level']}", "",
                  "| opponent | games | +/=/- | pentanomial LL,LD,WL+DD,WD,WW | score | Elo diff | LOS |",
                  "|---|---:|---|---|---:|---:|---:|"]
        for o in lv["opponents"]:
            name = f"`{o['b']}`" if is_anchor(o["b"]) else o["b"]
            lines.append(f"| {name} | {o['games']} | +{o['wins']} ={o['draws']} -{o['losses']} | "
                         f"{','.join(map(str, o['pentanomial']))} | {pct_cell(o.get('score'))} | {elo_cell(o)} | "
                         f"{pct_cell(o.get('los'))} |")
    tp = data.get("throughput")
    if tp:
        lines += ["", "## Throughput", "",
                  "Games per hour of one worker process (wall time of the games it played, this machine):", "",
                  "| match | games | wall s per game | games per hour per worker |", "|---|---:|---:|---:|"]
        for row in tp:
            lines.append(f"| {row['match']} | {row['games']} | {row['wall_s_per_game']:.1f} | "
                         f"{row['games_per_hour']:.0f} |")
    lines += ["", "Plots: [Elo by level](elo_by_level.png), [NES think time by level](think_by_level.png), "
              "[Elo against NES think time](elo_vs_think.png).  Games: [games.pgn](games.pgn).", ""]
    return "\n".join(lines)


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def plots(data: dict) -> dict[str, bytes]:
    """The three plots as PNG bytes, by file name."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    def plain(axis) -> None:
        """Log-axis ticks as plain numbers (0.5, 1, 2), no crowded minor labels."""
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(ticker.NullFormatter())

    lv = [x for x in data["levels"] if x.get("elo") is not None]
    names = [x["level"] for x in lv]
    elo = [x["elo"] for x in lv]
    err = [[x["elo"] - x["elo_lo"] for x in lv], [x["elo_hi"] - x["elo"] for x in lv]]
    out = {}

    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.errorbar(range(len(lv)), elo, yerr=err, fmt="o-", capsize=5, color="tab:red", label="level (95% interval)")
    for a in data["anchors"]:
        r = data["ratings"].get(a)
        if r and r.get("elo") is not None:
            ax.axhline(r["elo"], ls="--", lw=0.8, color="gray")
            ax.text(len(lv) - 0.5, r["elo"], f" {a}", va="center", fontsize=8, color="gray")
    ax.set_xticks(range(len(lv)), names)
    ax.set_ylabel(f"Elo ({data['anchors'][0]} = 0)")
    ax.set_title("Elo by level")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    out["elo_by_level.png"] = _png(fig)
    plt.close(fig)

    tl = [x for x in data["levels"] if x.get("think_median_s") is not None]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = range(len(tl))
    ax.plot(xs, [x["think_median_s"] for x in tl], "o-", label="median")
    ax.plot(xs, [x["think_max_s"] for x in tl], "s--", label="max")
    ax.set_xticks(list(xs), [x["level"] for x in tl])
    ax.set_yscale("log")
    plain(ax.yaxis)
    ax.set_ylabel("NES seconds per move (py65 cycles)")
    ax.set_title("NES thinking time by level")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    out["think_by_level.png"] = _png(fig)
    plt.close(fig)

    both = [x for x in lv if x.get("think_median_s")]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if both:
        ax.errorbar([x["think_median_s"] for x in both], [x["elo"] for x in both],
                    yerr=[[x["elo"] - x["elo_lo"] for x in both], [x["elo_hi"] - x["elo"] for x in both]],
                    fmt="o-", capsize=5, color="tab:red")
        for x in both:
            ax.annotate(x["level"], (x["think_median_s"], x["elo"]), textcoords="offset points", xytext=(6, -12),
                        fontsize=8)
        ax.set_xscale("log")
        plain(ax.xaxis)
    ax.set_xlabel("NES seconds per move (median)")
    ax.set_ylabel(f"Elo ({data['anchors'][0]} = 0)")
    ax.set_title("Elo against NES thinking time")
    ax.grid(alpha=0.3, which="both")
    out["elo_vs_think.png"] = _png(fig)
    plt.close(fig)
    return out


def games_pgn(games: list[dict], event: str = "NES Xiangqi ladder") -> str:
    """Every game as PGN, in a fixed order (match, then pair)."""
    texts = []
    for i, g in enumerate(games, 1):
        game = Game(START_FEN)
        codes = [game.play_text(m) for m in g["moves"]]
        lv = {s: None if is_anchor(s) else s.split(":")[-1] for s in (g["red"], g["black"])}
        name = {s: s if is_anchor(s) else f"reference {s}" for s in (g["red"], g["black"])}
        texts.append(format_game(START_FEN, codes, red=name[g["red"]], black=name[g["black"]],
                                 red_level=lv[g["red"]], black_level=lv[g["black"]], result=g["result"],
                                 termination=g["reason"], event=event, site="tools.tune", round_=str(i),
                                 extra={"Opening": " ".join(g["opening"]), "Seed": str(g["seed"])}))
    return "".join(t if t.endswith("\n\n") else t.rstrip("\n") + "\n\n" for t in texts)


def write_report(out: Path, data: dict, games: list[dict] | None = None) -> list[Path]:
    """Write ladder.json, report.md, the plots and (given the games) games.pgn into `out`."""
    import json
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, blob in plots(data).items():
        write_atomic(out / name, blob)
        written.append(out / name)
    if games is not None:
        write_atomic(out / "games.pgn", games_pgn(games).encode())
        written.append(out / "games.pgn")
    write_atomic(out / "ladder.json", (json.dumps(data, indent=1) + "\n").encode())
    write_atomic(out / "report.md", render_markdown(data).encode())
    written += [out / "ladder.json", out / "report.md"]
    return written
