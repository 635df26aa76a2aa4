"""Seven Bridges: the rules object the bot talks to (``engine.Game``).

RULINGS §1.3 and §1.7. Five rounds; in each round every drafting position rolls once.
A roll is a *turn*: the roller rolls all six dice and picks go clockwise from the roller
until the sixth die is drafted. Each die is drawn as soon as it is drafted (the bot's
reading of Continuity). Passing a landmark's letter gives a bonus choice, crossing a
bridge in the advanced game an item choice; both are settled before play goes on. With
one player Euler holds the second position and drafts automatically.

Here: options, the checks ``apply`` makes for each kind of move, results, views and JSON.
The flow without decisions is in :mod:`~engine.seven_bridges.flow`, the lists of legal
moves in :mod:`~engine.seven_bridges.moves`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import (
    TURN,
    BadOptions,
    Event,
    Game,
    GameInfo,
    IllegalMove,
    Result,
    Rng,
    Stage,
    Step,
    seat_ref,
)
from engine.seven_bridges import euler
from engine.seven_bridges.bonuses import NOT_TAKEN, REROLLS, RESERVED, Bonuses
from engine.seven_bridges.dice import DICE, HORSE, KINDS, die_token, face_name, roll
from engine.seven_bridges.flow import draw, initial, roll_start, settle, start_turn
from engine.seven_bridges.lines import PRINTED, arm_name, bits
from engine.seven_bridges.map import CITY, format_square, parse_square
from engine.seven_bridges.moves import arms_of, bonus_options, fits, pick_options, placement_refusal
from engine.seven_bridges.notation import (
    Action,
    Bonus,
    Choose,
    Discard,
    Distribute,
    Downgrade,
    Pick,
    Reroll,
    Reserve,
    Roll,
    format_action,
    format_placement,
    parse_action,
)
from engine.seven_bridges.scoring import ITEMS, Scorecard, rank_key, scorecard
from engine.seven_bridges.state import (
    PICKS,
    ROUNDS,
    Player,
    PlayerView,
    State,
    View,
    available,
    dice_text,
    name_of,
    owner,
    positions,
    roller,
    with_seat,
)


def _truthy(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "yes", "true", "on"):
        return True
    if text in ("0", "no", "false", "off"):
        return False
    raise BadOptions(f"Option {name} is on or off, not {value!r}.")


class SevenBridges(Game[State, Action]):
    info = GameInfo(
        key="seven-bridges",
        name="Seven Bridges",
        min_players=1,
        max_players=6,
        personal_views=True,  # each player draws on their own sheet
        summary=(
            "Roll-and-write dice drafting on a map of Königsberg: draw streets, cross the "
            "bridges, visit landmarks; alone, you play Euler."
        ),
        help=(
            "**Seven Bridges** — 1 (against Euler) to 6 players, 5 rounds.\n"
            "Each turn one player rolls the six dice; picks go round from the roller until "
            "all six are taken, and you draw each die's lines on your own map at once: "
            "touching your lines at an end point, all of it in one square, never over a "
            "line (crossing is fine). A horse die draws a straight line of up to 2 or 3 "
            "squares from an end or corner of your lines. Passing a landmark letter gives a "
            "bonus: a shape drawn now, a re-roll/distribute for later, or footpaths.\n"
            "Score: best loop (corners × bridges on it), bridges n², landmarks, buildings, "
            "trees, map edges, used bonuses; you keep one item per bridge crossed.\n"
            "**Moves:** `roll` (the roller starts each turn), `tee3 ii-2-3 nes` (die = face "
            "+ its horse type; square quadrant-row-col; arms), `cross2 ii-2-3`, "
            "`horse3 ii-2-4w e3` (start, direction, half squares), `bonus corner i-1-2 es`, "
            "`reserve reroll`, `reroll`, "
            "`distribute ...`, `downgrade tee3`, `score trees` (advanced).\n"
            "*Bridgekeeper's reconstruction [P]:* the map, face values and order, bonus "
            "values, horse starts, footpaths from reservation, and more — see "
            "docs/rules/seven-bridges.md."
        ),
        options={
            "start": "the starting square, e.g. ii-2-3 (default: rolled with the dice)",
            "advanced": "on: choose the item each bridge crossing scores (default off)",
        },
    )

    # -- creation ------------------------------------------------------------------------

    def new(self, players: int, options: Mapping[str, Any] | None, seed: int) -> State:
        if not self.info.min_players <= players <= self.info.max_players:
            raise BadOptions(f"Seven Bridges is for 1 to 6 players, not {players}.")
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.info.options))
        if unknown:
            raise BadOptions(
                f"Seven Bridges has no option {', '.join(unknown)} "
                f"(options: {', '.join(self.info.options)})."
            )
        advanced = _truthy(options.get("advanced", False), "advanced")
        rng = Rng.from_seed(seed)
        start_text = str(options.get("start", "roll")).strip().lower()
        if start_text == "roll":
            start, rng = roll_start(rng)
        else:
            square = parse_square(start_text)
            if square is None:
                raise BadOptions(f"start={start_text} is not a square (write e.g. ii-2-3).")
            if not CITY.arms[square]:
                raise BadOptions(
                    f"{format_square(square)} is {CITY.kinds[square]}: the game starts on a "
                    f"square with streets or footpaths."
                )
            start = square
        first = 0
        if players > 1:
            first, rng = rng.below(players)
        return initial(players, advanced, start, first, rng)

    # -- moves ---------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_play(state):
            return []
        player = state.seats[seat]
        if player.pending_items:
            return [Choose(item) for item in ITEMS if item not in player.chosen]
        if player.pending:
            return bonus_options(player)
        if state.rolling:
            return [Roll()]
        return pick_options(state, seat)

    # -- until this game follows engine/README.md's kit (issue #18) ----------------------
    rules = ()

    def awaited(self, state: State) -> dict[int, Stage]:
        return dict.fromkeys(self.to_play(state), TURN)

    def apply(self, state: State, seat: int, action: Action) -> Step[State, Action]:
        new, events = self._apply(state, seat, action)
        return self.step(action, new, events)

    def refusal(self, state: State, seat: int, action: Action) -> str | None:
        try:
            self._apply(state, seat, action)
        except IllegalMove as exc:
            return exc.reason
        return None

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.is_over(state):
            raise IllegalMove("The game is over.")
        if not 0 <= seat < state.players:
            raise IllegalMove("You are not playing in this game.")
        if seat not in self.to_play(state):
            waiting = ", ".join(seat_ref(s) for s in self.to_play(state))
            raise IllegalMove(f"It is not your turn: waiting for {waiting}.")
        player = state.seats[seat]
        events: list[Event] = []
        if isinstance(action, Choose):
            new = self._choose(state, seat, action, events)
        elif player.pending_items:
            raise IllegalMove(
                "Advanced rule: you crossed a bridge; first choose the item it scores "
                "(`score loop`, `score trees`, ...)."
            )
        elif isinstance(action, Bonus | Reserve):
            new = self._bonus(state, seat, action, events)
        elif player.pending:
            raise IllegalMove(
                "You visited a landmark: first choose its bonus (`bonus ...` or `reserve ...`)."
            )
        elif isinstance(action, Roll):
            if not state.rolling:
                raise IllegalMove("The dice are already rolled: draft one of them.")
            new = start_turn(state, events)
        elif state.rolling:
            raise IllegalMove("Roll the dice first: `roll`.")
        elif isinstance(action, Pick):
            new = self._pick(state, seat, action, events)
        elif isinstance(action, Reroll | Distribute):
            new = self._reserved_use(state, seat, action, events)
        elif isinstance(action, Downgrade | Discard):
            new = self._stuck(state, seat, action, events)
        else:
            raise IllegalMove("That is not a Seven Bridges move.")
        text = self.format(action)
        new = replace(
            new,
            last_seat=seat,
            last_move=text,
            last_arms=new.seats[seat].drawn & ~player.drawn,
        )
        return settle(new, events), events

    def _choose(self, state: State, seat: int, action: Choose, events: list[Event]) -> State:
        player = state.seats[seat]
        if not player.pending_items:
            raise IllegalMove("Advanced rule: you choose an item only when you cross a bridge.")
        if action.item not in ITEMS:
            raise IllegalMove(f"Items are: {', '.join(ITEMS)}.")
        if action.item in player.chosen:
            raise IllegalMove(f"Advanced rule: you already chose {action.item}; pick another.")
        events.append(Event("item", f"{seat_ref(seat)} will score {action.item}."))
        player = replace(
            player, chosen=(*player.chosen, action.item), pending_items=player.pending_items - 1
        )
        return with_seat(state, seat, player)

    def _bonus(
        self, state: State, seat: int, action: Bonus | Reserve, events: list[Event]
    ) -> State:
        player = state.seats[seat]
        if not player.pending:
            raise IllegalMove(
                "Bonuses come from landmarks: pass a landmark's letter to choose one."
            )
        b = player.bonuses
        if isinstance(action, Reserve):
            if action.what == "reroll":
                if b.reserved >= REROLLS:
                    raise IllegalMove(
                        "Reserved use: all three re-roll/distribute bonuses are taken."
                    )
                b = replace(b, reserved=b.reserved + 1)
                events.append(
                    Event("reserve", f"{seat_ref(seat)} reserves re-roll/distribute #{b.reserved}.")
                )
            elif action.what == "footpaths":
                if b.footpaths != NOT_TAKEN:
                    raise IllegalMove("Reserved use: you already have the footpaths bonus.")
                b = replace(b, footpaths=RESERVED)
                events.append(Event("reserve", f"{seat_ref(seat)} reserves the footpaths bonus."))
            else:
                raise IllegalMove("You can reserve `reroll` or `footpaths`.")
            return with_seat(state, seat, replace(player, bonuses=b, pending=player.pending - 1))
        if action.value not in range(1, 7):
            raise IllegalMove("That is not a bonus shape.")
        name = face_name(action.value)
        if not b.immediate_free(action.value):
            raise IllegalMove(f"Immediate use: you have already used the {name} bonus.")
        reason = placement_refusal(player, action.value, None, action.where)
        if reason:
            raise IllegalMove(reason)
        b = replace(b, immediate=b.immediate | 1 << action.value)
        state = with_seat(state, seat, replace(player, bonuses=b, pending=player.pending - 1))
        where = format_placement(action.where)
        events.append(Event("bonus", f"{seat_ref(seat)} drew the {name} bonus at {where}."))
        return with_seat(
            state, seat, draw(state, seat, arms_of(action.value, action.where), events)
        )

    def _pick(self, state: State, seat: int, action: Pick, events: list[Event]) -> State:
        token = die_token(action.kind, action.value) if action.value in range(1, 7) else "?"
        if action.kind not in (2, 3) or action.value not in range(1, 7):
            raise IllegalMove("That is not a die: faces cross to horse, types 2 and 3.")
        if state.committed >= 0:
            d = state.committed
            if (KINDS[d], state.dice[d]) != (action.kind, action.value):
                raise IllegalMove(
                    f"Continuity: you drafted the {dice_text(state, (d,))} by downgrading and "
                    f"must draw it before anything else."
                )
            die = d
        else:
            mine = available(state, seat)
            matching = [d for d in mine if (KINDS[d], state.dice[d]) == (action.kind, action.value)]
            if not matching:
                where = "in your hand" if state.hands else "left"
                raise IllegalMove(
                    f"There is no {token} {where}; the dice you may take: {dice_text(state, mine)}."
                )
            die = matching[0]
        player = state.seats[seat]
        reason = placement_refusal(player, action.value, action.kind, action.where)
        if reason:
            raise IllegalMove(reason)
        dice = list(state.dice)
        dice[die] = 0
        state = replace(state, dice=tuple(dice), slot=state.slot + 1, committed=-1)
        where = format_placement(action.where)
        events.append(Event("draw", f"{seat_ref(seat)} took {token} and drew it at {where}."))
        return with_seat(
            state, seat, draw(state, seat, arms_of(action.value, action.where), events)
        )

    def _reserved_use(
        self, state: State, seat: int, action: Reroll | Distribute, events: list[Event]
    ) -> State:
        player = state.seats[seat]
        b = player.bonuses
        if state.committed >= 0:
            raise IllegalMove("Continuity: you have drafted a die by downgrading; draw it first.")
        if not b.reroll_ready:
            raise IllegalMove("Reserved use: you have no reserved re-roll/distribute bonus to use.")
        if seat in state.rerolled:
            raise IllegalMove("Reserved use: only one re-roll/distribute bonus per turn.")
        mine = available(state, seat)
        number = b.spent + 1
        if isinstance(action, Reroll):
            values, rng = roll(state.rng, len(mine))
            dice = list(state.dice)
            for d, v in zip(mine, values, strict=True):
                dice[d] = v
            state = replace(state, dice=tuple(dice), rng=rng)
            events.append(
                Event(
                    "reroll",
                    f"{seat_ref(seat)} uses re-roll #{number}: {dice_text(state, mine)}.",
                )
            )
        else:
            state = self._distribute(state, seat, action, mine, number, events)
        player = replace(player, bonuses=replace(b, spent=number))
        return with_seat(replace(state, rerolled=state.rerolled | {seat}), seat, player)

    def _distribute(
        self,
        state: State,
        seat: int,
        action: Distribute,
        mine: tuple[int, ...],
        number: int,
        events: list[Event],
    ) -> State:
        if state.hands:
            raise IllegalMove("Distribute: the dice of this turn have already been handed out.")
        slots = list(range(state.slot, PICKS))
        if len(action.dice) != len(slots):
            raise IllegalMove(
                f"Distribute: name one die for each of the {len(slots)} remaining picks, in "
                f"pick order."
            )
        offered = Counter((KINDS[d], state.dice[d]) for d in mine)
        if Counter(action.dice) != offered:
            raise IllegalMove(
                f"Distribute: hand out exactly the dice left: {dice_text(state, mine)}."
            )
        hands: list[list[int]] = [[] for _ in range(positions(state))]
        free = list(mine)
        for slot, (kind, value) in zip(slots, action.dice, strict=True):
            d = next(d for d in free if (KINDS[d], state.dice[d]) == (kind, value))
            free.remove(d)
            hands[owner(state, slot)].append(d)
        state = replace(state, hands=tuple(tuple(h) for h in hands))
        given = "; ".join(
            f"{name_of(state, p)} {dice_text(state, tuple(h))}" for p, h in enumerate(hands) if h
        )
        events.append(Event("distribute", f"{seat_ref(seat)} uses distribute #{number}: {given}."))
        return state

    def _stuck(
        self, state: State, seat: int, action: Downgrade | Discard, events: list[Event]
    ) -> State:
        player = state.seats[seat]
        if state.committed >= 0:
            raise IllegalMove("Continuity: you have drafted a die by downgrading; draw it first.")
        mine = available(state, seat)
        token = die_token(action.kind, action.value) if action.value in range(1, 7) else "?"
        for d in mine:
            if fits(player, state.dice[d], KINDS[d]):
                rule = "Downgrade" if isinstance(action, Downgrade) else "Discard"
                raise IllegalMove(
                    f"{rule}: the {dice_text(state, (d,))} fits on your map, so you must "
                    f"draft a die you can draw."
                )
        horses = [d for d in mine if state.dice[d] == HORSE]
        matching = [d for d in mine if (KINDS[d], state.dice[d]) == (action.kind, action.value)]
        if not matching:
            raise IllegalMove(f"There is no {token} among your dice: {dice_text(state, mine)}.")
        die = matching[0]
        dice = list(state.dice)
        if isinstance(action, Discard):
            if not horses:
                raise IllegalMove(
                    "Downgrade: nothing fits and no horse is out, so you downgrade the lowest "
                    "die instead of discarding."
                )
            dice[die] = 0
            events.append(
                Event("waste", f"{seat_ref(seat)} can draw nothing and discards {token}.")
            )
            player = replace(player, wasted=player.wasted + 1)
            state = replace(state, dice=tuple(dice), slot=state.slot + 1)
            return with_seat(state, seat, player)
        if horses:
            raise IllegalMove("Downgrade: you cannot downgrade while a horse die is available.")
        low = min(state.dice[d] for d in mine)
        if action.value != low:
            raise IllegalMove(
                f"Downgrade: you must take the die with the lowest value ({face_name(low)})."
            )
        for value in range(action.value + 1, 7):
            if fits(player, value, action.kind):
                dice[die] = value
                events.append(
                    Event(
                        "downgrade",
                        f"{seat_ref(seat)} downgrades {token} to {die_token(action.kind, value)}.",
                    )
                )
                return replace(state, dice=tuple(dice), committed=die)
        dice[die] = 0
        events.append(
            Event("waste", f"{seat_ref(seat)} downgrades {token} but nothing fits: wasted.")
        )
        state = replace(state, dice=tuple(dice), slot=state.slot + 1)
        return with_seat(state, seat, replace(player, wasted=player.wasted + 1))

    # -- notation ------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    # -- reading the state -----------------------------------------------------------------

    def to_play(self, state: State) -> tuple[int, ...]:
        if state.round >= ROUNDS:
            return ()
        waiting = tuple(s for s, p in enumerate(state.seats) if p.pending or p.pending_items)
        if waiting:
            return waiting
        return (owner(state, state.slot),)

    def is_over(self, state: State) -> bool:
        return state.round >= ROUNDS

    def cards(self, state: State) -> tuple[Scorecard, ...]:
        return tuple(
            scorecard(p.drawn, p.bonuses, p.chosen if state.advanced else None) for p in state.seats
        )

    def result(self, state: State) -> Result:
        """Highest total; ties: most bridges, then landmarks, then best single item.

        Alone, the player's rival is Euler, so the place counts him: 1st for beating or
        tying him, 2nd when he wins. Otherwise the service would announce "1st" for a lost
        game. Equal totals are a tie, shared 1st.
        """
        cards = self.cards(state)
        if state.players == 1:
            return self._against_euler(cards[0].total, euler.total(cards[0]))
        keys = [rank_key(c) for c in cards]
        places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
        totals = tuple(c.total for c in cards)
        tied = any(
            totals[a] == totals[b] and keys[a] != keys[b]
            for a in range(len(keys))
            for b in range(a)
        )
        detail = "Ties broken by bridges, then landmarks, then best item." if tied else ""
        return Result(scores=totals, places=places, detail=detail)

    @staticmethod
    def _against_euler(mine: int, them: int) -> Result:
        """The solo verdict: a win, tie or loss against Euler, by how much."""
        if mine > them:
            verdict = f"you beat Euler by {mine - them}"
        elif mine < them:
            verdict = f"Euler wins by {them - mine}"
        else:
            verdict = "a tie with Euler"
        place = 2 if mine < them else 1
        return Result(scores=(mine,), places=(place,), detail=f"Euler scores {them}: {verdict}.")

    def view(self, state: State, seat: int | None) -> View:
        cards = self.cards(state)
        over = self.is_over(state)
        seats = tuple(
            PlayerView(
                drawn=tuple(bits(p.drawn)),
                bonuses=p.bonuses,
                pending=p.pending,
                pending_items=p.pending_items,
                chosen=p.chosen,
                wasted=p.wasted,
                card=card,
                hand=available(state, s) if state.hands else (),
            )
            for s, (p, card) in enumerate(zip(state.seats, cards, strict=True))
        )
        solo = state.players == 1
        return View(
            players=state.players,
            seat=seat,
            solo=solo,
            advanced=state.advanced,
            start=state.start,
            round=min(state.round, ROUNDS - 1) + 1,
            turn=state.turn,
            roller=roller(state),
            rolling=state.rolling,
            slot=state.slot,
            pick_owners=tuple(owner(state, k) for k in range(PICKS)),
            dice=tuple((KINDS[d], state.dice[d]) for d in range(DICE)),
            committed=state.committed,
            seats=seats,
            to_play=self.to_play(state),
            last_seat=state.last_seat,
            last_move=state.last_move,
            last_arms=tuple(bits(state.last_arms)),
            over=over,
            places=self.result(state).places if over else None,
            euler_items=euler.items(cards[0]) if solo else None,
            euler_total=euler.total(cards[0]) if solo else None,
        )

    # -- JSON ------------------------------------------------------------------------------

    def state_to_dict(self, state: State) -> dict[str, Any]:
        return {
            "players": state.players,
            "advanced": state.advanced,
            "start": format_square(state.start),
            "first": state.first,
            "seats": [
                {
                    "drawn": sorted(arm_name(a) for a in bits(p.drawn)),
                    "immediate": p.bonuses.immediate,
                    "reserved": p.bonuses.reserved,
                    "spent": p.bonuses.spent,
                    "footpaths": p.bonuses.footpaths,
                    "pending": p.pending,
                    "pending_items": p.pending_items,
                    "chosen": list(p.chosen),
                    "wasted": p.wasted,
                }
                for p in state.seats
            ],
            "setup": state.setup,
            "rolling": state.rolling,
            "round": state.round,
            "turn": state.turn,
            "slot": state.slot,
            "dice": list(state.dice),
            "hands": [list(h) for h in state.hands],
            "committed": state.committed,
            "rerolled": sorted(state.rerolled),
            "last_seat": state.last_seat,
            "last_move": state.last_move,
            "last_arms": sorted(arm_name(a) for a in bits(state.last_arms)),
            "rng": state.rng.state,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        names = _ARM_BY_NAME
        return State(
            players=data["players"],
            advanced=data["advanced"],
            start=parse_square(data["start"]),
            first=data["first"],
            seats=tuple(
                Player(
                    drawn=sum(1 << names[a] for a in p["drawn"]),
                    bonuses=Bonuses(
                        immediate=p["immediate"],
                        reserved=p["reserved"],
                        spent=p["spent"],
                        footpaths=p["footpaths"],
                    ),
                    pending=p["pending"],
                    pending_items=p["pending_items"],
                    chosen=tuple(p["chosen"]),
                    wasted=p["wasted"],
                )
                for p in data["seats"]
            ),
            setup=data["setup"],
            rolling=data.get("rolling", False),  # games stored before `roll` were rolled
            round=data["round"],
            turn=data["turn"],
            slot=data["slot"],
            dice=tuple(data["dice"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            committed=data["committed"],
            rerolled=frozenset(data["rerolled"]),
            last_seat=data["last_seat"],
            last_move=data["last_move"],
            last_arms=sum(1 << names[a] for a in data["last_arms"]),
            rng=Rng(data["rng"]),
        )


_ARM_BY_NAME = {arm_name(a): a for a in PRINTED}
