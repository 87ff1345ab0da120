"""Authoring script: draws the art in assets/*.png and the generated board tables.

Run it only to change the art; the build needs only the committed PNGs and
asm files, never the font:

    apt-get install -y fonts-wqy-zenhei     # 12 px bitmap CJK glyphs
    .venv/bin/python tools/rom/art.py

Writes:
  assets/bg.png           background tiles, 128x128 indexed (256 tiles)
  assets/sprites.png      sprite tiles, 128x128 indexed (256 tiles)
  asm/ui/board_nametable.s   the empty board screen: 960 tile bytes + 64 attribute bytes
  asm/ui/title_nametable.s   the title screen (nametable + attributes), RLE-compressed
  asm/tiles.inc           tile numbers and screen layout constants used by the asm
  asm/ui/zh_glyphs.s      the move list's Chinese glyphs (one bit plane each) and
                          the CHR-RAM tiles reserved to show them

Colour-index convention (tools/rom/chr.py reads the indexes of the indexed PNGs;
the PNG palette is only a preview, the NES colours come from palette_table in
asm/ui/board_view.s):
  background palette 0 (board):  0 wood, 1 grid lines, 2 piece face, 3 ink/frame
  background palette 1 (red):    0 wood, 1 grid lines, 2 piece face, 3 red ink
  background palette 2 (black):  0 wood, 1 grid lines, 2 piece face, 3 black ink
  background palette 3 (marked): 0 wood, 1 grid lines, 2 marked face, 3 ink
  so one set of piece tiles serves both sides: the attribute picks the ink.
  sprite palette 0 (cursor):     0 transparent, 1 outline, 2 fill, 3 highlight

Background tile map (tile number = position in bg.png, 16 per row):
  $00        blank wood
  $20-$5F    8x8 font in ASCII order (a string of ASCII codes is a tile row)
  $60-$97    pieces, 4 tiles each (top-left, top-right, bottom-left, bottom-right),
             red K A E H R C P then black K A E H R C P
  $A0-...    board tiles (grid, palace, marks, river, frame, title), deduplicated
  the blank tiles left ($01-$1F, $98-$9F and those after the board tiles):
             the Chinese move list's cells (ZH_CELLS of them), written at run
             time with the glyphs of asm/ui/zh_glyphs.s (ui_panel.s)

Sprite tile map (pattern table $1000; the title screen also uses it as its
background pattern table, so it holds a copy of the font):
  $00        blank
  $01        cursor corner (top-left; flipped for the other three)
  $02        legal-destination dot
  $03        thinking spinner (a ring in three sectors; the palette turns it)
  $20-$5F    the 8x8 font again (title text, drawn by code as ASCII)
  $60-...    title art (big 象棋, big XIANGQI, frame), deduplicated
  $C0-$FF    blank: the title's menu in Chinese (ui_lang), 16 glyphs written at
             run time (asm/ui/ui_title.s)

Title nametable RLE (asm/ui/title_nametable.s, decoded by ui_title.s): a
sequence of runs, each a control byte c then data: c = 0 ends the data;
c = 1-127: c literal bytes follow; c = $81-$FF: one byte follows, repeated
c - $80 times.  The 1,024 decoded bytes are the nametable then attributes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[2]
CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
CJK_FONT_INDEX = 1  # "WenQuanYi Zen Hei Sharp": hand-tuned bitmaps at 12 px
CJK_SIZE = 12

# Colour indexes (see the module docstring).
WOOD, LINE, FACE, INK = 0, 1, 2, 3
PREVIEW_PALETTE = [0xE4, 0xB0, 0x6C, 0x6C, 0x3C, 0x0C, 0xFC, 0xF0, 0xD8, 0x10, 0x10, 0x10]

# ---------------------------------------------------------------- layout
# Screen is 32x30 tiles = 16x15 metatiles (16x16 px, one attribute cell each).
BOARD_MCOL = 1        # metatile column of file a
BOARD_MROW = 2        # metatile row of rank 9 (Black's back rank, at the top)
RIVER_MROW = BOARD_MROW + 5
PIECE_TILE_BASE = 0x60
BOARD_TILE_BASE = 0xA0
FONT_FIRST = 0x20
TILE_BLANK = 0x00

PANEL_LEFT_COL = 22   # first tile column of the status panel text area
PANEL_RIGHT_COL = 29  # last tile column of the text area
TITLE_MROW = 2        # 象棋 in red, metatile columns 12-13
STATUS_MROW = 5       # side to move, tile rows 10-11
LEVEL_MROW = 7        # level name, tile rows 14-15
MOVE_ROW = 17         # panel: "MOVE  12", tile row (a separator above it)
THINK_ROW = 2 * STATUS_MROW + 1  # panel: thinking time, under the side to move
HISTORY_ROW = 19      # panel: first row of the last moves (every 2 rows)
HISTORY_ROWS = 4
ZH_ROW = 18           # panel: first row of the Chinese move list (2 rows a move)
ZH_MOVES = 4          # moves it shows: 4 glyphs of 16x16 px = 8 x 2 tiles each
MENU_ROW = 17         # panel: pause menu, first row (items every 2 rows)

# Title screen (tile rows / columns)
TITLE_ART_BASE = 0x60 # first sprite-table tile of the title art
TITLE_ZH_TILE = 0xC0  # the title's Chinese menu: 16 glyphs in sprite-table tiles $C0-$FF (written at run time)
TITLE_MENU_ROW = 16   # first menu item row (items every 2 rows: players, level, notation, start, puzzles, set up)
TITLE_LABEL_COL = 7   # menu labels
TITLE_VALUE_COL = 16  # menu values (drawn by code)

# The 14 piece characters, red then black, in piece-type order
# K(ing) A(dvisor) E(lephant) H(orse) R(ook) C(annon) P(awn).
PIECE_TYPES = "KAEHRCP"
RED_CHARS = "帥仕相傌俥炮兵"
BLACK_CHARS = "將士象馬車砲卒"

# The move list's glyphs (reference_py/notation.py format_zh), in the order
# of the asm's glyph numbers (ZH_GLYPH_* in tiles.inc): Red's file numerals,
# Black's full-width digits, the actions, the tandem marks, Red's pieces
# then Black's in kind order (K A E H R C P).
ZH_NUMERALS = "一二三四五六七八九"
ZH_DIGITS = "１２３４５６７８９"
ZH_ACTIONS = "进退平"
ZH_TANDEMS = "前中后"
ZH_RED_PIECES = "帅仕相马车炮兵"
ZH_BLACK_PIECES = "将士象马车炮卒"
# The game's texts when the language is Chinese (ui_lang): the pause menu,
# the winner and the reason of the end, the side to move and check, the
# end of the game, perpetual chase's reason (last: the glyph numbers of the
# others stay) (asm/ui/panel_zh.s), after the move list's glyphs; a
# character already there (将, 六) is not repeated.
ZH_TEXTS = [
    ("resume", "继续"), ("takeback", "悔棋"), ("hint", "提示"), ("resign", "认输"), ("new_game", "新局"),
    ("red_wins", "红胜"), ("black_wins", "黑胜"), ("draw", "和棋"),
    ("checkmate", "将死"), ("stalemate", "困毙"), ("perpetual", "长将"), ("repetition", "重复"),
    ("sixty", "六十回合"), ("resigned", "认输"), ("limit", "限着"),
    ("red_to_move", "红方走棋"), ("black_to_move", "黑方走棋"), ("check", "将军"),
    ("game_over", "终局"),
    ("chase", "长捉"),
    # the position editor (asm/ui/ui_setup.s): its menu (PLAY, SIDE, STANDARD,
    # EMPTY, EXIT), the side to move, the reasons PLAY refuses a position
    ("setup_play", "开始"), ("setup_side", "先后"), ("setup_standard", "初始"), ("setup_empty", "清空"),
    ("setup_exit", "退出"), ("red_first", "红先"), ("black_first", "黑先"),
    ("no_red_king", "缺少红帅"), ("no_black_king", "缺少黑将"), ("kings_face", "将帅照面"),
    ("red_in_check", "红方被将"), ("black_in_check", "黑方被将"), ("no_move", "无子可动"),
    # the title's menu (asm/ui/ui_title.s; 开始 is setup_play's): the labels
    # PLAYERS, LEVEL, the language item (ALL CHINESE), PUZZLES, SET UP, the
    # players' choices (1P as Red, 1P as Black, 2P fixed, 2P turning), the
    # level names (config/difficulty.yaml: Novice .. Master)
    ("title_players", "玩家"), ("title_level", "级别"), ("title_lang", "中文"),
    ("title_puzzles", "残局"), ("title_setup", "摆棋"),
    ("p1_red", "执红"), ("p1_black", "执黑"), ("p2_fixed", "双人"), ("p2_turn", "转盘"),
    ("level_0", "入门"), ("level_1", "初级"), ("level_2", "中级"), ("level_3", "高级"), ("level_4", "大师"),
    # the puzzle menu's help (A: 开始, B: 返回, the dot: 已解) and a puzzle's end
    # (asm/ui/ui_puzzle.s)
    ("puz_back", "返回"), ("puz_solved", "已解"), ("solved", "成功"), ("failed", "失败"),
]
_ZH_LIST = ZH_NUMERALS + ZH_DIGITS + ZH_ACTIONS + ZH_TANDEMS + ZH_RED_PIECES + ZH_BLACK_PIECES
ZH_UI = "".join(dict.fromkeys(ch for _, text in ZH_TEXTS for ch in text if ch not in _ZH_LIST))
ZH_GLYPHS = _ZH_LIST + ZH_UI
ZH_CELLS = ZH_MOVES * 16


def square_mcell(file: int, rank: int) -> tuple[int, int]:
    """Metatile (column, row) of a board square; rank 0 is Red's back rank."""
    mrow = BOARD_MROW + (9 - rank) + (1 if rank <= 4 else 0)
    return BOARD_MCOL + file, mrow


def cross(file: int, rank: int) -> tuple[int, int]:
    """Pixel of an intersection: 1 px lines at offset 7 inside the metatile."""
    mc, mr = square_mcell(file, rank)
    return mc * 16 + 7, mr * 16 + 7


# ---------------------------------------------------------------- 8x8 font
# 7x7 bold glyphs; the 8th row and column stay blank for spacing.
FONT = {
"A": [" ##### ","##   ##","##   ##","#######","##   ##","##   ##","##   ##"],
"B": ["###### ","##   ##","##   ##","###### ","##   ##","##   ##","###### "],
"C": [" ##### ","##   ##","##     ","##     ","##     ","##   ##"," ##### "],
"D": ["###### ","##   ##","##   ##","##   ##","##   ##","##   ##","###### "],
"E": ["#######","##     ","##     ","###### ","##     ","##     ","#######"],
"F": ["#######","##     ","##     ","###### ","##     ","##     ","##     "],
"G": [" ##### ","##   ##","##     ","## ####","##   ##","##   ##"," ######"],
"H": ["##   ##","##   ##","##   ##","#######","##   ##","##   ##","##   ##"],
"I": [" ######","   ##  ","   ##  ","   ##  ","   ##  ","   ##  "," ######"],
"J": ["    ###","     ##","     ##","     ##","##   ##","##   ##"," ##### "],
"K": ["##   ##","##  ## ","## ##  ","####   ","## ##  ","##  ## ","##   ##"],
"L": ["##     ","##     ","##     ","##     ","##     ","##     ","#######"],
"M": ["##   ##","### ###","#######","## # ##","##   ##","##   ##","##   ##"],
"N": ["##   ##","###  ##","#### ##","## ####","##  ###","##   ##","##   ##"],
"O": [" ##### ","##   ##","##   ##","##   ##","##   ##","##   ##"," ##### "],
"P": ["###### ","##   ##","##   ##","###### ","##     ","##     ","##     "],
"Q": [" ##### ","##   ##","##   ##","##   ##","## # ##","##  ## "," #### #"],
"R": ["###### ","##   ##","##   ##","###### ","## ##  ","##  ## ","##   ##"],
"S": [" ##### ","##   ##","##     "," ##### ","     ##","##   ##"," ##### "],
"T": ["#######","  ##   ","  ##   ","  ##   ","  ##   ","  ##   ","  ##   "],
"U": ["##   ##","##   ##","##   ##","##   ##","##   ##","##   ##"," ##### "],
"V": ["##   ##","##   ##","##   ##","##   ##"," ## ## ","  ###  ","   #   "],
"W": ["##   ##","##   ##","##   ##","## # ##","#######","### ###","##   ##"],
"X": ["##   ##"," ## ## ","  ###  ","  ###  ","  ###  "," ## ## ","##   ##"],
"Y": ["##   ##","##   ##"," ## ## ","  ###  ","  ##   ","  ##   ","  ##   "],
"Z": ["#######","    ## ","   ##  ","  ##   "," ##    ","##     ","#######"],
"0": [" ##### ","##  ###","## ####","#### ##","###  ##","##   ##"," ##### "],
"1": ["  ##   "," ###   ","  ##   ","  ##   ","  ##   ","  ##   "," ######"],
"2": [" ##### ","##   ##","     ##","  #### "," ##    ","##     ","#######"],
"3": [" ##### ","##   ##","     ##","  #### ","     ##","##   ##"," ##### "],
"4": ["   ### ","  #### "," ## ## ","##  ## ","#######","    ## ","    ## "],
"5": ["#######","##     ","###### ","     ##","     ##","##   ##"," ##### "],
"6": [" ##### ","##     ","##     ","###### ","##   ##","##   ##"," ##### "],
"7": ["#######","##   ##","    ## ","   ##  ","  ##   ","  ##   ","  ##   "],
"8": [" ##### ","##   ##","##   ##"," ##### ","##   ##","##   ##"," ##### "],
"9": [" ##### ","##   ##","##   ##"," ######","     ##","     ##"," ##### "],
":": ["       ","  ##   ","  ##   ","       ","  ##   ","  ##   ","       "],
"-": ["       ","       ","       "," ##### ","       ","       ","       "],
".": ["       ","       ","       ","       ","       ","  ##   ","  ##   "],
"!": ["  ##   ","  ##   ","  ##   ","  ##   ","  ##   ","       ","  ##   "],
"?": [" ##### ","##   ##","    ## ","   ##  ","   ##  ","       ","   ##  "],
"/": ["     ##","    ## ","   ##  ","  ##   "," ##    ","##     ","       "],
"'": ["  ##   ","  ##   "," ##    ","       ","       ","       ","       "],
",": ["       ","       ","       ","       ","  ##   ","  ##   "," ##    "],
"(": ["   ##  ","  ##   "," ##    "," ##    "," ##    ","  ##   ","   ##  "],
")": ["  ##   ","   ##  ","    ## ","    ## ","    ## ","   ##  ","  ##   "],
"+": ["       ","  ##   ","  ##   ","###### ","  ##   ","  ##   ","       "],
}


class Canvas:
    """A 2-D array of colour indexes."""

    def __init__(self, w: int, h: int, fill: int = 0):
        self.w, self.h = w, h
        self.px = [[fill] * w for _ in range(h)]

    def set(self, x: int, y: int, c: int) -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y][x] = c

    def hline(self, x0, x1, y, c):
        for x in range(min(x0, x1), max(x0, x1) + 1):
            self.set(x, y, c)

    def vline(self, x, y0, y1, c):
        for y in range(min(y0, y1), max(y0, y1) + 1):
            self.set(x, y, c)

    def blit(self, mask, x0, y0, c):
        for y, row in enumerate(mask):
            for x, on in enumerate(row):
                if on:
                    self.set(x0 + x, y0 + y, c)

    def tile(self, tx: int, ty: int) -> tuple:
        return tuple(tuple(self.px[ty * 8 + y][tx * 8:tx * 8 + 8]) for y in range(8))


def font_mask(ch: str):
    rows = FONT[ch]
    return [[c == "#" for c in r] for r in rows]


def text_mask(s: str):
    """A 1-bit mask of a string in the 8x8 font (8 px per character)."""
    out = [[False] * (8 * len(s)) for _ in range(7)]
    for i, ch in enumerate(s):
        if ch == " ":
            continue
        for y, row in enumerate(font_mask(ch)):
            for x, on in enumerate(row):
                out[y][i * 8 + x] = on
    return out


_cjk_font = None


def cjk_mask(ch: str, bold: bool = True):
    """The 12 px bitmap glyph of ch, trimmed to its ink, emboldened.

    Bold = each ink pixel also inks its right neighbour, but only where that
    keeps at least one blank pixel before the next stroke (so strokes thicken
    without closing the counters of dense characters like 漢 or 傌).
    """
    global _cjk_font
    if _cjk_font is None:
        try:
            _cjk_font = ImageFont.truetype(CJK_FONT, CJK_SIZE, index=CJK_FONT_INDEX)
        except OSError:
            sys.exit(f"tools/rom/art.py: cannot open {CJK_FONT}; "
                     "install it with: apt-get install -y fonts-wqy-zenhei")
    img = Image.new("L", (24, 24), 0)
    d = ImageDraw.Draw(img)
    d.fontmode = "1"
    d.text((4, 4), ch, font=_cjk_font, fill=255)
    box = img.getbbox()
    img = img.crop(box)
    w, h = img.size
    px = img.load()
    m = [[px[x, y] > 127 for x in range(w)] for y in range(h)]
    if bold:
        b = [row[:] + [False] for row in m]
        for y in range(h):
            for x in range(w):
                if m[y][x] and (x + 1 >= w or not m[y][x + 1]) \
                        and (x + 2 >= w or not m[y][x + 2]):
                    b[y][x + 1] = True
        # drop the added column if nothing reached it
        if not any(row[w] for row in b):
            b = [row[:w] for row in b]
        m = b
    return m


def centred(mask, cx2: int, cy2: int):
    """Top-left corner that centres mask on the half-pixel point (cx2/2, cy2/2)."""
    h, w = len(mask), len(mask[0])
    return (cx2 - w) // 2, (cy2 - h) // 2


# ---------------------------------------------------------------- pieces
PIECE_CHAMFER = 3  # corner cut of the piece outline, in pixels


def piece_canvas(ch: str) -> Canvas:
    """16x16 piece: an octagonal (chamfered-square) face with a 1 px ink outline
    and the bold 12 px glyph in ink.  The octagon leaves more room for the
    glyph than a disc of the same size, and still reads as a round piece."""

    def inside(x, y, cut):
        return min(x, 15 - x) + min(y, 15 - y) >= cut

    c = Canvas(16, 16, WOOD)
    for y in range(16):
        for x in range(16):
            if inside(x, y, PIECE_CHAMFER):
                edge = (not inside(x, y, PIECE_CHAMFER + 1)) or x in (0, 15) or y in (0, 15)
                c.set(x, y, INK if edge else FACE)
    g = cjk_mask(ch)
    x0, y0 = centred(g, 16, 16)
    c.blit(g, x0, y0, INK)
    return c


# ---------------------------------------------------------------- board
def draw_board() -> Canvas:
    """The whole empty screen (256x240): board, river, frames, panel box, title."""
    s = Canvas(256, 240, WOOD)
    # grid: ranks
    for r in range(10):
        x0, y = cross(0, r)
        x1, _ = cross(8, r)
        s.hline(x0, x1, y, LINE)
    # grid: files (inner files stop at the river, edge files cross it)
    for f in range(9):
        x, y9 = cross(f, 9)
        _, y5 = cross(f, 5)
        _, y4 = cross(f, 4)
        _, y0 = cross(f, 0)
        if f in (0, 8):
            s.vline(x, y9, y0, LINE)
        else:
            s.vline(x, y9, y5, LINE)
            s.vline(x, y4, y0, LINE)
    # palaces
    for (fa, ra), (fb, rb) in (((3, 0), (5, 2)), ((5, 0), (3, 2)),
                               ((3, 7), (5, 9)), ((5, 7), (3, 9))):
        xa, ya = cross(fa, ra)
        xb, yb = cross(fb, rb)
        n = abs(xb - xa)
        for k in range(n + 1):
            s.set(xa + k * (1 if xb > xa else -1), ya + k * (1 if yb > ya else -1), LINE)
    # cannon and pawn marks: small corners 2 px off the lines
    marks = [(1, 2), (7, 2), (1, 7), (7, 7)] + [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 6)]
    for f, r in marks:
        x, y = cross(f, r)
        for sx in (-1, 1):
            if (f == 0 and sx < 0) or (f == 8 and sx > 0):
                continue
            for sy in (-1, 1):
                s.hline(x + 2 * sx, x + 4 * sx, y + 2 * sy, LINE)
                s.vline(x + 2 * sx, y + 2 * sy, y + 4 * sy, LINE)
    # river text 楚河 ... 漢界, centred in the river row under files b, c, g, h
    ry = RIVER_MROW * 16
    for f, ch in zip((1, 2, 6, 7), "楚河漢界"):
        g = cjk_mask(ch)
        cx = (BOARD_MCOL + f) * 16
        x0, y0 = centred(g, 2 * cx + 16, 2 * ry + 16)
        s.blit(g, x0, y0, LINE)
    # board frame: thick outer line, thin inner line, outside the edge squares
    left, right = BOARD_MCOL * 16, (BOARD_MCOL + 9) * 16 - 1      # 16, 159
    top, bottom = BOARD_MROW * 16, (BOARD_MROW + 11) * 16 - 1     # 32, 207
    frame(s, left - 4, top - 4, right + 4, bottom + 4)
    # panel box, same style
    frame(s, PANEL_LEFT_COL * 8 - 7, top - 4, (PANEL_RIGHT_COL + 1) * 8 + 6, bottom + 4)
    # panel title: 象棋 in red (palette 1), "XIANGQI" under it
    for i, ch in enumerate("象棋"):
        g = cjk_mask(ch)
        cx = (12 + i) * 16
        x0, y0 = centred(g, 2 * cx + 16, 2 * TITLE_MROW * 16 + 16)
        s.blit(g, x0, y0, INK)
    t = text_mask("XIANGQI")
    mid = (PANEL_LEFT_COL * 8 + (PANEL_RIGHT_COL + 1) * 8) // 2
    s.blit(t, mid - len(t[0]) // 2 + 1, TITLE_MROW * 16 + 20, INK)
    # separators between the title, status and level blocks
    for y in (STATUS_MROW * 16 - 9, LEVEL_MROW * 16 - 9, MOVE_ROW * 8 - 5):
        s.hline(PANEL_LEFT_COL * 8 + 4, (PANEL_RIGHT_COL + 1) * 8 - 5, y, LINE)
    return s


def frame(s: Canvas, x0, y0, x1, y1):
    """Double frame: 2 px outer line at the edge, 1 px inner line 2 px inside."""
    for d in (0, 1):
        s.hline(x0, x1, y0 + d, LINE)
        s.hline(x0, x1, y1 - d, LINE)
        s.vline(x0 + d, y0, y1, LINE)
        s.vline(x1 - d, y0, y1, LINE)
    s.hline(x0 + 3, x1 - 3, y0 + 3, LINE)
    s.hline(x0 + 3, x1 - 3, y1 - 3, LINE)
    s.vline(x0 + 3, y0 + 3, y1 - 3, LINE)
    s.vline(x1 - 3, y0 + 3, y1 - 3, LINE)


def attributes() -> bytes:
    """Initial attribute table: palette 0 everywhere, 1 for the red title and status."""
    pal = [[0] * 16 for _ in range(16)]
    for mc in (12, 13):
        pal[TITLE_MROW][mc] = 1
    for mc in range(PANEL_LEFT_COL // 2, PANEL_RIGHT_COL // 2 + 1):
        pal[STATUS_MROW][mc] = 1
    out = bytearray(64)
    for ay in range(8):
        for ax in range(8):
            v = 0
            for q, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                v |= pal[ay * 2 + dy][ax * 2 + dx] << (2 * q)
            out[ay * 8 + ax] = v
    return bytes(out)


# ---------------------------------------------------------------- sprites
# Cursor corner (sprite tile $01, top-left; flipped for the others): a 2 px
# bright bracket with a 1 px dark outline.  main.s places it 3 px up and left
# of the square, so the bracket sits in the seam between squares and the
# inner outline follows the square's edge.
CURSOR_CORNER = [
    "1111111.",
    "1222221.",
    "1222221.",
    "1221111.",
    "1221....",
    "1221....",
    "1111....",
    "........",
]


# Legal-destination dot (sprite tile $02): a 5x5 disc, centre at (2, 2),
# so the sprite goes at the intersection minus (2, 2).
DOT = [
    ".111....",
    "12221...",
    "12321...",
    "12221...",
    ".111....",
    "........",
    "........",
    "........",
]
# Thinking spinner (sprite tile $03): a small ring in three sectors,
# colours 1 (top right), 2 (bottom) and 3 (left); the NMI turns it by
# lighting one sector after the other in the sprite palette (asm/system/nmi.s).
SPINNER = [
    "..3311..",
    ".333111.",
    "33....11",
    "33....11",
    "33....11",
    "32....21",
    ".222222.",
    "..2222..",
]


def big_cjk_mask(ch: str, size: int):
    """A big glyph of the vector WenQuanYi Zen Hei (mono), trimmed."""
    f = ImageFont.truetype(CJK_FONT, size, index=0)
    img = Image.new("L", (size * 2, size * 2), 0)
    d = ImageDraw.Draw(img)
    d.fontmode = "1"
    d.text((4, 4), ch, font=f, fill=255)
    img = img.crop(img.getbbox())
    w, h = img.size
    px = img.load()
    return [[px[x, y] > 127 for x in range(w)] for y in range(h)]


def scale_mask(m, k: int):
    return [[v for v in row for _ in range(k)] for row in m for _ in range(k)]


def draw_title() -> tuple[Canvas, list[list[int]]]:
    """The title screen (256x240) and its palette per metatile (16x15)."""
    s = Canvas(256, 240, WOOD)
    pal = [[0] * 16 for _ in range(15)]
    frame(s, 4, 4, 251, 235)
    # 象棋, 48 px glyphs, red (palette 1) with a brown shadow
    glyph_top = 24
    for i, ch in enumerate("象棋"):
        g = big_cjk_mask(ch, 44)
        cx = 128 + (i * 2 - 1) * 30
        x0 = cx - len(g[0]) // 2
        y0 = glyph_top + (48 - len(g)) // 2
        s.blit(g, x0 + 2, y0 + 2, LINE)
        s.blit(g, x0, y0, INK)
    for mr in range(1, 5):
        for mc in range(4, 12):
            pal[mr][mc] = 1
    # XIANGQI in the 8x8 font at double size
    t = scale_mask(text_mask("XIANGQI"), 2)
    x0 = 128 - (len(t[0]) - 2) // 2
    s.blit(t, x0 + 1, 89, LINE)
    s.blit(t, x0, 88, INK)
    # small lines: subtitle, menu labels, prompt
    def text(row, col, string):
        s.blit(text_mask(string), col * 8, row * 8, INK)
    text(14, 9, "CHINESE  CHESS")
    for k, label in enumerate(("PLAYERS", "LEVEL", "NOTATION", "START", "PUZZLES", "SET UP")):
        text(TITLE_MENU_ROW + 2 * k, TITLE_LABEL_COL, label)
    text(28, 5, "D-PAD: CHOOSE  A: PLAY")   # under the sixth item (row 26)
    return s, pal


def rle(data: bytes) -> bytes:
    """The RLE of the module docstring."""
    out = bytearray()
    i, lit = 0, bytearray()

    def flush():
        while lit:
            chunk = lit[:127]
            out.append(len(chunk))
            out.extend(chunk)
            del lit[:127]
    while i < len(data):
        j = i
        while j < len(data) and data[j] == data[i] and j - i < 127:
            j += 1
        if j - i >= 3:
            flush()
            out += bytes((0x80 + j - i, data[i]))
            i = j
        else:
            lit.append(data[i])
            i += 1
    flush()
    out.append(0)
    return bytes(out)


def attribute_bytes(pal) -> bytes:
    out = bytearray(64)
    for ay in range(8):
        for ax in range(8):
            v = 0
            for q, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                r = ay * 2 + dy
                if r < len(pal):
                    v |= pal[r][ax * 2 + dx] << (2 * q)
            out[ay * 8 + ax] = v
    return bytes(out)


def tile_map(screen: Canvas, ids: dict, first: int, store, what: str) -> tuple[bytearray, int]:
    """The 32x30 nametable of `screen`, deduplicating its 8x8 tiles: a tile
    already in `ids` is reused, a new one gets the next number from `first`
    and is written with store(number, tile).  Returns (nametable, next free
    number); the board and the title art share this, with their own tables."""
    nt = bytearray()
    nxt = first
    for ty in range(30):
        for tx in range(32):
            t = screen.tile(tx, ty)
            if t not in ids:
                if nxt > 0xFF:
                    sys.exit(f"tools/rom/art.py: too many distinct {what} tiles")
                ids[t] = nxt
                store(nxt, t)
                nxt += 1
            nt.append(ids[t])
    return nt, nxt


def build():
    sheet = Canvas(128, 128, WOOD)

    def put_tile(n, tile):
        ox, oy = (n % 16) * 8, (n // 16) * 8
        for y in range(8):
            for x in range(8):
                sheet.px[oy + y][ox + x] = tile[y][x]

    # font
    for code in range(0x20, 0x60):
        ch = chr(code)
        if ch in FONT:
            t = Canvas(8, 8, WOOD)
            t.blit(font_mask(ch), 0, 0, INK)
            put_tile(code, t.tile(0, 0))
    # pieces
    for i, ch in enumerate(RED_CHARS + BLACK_CHARS):
        p = piece_canvas(ch)
        for q, (tx, ty) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
            put_tile(PIECE_TILE_BASE + 4 * i + q, p.tile(tx, ty))
    # board tiles, deduplicated
    screen = draw_board()
    blank = Canvas(8, 8, WOOD).tile(0, 0)
    ids = {blank: TILE_BLANK}
    nt, nxt = tile_map(screen, ids, BOARD_TILE_BASE, put_tile, "board")
    nt += attributes()

    img = Image.new("P", (128, 128))
    img.putpalette(PREVIEW_PALETTE)
    img.putdata([c for row in sheet.px for c in row])
    img.save(ROOT / "assets" / "bg.png", optimize=True)

    spr = Image.new("P", (128, 128))
    spr.putpalette([0xFF, 0x00, 0xFF, 0x10, 0x10, 0x10, 0x40, 0xC0, 0xF0, 0xFF, 0xFF, 0xFF])
    sp = [[0] * 128 for _ in range(128)]
    for y, row in enumerate(CURSOR_CORNER):   # tile $01: cursor corner (top-left)
        for x, ch in enumerate(row):
            sp[y][8 + x] = 0 if ch == "." else int(ch)
    for n, art in ((2, DOT), (3, SPINNER)):
        for y, row in enumerate(art):
            for x, ch in enumerate(row):
                sp[y][n * 8 + x] = 0 if ch == "." else int(ch)
    # the font again at $20-$5F (ink = colour 3), for the title's background
    for code in range(0x20, 0x60):
        ch = chr(code)
        if ch in FONT:
            ox, oy = (code % 16) * 8, (code // 16) * 8
            for y, row in enumerate(font_mask(ch)):
                for x, on in enumerate(row):
                    if on:
                        sp[oy + y][ox + x] = INK
    # the title art from $60, deduplicated against everything above
    title, tpal = draw_title()
    spr_ids = {}
    for n in range(0x60):
        tile = tuple(tuple(sp[(n // 16) * 8 + y][(n % 16) * 8:(n % 16) * 8 + 8]) for y in range(8))
        if n in (0, ) or 0x20 <= n < 0x60:
            spr_ids.setdefault(tile, n)

    def put_sprite_tile(n, tile):
        ox, oy = (n % 16) * 8, (n // 16) * 8
        for y in range(8):
            for x in range(8):
                sp[oy + y][ox + x] = tile[y][x]

    tnt, tnext = tile_map(title, spr_ids, TITLE_ART_BASE, put_sprite_tile, "title")
    if tnext > TITLE_ZH_TILE:   # the title's Chinese menu writes $C0-$FF (ZH_TITLE_TILE in global.inc)
        sys.exit(f"tools/rom/art.py: the title art reaches ${tnext - 1:02X}, the Chinese menu's tiles start at ${TITLE_ZH_TILE:02X}")
    tnt += attribute_bytes(tpal)
    write_title(rle(bytes(tnt)), tnext)
    spr.putdata([c for row in sp for c in row])
    spr.save(ROOT / "assets" / "sprites.png", optimize=True)

    write_nametable(nt)
    write_zh_glyphs(sheet, nxt)
    write_tiles_inc(nxt)
    print(f"tools/rom/art.py: {nxt - BOARD_TILE_BASE} board tiles (${BOARD_TILE_BASE:02X}-${nxt - 1:02X})")


def write_nametable(nt: bytes) -> None:
    lines = [
        "; Generated by tools/rom/art.py from the same drawing as assets/bg.png.",
        "; Do not edit: change tools/rom/art.py and run it again.",
        ";",
        "; The empty board screen: 960 tile numbers (32x30, row by row) then the",
        "; 64-byte attribute table.  board_view.s copies it to nametable $2000 and",
        "; reads it back to redraw the empty intersection under a square.",
        "",
        ".export board_nametable",
        "",
        '.segment "UI_DATA"',
        "board_nametable:",
    ]
    for ty in range(30):
        row = nt[ty * 32:(ty + 1) * 32]
        for half in (0, 16):
            lines.append("  .byte " + ",".join(f"${b:02X}" for b in row[half:half + 16])
                         + (f"  ; row {ty}" if half == 0 else ""))
    lines.append("board_attributes:")
    for ay in range(8):
        lines.append("  .byte " + ",".join(f"${b:02X}" for b in nt[960 + ay * 8:960 + ay * 8 + 8]))
    lines.append(".assert board_attributes - board_nametable = 960, error, \"nametable size\"")
    lines.append("")
    (ROOT / "asm" / "ui" / "board_nametable.s").write_text("\n".join(lines))


def write_title(data: bytes, next_free: int) -> None:
    lines = [
        "; Generated by tools/rom/art.py (draw_title).",
        "; Do not edit: change tools/rom/art.py and run it again.",
        ";",
        "; The title screen: 960 tile numbers (sprite pattern table $1000, which",
        "; the title uses for its background) then 64 attribute bytes, RLE-",
        f"; compressed to {len(data)} bytes (format in tools/rom/art.py; decoded by",
        "; title_draw in ui_title.s).  Title art tiles: "
        f"${TITLE_ART_BASE:02X}-${next_free - 1:02X}.",
        "",
        ".export title_rle",
        "",
        '.segment "UI_DATA"',
        "title_rle:",
    ]
    for i in range(0, len(data), 16):
        lines.append("  .byte " + ",".join(f"${b:02X}" for b in data[i:i + 16]))
    lines.append("")
    (ROOT / "asm" / "ui" / "title_nametable.s").write_text("\n".join(lines))
    print(f"tools/rom/art.py: title {len(data)} bytes RLE, tiles ${TITLE_ART_BASE:02X}-${next_free - 1:02X}")


def zh_glyph_rows(ch: str) -> list[int]:
    """A move-list glyph as 32 bytes, one bit plane: its 16x16 cell's tiles
    top-left, top-right, bottom-left, bottom-right, 8 rows each (bit 7 the
    left pixel); the bold 12 px glyph centred."""
    c = Canvas(16, 16, WOOD)
    g = cjk_mask(ch)
    x0, y0 = centred(g, 16, 16)
    c.blit(g, x0, y0, INK)
    out = []
    for tx, ty in ((0, 0), (1, 0), (0, 1), (1, 1)):
        for y in range(8):
            row = c.px[ty * 8 + y][tx * 8:tx * 8 + 8]
            out.append(sum(0x80 >> x for x, v in enumerate(row) if v == INK))
    return out


def zh_cell_tiles(sheet: Canvas, next_free: int) -> list[int]:
    """The background tiles the move list may rewrite: blank in bg.png and
    used by nothing ($01-$1F, the gap after the pieces, the tiles after the
    board's), ZH_CELLS of them, lowest first."""
    def blank(n):
        return all(v == WOOD for row in sheet.px[(n // 16) * 8:(n // 16) * 8 + 8]
                   for v in row[(n % 16) * 8:(n % 16) * 8 + 8])
    free = [n for n in range(1, 0x100)
            if not FONT_FIRST <= n < PIECE_TILE_BASE + 56 and not BOARD_TILE_BASE <= n < next_free]
    free += [n for n in range(PIECE_TILE_BASE + 56, BOARD_TILE_BASE)]
    free = sorted(n for n in set(free) if blank(n))
    if len(free) < ZH_CELLS:
        sys.exit(f"tools/rom/art.py: {len(free)} free background tiles, the move list needs {ZH_CELLS}")
    return free[:ZH_CELLS]


def write_zh_glyphs(sheet: Canvas, next_free: int) -> None:
    cells = zh_cell_tiles(sheet, next_free)
    lines = [
        "; Generated by tools/rom/art.py (write_zh_glyphs).",
        "; Do not edit: change tools/rom/art.py and run it again.",
        ";",
        "; The Chinese move list (panel_zh.s, panel_moves_zh) and the texts of the",
        ";   Chinese language (zht_*: the pause menu, the result; panel_zh.s).",
        "; zh_glyph_bits: glyph n (ZH_GLYPH_* in tiles.inc) at n * 32: one bit plane",
        ";   (the ink, colour 3, is both planes) of its 16x16 cell: the top-left,",
        ";   top-right, bottom-left and bottom-right tiles, 8 rows each.",
        "; zh_cell_tile: the background tiles the list rewrites, move slot m (0 the",
        ";   top one) at m * 16: its top tile row (8 tiles, glyph g at 2g, 2g + 1),",
        ";   then its bottom tile row.",
        "",
        ".export zh_glyph_bits, zh_cell_tile",
        ".export " + ", ".join(f"zht_{name}" for name, _ in ZH_TEXTS),
        "",
        '.segment "UI_DATA"',
        "zh_glyph_bits:",
    ]
    for n, ch in enumerate(ZH_GLYPHS):
        rows = zh_glyph_rows(ch)
        lines.append("  .byte " + ",".join(f"${b:02X}" for b in rows[:16]) + f"  ; {n} {ch}")
        lines.append("  .byte " + ",".join(f"${b:02X}" for b in rows[16:]))
    lines.append("; the texts of the Chinese language: count, glyph numbers")
    for name, text in ZH_TEXTS:
        glyphs = ",".join(str(ZH_GLYPHS.index(ch)) for ch in text)
        lines.append(f"zht_{name}: .byte {len(text)},{glyphs}  ; {text}")
    lines.append("zh_cell_tile:")
    for m in range(ZH_MOVES):
        lines.append("  .byte " + ",".join(f"${b:02X}" for b in cells[m * 16:m * 16 + 16]) + f"  ; slot {m}")
    lines.append(f".assert zht_{ZH_TEXTS[0][0]} - zh_glyph_bits = {len(ZH_GLYPHS)} * 32, error, \"glyph table size\"")
    lines.append("")
    (ROOT / "asm" / "ui" / "zh_glyphs.s").write_text("\n".join(lines))


def write_tiles_inc(next_free: int) -> None:
    text = f"""; Generated by tools/rom/art.py: tile numbers and screen layout of the art.
; Do not edit: change tools/rom/art.py and run it again.

; ---- background tiles (pattern table $0000)
TILE_BLANK        = ${TILE_BLANK:02X}  ; plain wood
FONT_FIRST_TILE   = ${FONT_FIRST:02X}  ; 8x8 font: tile number = ASCII code
PIECE_TILE_BASE   = ${PIECE_TILE_BASE:02X}  ; 4 tiles per piece: TL, TR, BL, BR
PIECE_TILES_BLACK = 7 * 4  ; black pieces follow the 7 red ones
BOARD_TILE_BASE   = ${BOARD_TILE_BASE:02X}  ; board tiles ${BOARD_TILE_BASE:02X}-${next_free - 1:02X}

; ---- sprite tiles (pattern table $1000)
SPR_TILE_BLANK    = $00
SPR_TILE_CURSOR   = $01  ; top-left corner; flipped for the other three
SPR_TILE_DOT      = $02  ; legal destination: 5x5 disc centred at (2, 2)
SPR_TILE_SPINNER  = $03  ; thinking spinner, a ring in three sectors (turned by the palette)

; ---- layout, in 16x16 metatiles (the attribute grid)
BOARD_MCOL        = {BOARD_MCOL}   ; metatile column of file a
BOARD_MROW        = {BOARD_MROW}   ; metatile row of rank 9 (top)
RIVER_MROW        = {RIVER_MROW}   ; the river row, between ranks 5 and 4
TITLE_MROW        = {TITLE_MROW}
STATUS_MROW       = {STATUS_MROW}   ; side to move: tile rows {2 * STATUS_MROW}-{2 * STATUS_MROW + 1}
LEVEL_MROW        = {LEVEL_MROW}   ; level name: tile rows {2 * LEVEL_MROW}-{2 * LEVEL_MROW + 1}
PANEL_LEFT_COL    = {PANEL_LEFT_COL}  ; panel text area, tile columns
PANEL_RIGHT_COL   = {PANEL_RIGHT_COL}
MOVE_ROW          = {MOVE_ROW}  ; panel tile rows: move number
THINK_ROW         = {THINK_ROW}  ; thinking time
HISTORY_ROW       = {HISTORY_ROW}  ; last moves: {HISTORY_ROWS} rows, every 2 rows
HISTORY_ROWS      = {HISTORY_ROWS}
MENU_ROW          = {MENU_ROW}  ; pause menu, items every 2 rows
ZH_ROW            = {ZH_ROW}  ; the Chinese move list: {ZH_MOVES} moves of 2 tile rows
ZH_MOVES          = {ZH_MOVES}

; ---- the Chinese move list's glyphs (asm/ui/zh_glyphs.s)
ZH_GLYPH_NUMERAL  = {ZH_GLYPHS.index(ZH_NUMERALS[0])}   ; Red's 一..九 (1-9)
ZH_GLYPH_DIGIT    = {ZH_GLYPHS.index(ZH_DIGITS[0])}   ; Black's １..９ (1-9)
ZH_GLYPH_ACTION   = {ZH_GLYPHS.index(ZH_ACTIONS[0])}  ; 进 退 平
ZH_GLYPH_TANDEM   = {ZH_GLYPHS.index(ZH_TANDEMS[0])}  ; 前 中 后
ZH_GLYPH_PIECE    = {ZH_GLYPHS.index(ZH_RED_PIECES[0])}  ; Red's pieces by kind, then Black's (7 each)

; ---- title screen (tile rows and columns; art in title_nametable.s)
TITLE_MENU_ROW    = {TITLE_MENU_ROW}  ; players, level, notation, start, puzzles, set up: every 2 rows
TITLE_LABEL_COL   = {TITLE_LABEL_COL}
TITLE_VALUE_COL   = {TITLE_VALUE_COL}
"""
    (ROOT / "asm" / "tiles.inc").write_text(text)


if __name__ == "__main__":
    build()
