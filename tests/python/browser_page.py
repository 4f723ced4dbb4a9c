"""The board page of `tessera serve`, driven in headless Chromium by Playwright.

Usage: browser_page.py <tessera binary> <screenshot folder> <guru2 Charge position>

The engine binary itself is the oracle: for every game the page must show `geometry`'s cells and
`board`'s men, take a legal move by clicks (or the keyboard), and let an engine seat answer. Then a
promotion and an Elephant Charge are made by clicks, one honeycomb3 game is played to its end by
three engine seats, and requests without the access token are refused. Exits non-zero with a
message on the first failure.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

BINARY, SHOTS, CHARGE_FEN = sys.argv[1], sys.argv[2], sys.argv[3]
# The games whose screenshots go into the README: every game, with one Different Armies pair.
README_SHOTS = {"chess", "cwda-cn", "ninjachess", "honeycomb3", "wildhoney3", "guru2", "aof3"}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


PAGE_ERRORS = []
PAGES = []


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    for page in PAGES:
        try:
            print(f"status {page.text_content('#status')!r}, hint {page.text_content('#hint')!r}", file=sys.stderr)
            page.screenshot(path=os.path.join(SHOTS, "failure.png"))
        except Exception as e:
            print(f"no screenshot: {e}", file=sys.stderr)
    for error in PAGE_ERRORS:
        print(f"page: {error}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def engine(game, *commands):
    """The engine's answer to `commands` in `game`, as lines."""
    text = "\n".join([f"setoption name UCI_Variant value {game}", *commands, "quit"]) + "\n"
    out = subprocess.run([BINARY], input=text, capture_output=True, text=True, timeout=60, check=True)
    return [line for line in out.stdout.splitlines() if not line.startswith("info string game ")]


def variants():
    line = next(l for l in engine("chess", "uci") if l.startswith("option name UCI_Variant"))
    return line.split(" var ")[1:]


def split_cells(text, names):
    """A one-leg move's cells, by the longest cell names (as the page does)."""
    cells, rest = [], text
    while rest and len(cells) < 2:
        n = next((n for n in range(min(8, len(rest)), 0, -1) if rest[:n] in names), None)
        if n is None:
            break
        cells.append(rest[:n])
        rest = rest[n:]
    return cells, rest


class Oracle:
    """What the engine says of a game's start: cells, men, legal moves."""

    def __init__(self, game, moves=()):
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        lines = engine(game, "geometry", position, "board", "legal")
        self.cells = [l.split()[1] for l in lines if l.startswith("cell ")]
        self.men = sorted((w[1], w[2] + w[3]) for w in (l.split() for l in lines) if w[0] == "man")
        legal_line = next(l for l in lines if not l.startswith(("cell ", "geometry", "man ", "board")))
        self.legal = legal_line.split()

    def two_click_move(self):
        """A legal move made by two clicks that no other move shares (no promotion choice)."""
        names = set(self.cells)
        by_cells = {}
        for mv in self.legal:
            if "," in mv or mv == "0000":
                continue
            cells, _ = split_cells(mv, names)
            by_cells.setdefault(tuple(cells), []).append(mv)
        return next((cells, mvs[0]) for cells, mvs in by_cells.items() if len(cells) == 2 and len(mvs) == 1)


def shown_men(page):
    pairs = page.eval_on_selector_all("[data-piece]", "els => els.map(e => [e.dataset.cell, e.dataset.piece])")
    return sorted((c, p) for c, p in pairs)


def fits(page, game, size):
    """Every cell of the board lies inside the window: nothing to scroll to."""
    outside = page.eval_on_selector_all(
        "[data-cell]",
        """els => els.filter(e => { const r = e.getBoundingClientRect();
            return r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
            .map(e => e.dataset.cell)""",
    )
    check(not outside, f"{game} at {size}: {len(outside)} cells outside the window, e.g. {outside[:3]}")


def seat_letters(page):
    return page.eval_on_selector_all("select[data-seat]", "els => els.map(e => e.dataset.seat)")


def marked_last(page, cells, letter):
    """Whether every cell of `cells` is marked as part of `letter`'s last move."""
    return all(letter in (page.get_attribute(f'[data-cell="{c}"]', "data-last") or "") for c in cells)


def choose_game(page, game):
    page.select_option("#game", game)
    page.wait_for_selector(f'body[data-game="{game}"]', timeout=30000)


def click(page, cell, keyboard=False):
    target = page.locator(f'[data-cell="{cell}"]')
    if keyboard:
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()


def played(page, ply, timeout=30000):
    """The move string of ply `ply` in the move list."""
    return page.locator(f'#moves [data-ply="{ply}"]').get_attribute("data-move", timeout=timeout)


def written(page, ply):
    """How the move list writes ply `ply`."""
    return page.locator(f'#moves [data-ply="{ply}"]').text_content()


def check_token(url):
    base = url.split("?")[0]
    for bad in (base, base + "?token=wrong"):
        try:
            urllib.request.urlopen(bad, timeout=10)
            fail(f"{bad} was served without the token")
        except urllib.error.HTTPError as e:
            check(e.code == 403, f"{bad}: status {e.code}, expected 403")
    check(urllib.request.urlopen(url, timeout=10).status == 200, "the page with its token")
    host, port = base.split("//")[1].rstrip("/").split(":")
    for path, expected in (("/ws", b"HTTP/1.1 403"), ("/ws?token=wrong", b"HTTP/1.1 403"), ("/ws?" + url.split("?")[1], b"HTTP/1.1 101")):
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
            check(answer.startswith(expected), f"websocket {path}: {answer[:40]!r}, expected {expected!r}")


# Whether every man shows its owner's letter: in its drawing (the <defs> entry its <use> shows) or
# on its disc in the letter style.
OWNER_LETTERS = """els => els.every(e => {
    const use = e.querySelector('use');
    const text = use ? document.querySelector(use.getAttribute('href')).querySelector('text') : e.querySelector('.owner');
    return text && text.textContent === e.dataset.piece[0];
})"""


def drawings(page, game):
    """Every kind of the game has a drawing of its own (the legend's markup, no two alike), the men
    on the board are drawn with them, and the letter style is there too. aof3's drawing time is
    printed."""
    kinds = page.eval_on_selector_all("#legend [data-kind]", "els => els.map(e => [e.dataset.kind, e.querySelector('svg').innerHTML])")
    count = sum(1 for l in engine(game, "pieces") if l.startswith("piece "))
    check(len(kinds) == count, f"{game}: the legend shows {len(kinds)} kinds, pieces lists {count}")
    alike = [a for a, b in kinds if [m for _, m in kinds].count(b) > 1]
    check(not alike, f"{game}: kinds drawn alike: {alike}")
    drawn = page.eval_on_selector_all("[data-piece]", "els => els.every(e => e.querySelector('use') !== null)")
    check(drawn, f"{game}: a man not drawn with its kind's drawing")
    if game == "aof3":
        ms = page.evaluate("() => { const t = performance.now(); dispatchEvent(new Event('resize')); return performance.now() - t; }")
        print(f"aof3: the board with its 188 men drawn in {ms:.1f} ms", flush=True)
    if game == "chess":
        page.check("#letters")
        check(page.text_content('[data-cell="e1"] .man text') == "K", "the letter style shows no K on e1")
        page.uncheck("#letters")
        page.wait_for_selector('[data-cell="e1"] use')


def seat_views(page, game):
    """Viewed from each player, that player's men are the nearest the viewer: lowest on the screen
    (none of the others' lower by more than a third of a cell)."""
    letters = seat_letters(page)
    for i, me in enumerate(letters):
        page.select_option("#rotate", str(i))
        heights = page.evaluate(
            """letters => {
                const cell = document.querySelector('[data-cell]').getBoundingClientRect().height;
                const mean = (l) => { const ys = [...document.querySelectorAll(`[data-piece^="${l}"]`)].map(e => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
                                      return ys.reduce((a, b) => a + b, 0) / ys.length; };
                return { cell, means: letters.map(mean) };
            }""",
            letters,
        )
        means, cell = heights["means"], heights["cell"]
        lower = [l for l, y in zip(letters, means) if y > means[i] + cell / 3]
        check(not lower, f"{game} from {me}: {lower} nearer the viewer than {me} ({[round(y) for y in means]})")
    page.select_option("#rotate", "0")


def every_game(page):
    for game in variants():
        try:
            choose_game(page, game)
        except Exception as e:
            fail(f"{game}: the page did not load the game: {e}")
        oracle = Oracle(game)
        fits(page, game, "1400x900")
        shown = page.locator("[data-cell]").count()
        check(shown == len(oracle.cells), f"{game}: {shown} [data-cell], geometry has {len(oracle.cells)}")
        check(shown_men(page) == oracle.men, f"{game}: the men shown differ from board's")
        # Players differ by their letter on every man, not only by colour.
        owners = page.eval_on_selector_all("[data-piece]", OWNER_LETTERS)
        check(owners, f"{game}: a man without its owner's letter")
        drawings(page, game)
        seat_views(page, game)
        for box in page.query_selector_all("input[data-movetime]"):
            box.fill("100")
        if game in README_SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"{game}.png"))
        (src, dst), mv = oracle.two_click_move()
        keyboard = game == "chess"
        click(page, src, keyboard)
        check(page.locator(f'[data-cell="{src}"].selected').count() == 1, f"{game}: {src} not selected")
        click(page, dst, keyboard)
        check(played(page, 1) == mv, f"{game}: move 1 shown as {played(page, 1)!r}, expected {mv}")
        answer = played(page, 2)
        check(answer in Oracle(game, [mv]).legal, f"{game}: the engine's answer {answer} is not legal")
        # The move list writes the moves as the engine's record does (SAN in chess).
        record = next(l for l in engine(game, f"position startpos moves {mv} {answer}", "record") if l.startswith("record"))
        check([written(page, 1), written(page, 2)] == record.split()[1:], f"{game}: the move list shows {written(page, 1)!r} {written(page, 2)!r}, the record {record!r}")
        # Each player's last move is marked, in that player's colour.
        names = set(oracle.cells)
        letters = seat_letters(page)
        answer_cells = [c for leg in answer.split(",") for c in split_cells(leg, names)[0]]
        check(marked_last(page, split_cells(mv, names)[0], letters[0]), f"{game}: move 1 {mv} not marked as {letters[0]}'s last")
        check(marked_last(page, answer_cells, letters[1]), f"{game}: move 2 {answer} not marked as {letters[1]}'s last")
        print(f"{game}: {shown} cells, {len(oracle.men)} men, {mv} by {'keys' if keyboard else 'clicks'}, engine answered {answer}", flush=True)


def load(page, game, fen):
    choose_game(page, game)
    page.fill("#fen", fen)
    page.click("#load")
    page.wait_for_function("fen => document.body.dataset.start === fen && document.body.dataset.plies === '0'", arg=fen)
    seats = page.eval_on_selector_all("select[data-seat]", "els => els.map(e => e.value)")
    check(all(s == "human" for s in seats), f"{game}: a loaded position leaves every seat human, got {seats}")


def promotion(page):
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    load(page, "chess", fen)
    page.wait_for_selector('[data-cell="a7"][data-piece]')
    click(page, "a7")
    click(page, "a8")
    page.wait_for_selector("#promotion:not([hidden]) button[data-promotion='n']")
    page.click("#promotion button[data-promotion='n']")
    check(played(page, 1) == "a7a8n", f"promotion shown as {played(page, 1)!r}")
    page.wait_for_selector('[data-cell="a8"][data-piece="wN"]')
    # A promoted pawn was not captured.
    check(page.locator('[data-captured="w"] [data-kind]').count() == 0, "promotion: White's pawn shown as lost")
    print("promotion a7a8n by clicks", flush=True)


def charge(page):
    load(page, "guru2", CHARGE_FEN)
    page.wait_for_selector('[data-cell="Uc3"][data-piece="rE"]')
    for cell in ["Uc3", "Ue5", "Ud4", "Uf6", "Ue5", "Ug7"]:
        click(page, cell)
    page.click("#finish")
    mv = played(page, 1)
    check(mv == "Uc3Ue5,Ud4Uf6,Ue5Ug7", f"charge shown as {mv!r}")
    page.wait_for_selector('[data-cell="Ug7"][data-piece="rE"]')
    check(page.locator('[data-cell="Uf6"][data-piece="rE"]').count() == 1, "charge: no Elephant on Uf6")
    for empty in ["Uc3", "Ud4", "Ue5"]:
        check(page.locator(f'[data-cell="{empty}"][data-piece]').count() == 0, f"charge: {empty} not empty")
    print("Elephant Charge Uc3Ue5,Ud4Uf6,Ue5Ug7 by clicks", flush=True)


def check_ring(page):
    load(page, "chess", "4k3/8/8/8/8/8/4Q3/4K3 b - - 0 1")
    page.wait_for_selector('[data-cell="e8"][data-check="yes"]')
    check(page.locator("[data-check]").count() == 1, "check: only the King in check is ringed")
    print("check: the King in check on e8 is ringed", flush=True)


def stepping(page):
    """Two moves by clicks, then the arrows and the move list show the earlier positions without
    taking a move back; End returns to the game as it stands."""
    load(page, "chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    for ply, (start, end) in enumerate([("e2", "e4"), ("e7", "e5")], 1):
        click(page, start)
        click(page, end)
        page.wait_for_selector(f'body[data-plies="{ply}"]')
    page.wait_for_selector('[data-cell="e5"][data-piece="bP"]')
    page.locator("#fen").blur()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('body[data-view-ply="1"]')
    page.wait_for_selector('[data-cell="e7"][data-piece="bP"]')
    check(page.locator('[data-cell="e4"][data-piece="wP"]').count() == 1, "stepping: ply 1 shows the pawn on e4")
    check(marked_last(page, ["e2", "e4"], "w") and page.locator("[data-last]").count() == 2, "stepping: ply 1 marks White's move only")
    page.click('#moves [data-ply="2"]')
    page.wait_for_function("!document.body.hasAttribute('data-view-ply')")
    page.keyboard.press("Home")
    page.wait_for_selector('body[data-view-ply="0"]')
    page.wait_for_selector('[data-cell="e2"][data-piece="wP"]')
    page.keyboard.press("End")
    page.wait_for_function("!document.body.hasAttribute('data-view-ply')")
    page.wait_for_selector('[data-cell="e5"][data-piece="bP"]')
    check(page.locator("#moves [data-ply]").count() == 2, "stepping took a move back")
    print("stepping: the arrows, Home, End and the move list show plies 0-2, nothing taken back", flush=True)


def piece_help(page):
    """Hovering a man marks the cells it reaches on an empty board, on every level, and says how
    it moves in words."""
    choose_game(page, "chess")
    page.hover('[data-cell="g1"]')
    page.wait_for_selector('[data-cell="f3"][data-reach]')
    reach = sorted(page.eval_on_selector_all("[data-reach]", "els => els.map(e => e.dataset.cell)"))
    check(reach == ["e2", "f3", "h3"], f"help: the Knight on g1 reaches {reach}")
    info = page.text_content("#piece-info")
    check("leaps 2:1" in info, f"help: the Knight's words {info!r}")
    choose_game(page, "guru2")
    page.hover('[data-cell="Ub1"]')
    page.wait_for_function("document.querySelectorAll('[data-reach]').length > 0")
    reach = page.eval_on_selector_all("[data-reach]", "els => els.map(e => e.dataset.cell)")
    want = engine("guru2", "reach Ub1")[0].split()[2:]
    check(sorted(reach) == sorted(want), f"help: guru2's Ub1 marks {reach}, reach says {want}")
    check(any(c.startswith("L") for c in reach), f"help: the man on Ub1 reaches no cell of the Lower level: {reach}")
    page.mouse.move(0, 0)
    page.wait_for_function("document.querySelectorAll('[data-reach]').length === 0")
    print(f"help: the Knight on g1 reaches e2 f3 h3 ({info}); guru2's Ub1 {len(reach)} cells on both levels", flush=True)


def records(page):
    """A game downloads as PGN in chess (as the engine's record writes it) and as a `fen … moves …`
    line in honeycomb3; each file loads back, from another game, to the same moves."""
    for game, fen, clicks in [
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [("g1", "f3"), ("d7", "d5")]),
        ("honeycomb3", None, None),
    ]:
        if fen:
            load(page, game, fen)
        else:
            choose_game(page, game)
            for seat in page.query_selector_all("select[data-seat]"):
                seat.select_option("human")
            first = Oracle(game).two_click_move()[0]
            second = Oracle(game, [Oracle(game).two_click_move()[1]]).two_click_move()[0]
            clicks = [first, second]
        for ply, (a, b) in enumerate(clicks, 1):
            click(page, a)
            click(page, b)
            page.wait_for_selector(f'body[data-plies="{ply}"]')
        moves = [played(page, 1), played(page, 2)]
        with page.expect_download() as download:
            page.click("#download")
        path = download.value.path()
        text = open(path).read()
        if game == "chess":
            record = next(l for l in engine(game, f"position startpos moves {' '.join(moves)}", "record") if l.startswith("record"))
            want = f"1. {record.split()[1]} {record.split()[2]} *"
            check('[Result "*"]' in text and '[White "human"]' in text and want in text, f"chess PGN:\n{text}")
        else:
            check(text.startswith(f"variant {game}\nfen ") and text.rstrip().endswith(f"moves {' '.join(moves)}"), f"{game} record:\n{text}")
        choose_game(page, "guru2" if game == "chess" else "chess")
        page.set_input_files("#record-file", path)
        page.wait_for_selector(f'body[data-game="{game}"][data-plies="2"]')
        check([played(page, 1), played(page, 2)] == moves, f"{game}: the loaded record's moves differ from {moves}")
        check(marked_last(page, split_cells(moves[1], set(Oracle(game).cells))[0], seat_letters(page)[1]), f"{game}: the loaded record's last move is not marked")
        print(f"records: {game} downloaded ({text.splitlines()[0]} ...) and loaded back", flush=True)


def captured_and_arrows(page):
    """A capture puts the man taken beside its owner's name; the analysis lines' first moves are
    arrows in their lines' colours, gone when the analysis is off."""
    load(page, "chess", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    click(page, "e4")
    click(page, "d5")
    page.wait_for_selector('[data-captured="b"] [data-kind="P"]')
    check(page.locator("[data-captured] [data-kind]").count() == 1, "captured: more than Black's pawn shown as lost")
    page.fill("#multipv", "2")
    page.check("#analyse")
    # The arrows are the lines' first moves, in the lines' colours.
    same = """() => {
        const lines = [...document.querySelectorAll('#analysis li')].map(li => [li.textContent.split('  ')[1].split(' ')[0], li.style.borderLeftColor]);
        const arrows = [...document.querySelectorAll('[data-arrow]')].map(a => [a.dataset.arrow, a.querySelector('polygon').getAttribute('fill')]);
        const rgb = (hex) => `rgb(${[1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
        return lines.length === 2 && arrows.length === 2 && lines.every(([m, c], i) => arrows[i][0] === m && rgb(arrows[i][1]) === c) && lines.map(l => l[0]);
    }"""
    arrows_seen = page.wait_for_function(same, timeout=30000).json_value()
    page.uncheck("#analyse")
    page.wait_for_function("document.querySelectorAll('[data-arrow]').length === 0")
    page.fill("#multipv", "3")
    print(f"captured: Black's pawn beside Black; analysis arrows for {arrows_seen}", flush=True)


def human_view(page):
    """The board is seen from a human seat's side: Black human and White an engine turns it."""
    choose_game(page, "chess")
    page.select_option('select[data-seat="b"]', "human")
    page.select_option('select[data-seat="w"]', "engine")
    page.wait_for_function("document.querySelector('#rotate').value === '1'")
    page.wait_for_selector('body[data-plies="1"]')
    print("views: a human Black seat is seen from Black's side", flush=True)


def low_clock(page):
    """A clock under 10 s shows red."""
    choose_game(page, "chess")
    page.fill("#clock-base", "0.1")
    page.check("#use-clock")
    page.wait_for_selector('[data-clock="w"].low')
    page.uncheck("#use-clock")
    page.fill("#clock-base", "5")
    print("clocks: under 10 s in red", flush=True)


def other_sizes(page):
    """Every game's board fits a 1280x720 window whole, and a phone held upright (390x844), where
    the panel comes below the board."""
    page.set_viewport_size({"width": 1280, "height": 720})
    for game in variants():
        choose_game(page, game)
        fits(page, game, "1280x720")
    page.set_viewport_size({"width": 390, "height": 844})
    for game in variants():
        choose_game(page, game)
        fits(page, game, "390x844")
        below = page.evaluate("document.querySelector('aside').getBoundingClientRect().top >= document.querySelector('#board').getBoundingClientRect().bottom - 1")
        check(below, f"{game} on a phone: the panel is not below the board")
        if game in README_SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"{game}-phone.png"))
    page.set_viewport_size({"width": 1400, "height": 900})
    print("every board fits 1280x720 and 390x844; on a phone the panel is below the board", flush=True)


def engines_play_honeycomb(page):
    choose_game(page, "honeycomb3")
    for box in page.query_selector_all("input[data-movetime]"):
        box.fill("30")
    for seat in page.query_selector_all("select[data-seat]"):
        seat.select_option("engine")
    page.wait_for_selector('#status[data-over="yes"]', timeout=600000)
    status = page.text_content("#status")
    plies = page.locator("#moves li").count()
    check("Game over" in status and "1." in status, f"honeycomb3 ended without placings: {status!r}")
    summary = page.text_content("#summary")
    check(page.locator("#summary:not([hidden]) #summary-new").count() == 1 and page.locator("#summary-analyse").count() == 1, "no game-over summary")
    check("wins" in summary or "Drawn" in summary, f"the summary says no result: {summary!r}")
    # Analysing the game: every seat human, the analysis on, the start shown; then a new game.
    page.click("#summary-analyse")
    page.wait_for_selector('body[data-view-ply="0"]')
    seats = page.eval_on_selector_all("select[data-seat]", "els => els.map(e => e.value)")
    check(page.is_checked("#analyse") and all(v == "human" for v in seats), f"analyse this game: analysis {page.is_checked('#analyse')}, seats {seats}")
    page.uncheck("#analyse")
    page.click("#summary-new")
    page.wait_for_selector('body[data-plies="0"] #summary[hidden]', state="attached")
    print(f"honeycomb3 played by three engine seats: {plies} plies, {status}", flush=True)


def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def analysis_and_closing(browser, url, pid):
    """A second page analyses honeycomb3 (lines and a bar per player); closing it stops its search
    and ends its session's threads."""
    idle = threads(pid)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.wait_for_selector('body[data-ready="yes"]', timeout=30000)
    choose_game(page, "honeycomb3")
    page.fill("#multipv", "2")
    page.check("#analyse")
    page.wait_for_function("document.querySelectorAll('#analysis li').length >= 2", timeout=30000)
    bars = page.locator("[data-bar]").count()
    check(bars == 3, f"analysis: {bars} score bars, expected 3")
    busy = threads(pid)
    check(busy > idle, f"analysis: {busy} threads while the second page searches, {idle} before")
    page.close()
    for _ in range(100):
        if threads(pid) <= idle:
            break
        time.sleep(0.1)
    check(threads(pid) <= idle, f"a closed page left {threads(pid)} threads running, {idle} before it opened")
    print(f"analysis: 2 lines and 3 bars; closing the page ended its threads ({busy} -> {threads(pid)})", flush=True)


def main():
    os.makedirs(SHOTS, exist_ok=True)
    server = subprocess.Popen([BINARY, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:") and "?token=" in url, f"first line {url!r}")
        check_token(url)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda e: PAGE_ERRORS.append(str(e)))
            PAGES.append(page)
            page.on("console", lambda m: PAGE_ERRORS.append(m.text) if m.type == "error" else None)
            page.goto(url)
            page.wait_for_selector('body[data-ready="yes"]', timeout=30000)
            analysis_and_closing(browser, url, server.pid)
            try:
                every_game(page)
                promotion(page)
                charge(page)
                check_ring(page)
                stepping(page)
                piece_help(page)
                records(page)
                captured_and_arrows(page)
                human_view(page)
                low_clock(page)
                other_sizes(page)
                engines_play_honeycomb(page)
            except Exception as e:
                fail(f"{type(e).__name__}: {e}")
            check(not PAGE_ERRORS, "no errors in the page")
            browser.close()
    finally:
        server.kill()
    print("browser page: all checks passed")


main()
