"""Every game's looks in one place: a picture, words and a seat's colour for every game
the engine plays, drawn from views that carry their last move as text, so that no
renderer asks the rules how a move is written."""

from __future__ import annotations

import ast
import io
import random
from dataclasses import replace
from pathlib import Path

from PIL import Image

import engine
import renders

NAMES = ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay")
RENDERS = Path(renders.__file__).parent


def test_every_game_has_its_looks_and_they_draw_describe_and_colour_it() -> None:
    assert sorted(renders.LOOKS) == sorted(engine.GAMES)
    for key, rules in engine.GAMES.items():
        looks = renders.looks(key)
        assert looks is not None
        looks.warm()
        players = rules.info.min_players
        view = rules.view(rules.new(players, None, 3), None)
        picture = Image.open(io.BytesIO(looks.draw(view, NAMES[:players])))
        assert picture.format == "PNG" and picture.width >= 800, key
        assert looks.describe(view, NAMES[:players]).startswith(rules.info.name), key
        for seat in range(players):
            colour = looks.accent(view, seat)
            assert colour is None or (len(colour) == 3 and all(0 <= c < 256 for c in colour))
    assert renders.looks("chess") is None


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports, and ``module.name`` for each name it imports from one."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def test_no_renderer_asks_the_rules_how_a_move_is_written() -> None:
    """Renderers read views; a move's notation is the rules' (each game's ``actions``, or
    ``engine.get(key).format``), so a view carries its last move already written."""
    for path in sorted(RENDERS.rglob("*.py")):
        for module in _imports(path):
            assert module != "engine", f"{path.name} imports the rules' registry"
            assert not module.endswith(".actions"), f"{path.name} imports {module}"


def test_views_carry_the_last_move_as_it_is_written() -> None:
    """Skybridge's and Bridge Wars' views name their last move as the rules write it, the
    same for every viewer (the other games' views already did: Seven Bridges'
    ``last_move``, the others' ``last``)."""
    for key in ("skybridge", "bridge-wars"):
        rules, rng = engine.get(key), random.Random(8)
        for seed in range(3):
            players = rng.randint(rules.info.min_players, rules.info.max_players)
            state = rules.new(players, None, seed)
            assert rules.view(state, None).last_move == ""
            while not rules.is_over(state):
                seat = rng.choice(rules.to_play(state))
                action = rng.choice(rules.legal(state, seat))
                state = rules.apply(state, seat, action).state
                view = rules.view(state, None)
                assert view == replace(rules.view(state, seat), seat=None)
                if getattr(view.last, "seat", seat) == seat:  # Skybridge's last has no seat
                    assert view.last_move == rules.format(action), key
                else:  # the rules placed it themselves (a last corner left, say)
                    assert rules.format(rules.parse(view.last_move)) == view.last_move, key
